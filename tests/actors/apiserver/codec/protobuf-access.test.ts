// The access-control kinds as Protobuf: the bodies kubectl 1.32 sends for create role,
// clusterrole, rolebinding, clusterrolebinding, serviceaccount and token, auth can-i --list and
// auth whoami, and field numbers (k8s.io/api generated.proto) that those bodies leave unused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { decodeProtobuf, encodeProtobuf, PROTOBUF_MAGIC, supportsProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import { ProtoWriter } from '../../../../actors/apiserver/codec/protobuf-wire.ts';

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

function envelope(apiVersion: string, kind: string, raw: ProtoWriter): Uint8Array {
  const typeMeta = new ProtoWriter().tag(1, 2).string(apiVersion).tag(2, 2).string(kind);
  return Uint8Array.from([...PROTOBUF_MAGIC, ...new ProtoWriter().tag(1, 2).embed(typeMeta).tag(2, 2).embed(raw).finish()]);
}

const str = (no: number, s: string) => new ProtoWriter().tag(no, 2).string(s);

// Bytes kubectl 1.32.4 sent to orchsim (captured at ApiServer.handle); like the bodies in
// protobuf.test.ts, every ObjectMeta carries its empty strings and an empty Time.
const kubectl = {
  createRole: hex('6b3873000a240a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311204526f6c6512280a110a017212001a0022002a0032003800420012130a03676574'
    + '0a046c69737412001a04706f64731a002200'),
  createClusterRole: hex('6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c6512240a120a02637212001a0022002a003200380042'
    + '00120e0a036765742a072f6c6f67732f2a1a002200'),
  createAggregatedClusterRole: hex('6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b436c7573746572526f6c65124b0a130a0361676712001a0022002a0032003800'
    + '42001a340a320a300a28726261632e6578616d706c652e636f6d2f6167677265676174652d746f2d6d6f6e69746f72696e671204747275651a002200'),
  createRoleBinding: hex('6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b526f6c6542696e64696e6712660a120a02726212001a0022002a003200380042'
    + '00122a0a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a05616c69636522001a240a19726261632e617574686f72697a6174696f6e2e6b38'
    + '732e696f1204526f6c651a01721a002200'),
  createRoleBindingToClusterRole: hex('6b3873000a2b0a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f7631120b526f6c6542696e64696e6712bc010a130a0372623212001a0022002a00320038'
    + '004200122a0a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a05616c6963652200122a0a0547726f75701219726261632e617574686f7269'
    + '7a6174696f6e2e6b38732e696f1a04646576732200121f0a0e536572766963654163636f756e7412001a027361220764656661756c741a2c0a19726261632e617574686f7269'
    + '7a6174696f6e2e6b38732e696f120b436c7573746572526f6c651a0263721a002200'),
  createClusterRoleBinding: hex('6b3873000a320a1c726261632e617574686f72697a6174696f6e2e6b38732e696f2f76311212436c7573746572526f6c6542696e64696e671293010a130a0363726212001a00'
    + '22002a0032003800420012280a04557365721219726261632e617574686f72697a6174696f6e2e6b38732e696f1a03626f62220012240a0e536572766963654163636f756e74'
    + '12001a0363746c220b6b7562652d73797374656d1a2c0a19726261632e617574686f72697a6174696f6e2e6b38732e696f120b436c7573746572526f6c651a0263721a002200'),
  createServiceAccount: hex('6b3873000a140a027631120e536572766963654163636f756e7412140a120a02736112001a0022002a003200380042001a002200'),
  createToken: hex('6b3873000a280a1861757468656e7469636174696f6e2e6b38732e696f2f7631120c546f6b656e5265717565737412220a100a0012001a0022002a0032003800420012080a03'
    + '61706920901c1a040a0012001a002200'),
  canIList: hex('6b3873000a310a17617574686f72697a6174696f6e2e6b38732e696f2f7631121653656c665375626a65637452756c657352657669657712230a100a0012001a0022002a0032'
    + '003800420012090a0764656661756c741a04180022001a002200'),
  whoami: hex('6b3873000a2d0a1861757468656e7469636174696f6e2e6b38732e696f2f7631121153656c665375626a656374526576696577121a0a100a0012001a0022002a003200380042'
    + '0012060a040a0012001a002200'),
};

const RBAC = 'rbac.authorization.k8s.io/v1';
const RBAC_GROUP = 'rbac.authorization.k8s.io';

test('kubectl create role decodes to its rules; the core group stays as ""', () => {
  assert.equal(decodeProtobuf(kubectl.createRole), {
    apiVersion: RBAC, kind: 'Role', metadata: { name: 'r' },
    rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
  });
});

test('kubectl create clusterrole decodes non-resource URLs, and an aggregation rule with rules: []', () => {
  assert.equal(decodeProtobuf(kubectl.createClusterRole), {
    apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'cr' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/logs/*'] }],
  });
  // rules has no omitempty in Go, so JSON always carries it.
  assert.equal(decodeProtobuf(kubectl.createAggregatedClusterRole), {
    apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'agg' }, rules: [],
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'rbac.example.com/aggregate-to-monitoring': 'true' } }] },
  });
});

test('kubectl create rolebinding decodes its roleRef and subjects; a service account has no apiGroup', () => {
  assert.equal(decodeProtobuf(kubectl.createRoleBinding), {
    apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'rb' },
    subjects: [{ kind: 'User', apiGroup: RBAC_GROUP, name: 'alice' }],
    roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: 'r' },
  });
  assert.equal(decodeProtobuf(kubectl.createRoleBindingToClusterRole), {
    apiVersion: RBAC, kind: 'RoleBinding', metadata: { name: 'rb2' },
    subjects: [
      { kind: 'User', apiGroup: RBAC_GROUP, name: 'alice' },
      { kind: 'Group', apiGroup: RBAC_GROUP, name: 'devs' },
      { kind: 'ServiceAccount', name: 'sa', namespace: 'default' },
    ],
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'cr' },
  });
});

test('kubectl create clusterrolebinding decodes a service account subject with its namespace', () => {
  assert.equal(decodeProtobuf(kubectl.createClusterRoleBinding), {
    apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'crb' },
    subjects: [{ kind: 'User', apiGroup: RBAC_GROUP, name: 'bob' }, { kind: 'ServiceAccount', name: 'ctl', namespace: 'kube-system' }],
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: 'cr' },
  });
});

test('kubectl create serviceaccount decodes to a bare service account', () => {
  assert.equal(decodeProtobuf(kubectl.createServiceAccount), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } });
});

test('kubectl create token decodes its audiences and duration, and the empty status it sends', () => {
  assert.equal(decodeProtobuf(kubectl.createToken), {
    apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {},
    spec: { audiences: ['api'], expirationSeconds: 3600 },
    status: { token: '' },
  });
});

test('kubectl auth can-i --list decodes to a rules review of its namespace, with the zero status Go writes', () => {
  assert.equal(decodeProtobuf(kubectl.canIList), {
    apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {},
    spec: { namespace: 'default' },
    status: { resourceRules: [], nonResourceRules: [], incomplete: false },
  });
});

test('kubectl auth whoami decodes to a self subject review with an empty user', () => {
  assert.equal(decodeProtobuf(kubectl.whoami), {
    apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {}, status: { userInfo: {} },
  });
});

test('a token request bound to a pod: boundObjectRef is field 3, its uid field 4, attestations field 5', () => {
  const ref = str(1, 'Pod').tag(2, 2).string('v1').tag(3, 2).string('web-0').tag(4, 2).string('u-1');
  const attestation = new ProtoWriter().tag(1, 2).string('example.com/node').tag(2, 2).embed(str(1, 'n1'));
  const spec = new ProtoWriter().tag(3, 2).embed(ref).tag(4, 0).int(0).tag(5, 2).embed(attestation);
  const obj = decodeProtobuf(envelope('authentication.k8s.io/v1', 'TokenRequest', new ProtoWriter().tag(2, 2).embed(spec)));
  // expirationSeconds is a pointer in Go: an explicit 0 is kept; audiences has no omitempty.
  assert.equal(obj.spec, { audiences: [], boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-0', uid: 'u-1' }, expirationSeconds: 0,
    attestations: { 'example.com/node': ['n1'] } });
});

test('a token review status: authenticated 1, user 2, error 3, audiences 4, extra as lists of strings', () => {
  const extra = new ProtoWriter().tag(1, 2).string('scopes').tag(2, 2).embed(str(1, 'a').tag(1, 2).string('b'));
  const user = str(1, 'jane').tag(2, 2).string('u-j').tag(3, 2).string('devs').tag(4, 2).embed(extra);
  const status = new ProtoWriter().tag(1, 0).bool(true).tag(2, 2).embed(user).tag(3, 2).string('none').tag(4, 2).string('api');
  const obj = decodeProtobuf(envelope('authentication.k8s.io/v1', 'TokenReview', new ProtoWriter().tag(3, 2).embed(status)));
  assert.equal(obj.spec, {});
  assert.equal(obj.status, { authenticated: true, user: { username: 'jane', uid: 'u-j', groups: ['devs'], extra: { scopes: ['a', 'b'] } },
    error: 'none', audiences: ['api'] });
});

test('a rules review status: resource rules 1, non-resource rules 2, incomplete 3 (a varint), evaluationError 4', () => {
  const resourceRule = str(1, 'get').tag(2, 2).string('').tag(3, 2).string('pods').tag(4, 2).string('web');
  const nonResourceRule = str(1, 'get').tag(2, 2).string('/healthz');
  const status = new ProtoWriter().tag(1, 2).embed(resourceRule).tag(2, 2).embed(nonResourceRule).tag(3, 0).bool(true).tag(4, 2).string('partial');
  const obj = decodeProtobuf(envelope('authorization.k8s.io/v1', 'SelfSubjectRulesReview', new ProtoWriter().tag(3, 2).embed(status)));
  assert.equal(obj.status, {
    resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['web'] }],
    nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
    incomplete: true,
    evaluationError: 'partial',
  });
});

test('a local subject access review shares the subject access review spec: user 3, groups 4, uid 6', () => {
  const attrs = str(1, 'ci').tag(2, 2).string('list').tag(5, 2).string('secrets');
  const spec = new ProtoWriter().tag(1, 2).embed(attrs).tag(3, 2).string('alice').tag(4, 2).string('devs').tag(6, 2).string('u-a');
  const obj = decodeProtobuf(envelope('authorization.k8s.io/v1', 'LocalSubjectAccessReview', new ProtoWriter().tag(2, 2).embed(spec)));
  assert.equal(obj.spec, { resourceAttributes: { namespace: 'ci', verb: 'list', resource: 'secrets' }, user: 'alice', groups: ['devs'], uid: 'u-a' });
});

test('a service account that opts out of token automounting keeps false (a pointer in Go)', () => {
  const raw = new ProtoWriter().tag(3, 2).embed(str(1, 'registry')).tag(4, 0).bool(false);
  const obj = decodeProtobuf(envelope('v1', 'ServiceAccount', raw));
  assert.equal(obj, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: {}, imagePullSecrets: [{ name: 'registry' }], automountServiceAccountToken: false });
  assert.equal(decodeProtobuf(encodeProtobuf(obj)), obj);
});

test('a token request without a spec on the wire gets the spec an empty one decodes to, and keeps it on a round trip', () => {
  const obj = decodeProtobuf(envelope('authentication.k8s.io/v1', 'TokenRequest', new ProtoWriter()));
  assert.equal(obj, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec: { audiences: [] } });
  assert.equal(decodeProtobuf(encodeProtobuf(obj)), obj);
});

test('a binding without roleRef on the wire decodes with an empty roleRef, as Go writes the struct', () => {
  const obj = decodeProtobuf(envelope(RBAC, 'ClusterRoleBinding', new ProtoWriter().tag(1, 2).embed(str(1, 'b'))));
  assert.equal(obj, { apiVersion: RBAC, kind: 'ClusterRoleBinding', metadata: { name: 'b' }, roleRef: {} });
});

test('the stored access kinds and their lists are served as Protobuf; the reviews without lists', () => {
  for (const kind of ['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding']) {
    assert.ok(supportsProtobuf(RBAC, kind), kind);
    assert.ok(supportsProtobuf(RBAC, `${kind}List`), `${kind}List`);
  }
  assert.ok(supportsProtobuf('v1', 'ServiceAccountList'));
  for (const [apiVersion, kind] of [['authentication.k8s.io/v1', 'TokenRequest'], ['authentication.k8s.io/v1', 'TokenReview'],
    ['authentication.k8s.io/v1', 'SelfSubjectReview'], ['authorization.k8s.io/v1', 'LocalSubjectAccessReview'],
    ['authorization.k8s.io/v1', 'SelfSubjectRulesReview']]) {
    assert.ok(supportsProtobuf(apiVersion, kind), kind);
    assert.not.ok(supportsProtobuf(apiVersion, `${kind}List`), `${kind}List`);
  }
  assert.not.ok(supportsProtobuf('v1', 'TokenRequest'));
});

test.run();
