// The ABAC mode: policy files as the real documentation writes them, answered as the real
// authorizer answers (allow, or "No policy matched." as no opinion); the legacy unversioned lines
// and their wider meaning; the rules SelfSubjectRulesReview lists; files that do not read stopping
// the server with the file and line; and the mode in the server's chain.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { AbacAuthorizer, parsePolicyFile } from '../../../../actors/apiserver/auth/abac.ts';
import type { AuthorizationAttributes, UserInfo } from '../../../../actors/apiserver/auth/authorizer.ts';
import { apiServerOptions } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { seededRandom } from '../../../../sim/random.ts';
import { startServer } from '../../../helpers/in-process-server.ts';
import { manualClock } from '../../../helpers/manual-clock.ts';

const line = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
/** The examples of the real ABAC documentation, one per line. */
const DOCS_EXAMPLES = [
  line({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
  line({ user: 'kubelet', namespace: '*', resource: 'pods', readonly: true }),
  line({ user: 'kubelet', namespace: '*', resource: 'events' }),
  line({ user: 'bob', namespace: 'projectCaribou', resource: 'pods', readonly: true }),
  line({ group: 'system:authenticated', readonly: true, nonResourcePath: '*' }),
  line({ group: 'system:unauthenticated', readonly: true, nonResourcePath: '*' }),
].join('\n');

const user = (username: string, ...groups: string[]): UserInfo => ({ username, groups: [...groups, 'system:authenticated'] });
const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const res = (u: UserInfo, verb: string, resource: string, namespace = '', apiGroup = ''): AuthorizationAttributes =>
  ({ user: u, verb, resource, apiGroup, ...(namespace ? { namespace } : {}) });
const path = (u: UserInfo, verb: string, p: string): AuthorizationAttributes => ({ user: u, verb, path: p });

function expect(policy: AbacAuthorizer, cases: [AuthorizationAttributes, boolean][]): void {
  for (const [a, allowed] of cases) {
    const d = policy.authorize(a);
    const what = `${a.user.username} ${a.verb} ${a.path ?? `${a.apiGroup}/${a.resource} in "${a.namespace ?? ''}"`}`;
    assert.equal(d, allowed ? { decision: 'allow', reason: '' } : { decision: 'noOpinion', reason: 'No policy matched.' }, what);
  }
}

test('the documentation\'s examples answer as the documentation says', () => {
  const policy = new AbacAuthorizer(parsePolicyFile(DOCS_EXAMPLES, 'docs.jsonl'));
  const alice = user('alice');
  const kubelet = user('kubelet');
  const bob = user('bob');
  expect(policy, [
    // Alice can do anything to all resources.
    [res(alice, 'delete', 'deployments', 'default', 'apps'), true],
    [res(alice, 'create', 'nodes'), true],
    // The kubelet can read any pods, and read and write events.
    [res(kubelet, 'watch', 'pods', 'default'), true],
    [res(kubelet, 'list', 'pods'), true],
    [res(kubelet, 'update', 'pods', 'default'), false],
    [res(kubelet, 'create', 'events', 'default'), true],
    [res(kubelet, 'get', 'events', 'default', 'events.k8s.io'), false],
    // Bob can just read pods in namespace projectCaribou.
    [res(bob, 'get', 'pods', 'projectCaribou'), true],
    [res(bob, 'create', 'pods', 'projectCaribou'), false],
    [res(bob, 'get', 'pods', 'default'), false],
    [res(bob, 'get', 'secrets', 'projectCaribou'), false],
    // Anyone, authenticated or not, can make read-only non-resource requests.
    [path(bob, 'get', '/version'), true],
    [path(bob, 'post', '/version'), false],
    [path(ANONYMOUS, 'get', '/apis'), true],
    [res(ANONYMOUS, 'get', 'pods', 'projectCaribou'), false],
    // A path is not a resource: Alice's resource policy does not reach it.
    [path(alice, 'get', '/metrics'), true],
    [path(alice, 'put', '/metrics'), false],
  ]);
});

test('`*` as user or group means every authenticated user, never an anonymous one; both set must both match', () => {
  const policy = new AbacAuthorizer(parsePolicyFile([
    line({ user: '*', readonly: true, resource: 'events', namespace: '*' }),
    line({ group: '*', resource: 'configmaps', namespace: 'team' }),
    line({ user: 'dana', group: 'admins', resource: '*', namespace: '*', apiGroup: '*' }),
    line({ resource: 'secrets', namespace: '*' }),
  ].join('\n'), 'p'));
  expect(policy, [
    [res(user('chuck'), 'get', 'events', 'ns1'), true],
    [res(user('chuck'), 'get', 'events'), true],
    [res(ANONYMOUS, 'get', 'events', 'ns1'), false],
    [res(user('chuck'), 'update', 'configmaps', 'team'), true],
    [res(ANONYMOUS, 'update', 'configmaps', 'team'), false],
    [res(user('dana', 'admins'), 'delete', 'nodes'), true],
    [res(user('dana'), 'delete', 'nodes'), false],
    [res(user('eve', 'admins'), 'delete', 'nodes'), false],
    // Neither user nor group: a versioned policy matches nobody.
    [res(user('chuck'), 'get', 'secrets', 'ns1'), false],
  ]);
});

test('resource, namespace and apiGroup must each be `*` or equal; empty means the core group or the cluster scope', () => {
  const policy = new AbacAuthorizer(parsePolicyFile([
    line({ user: 'u', resource: '*', namespace: 'any-group', apiGroup: '*' }),
    line({ user: 'u', resource: '*', namespace: 'core-only', apiGroup: '' }),
    line({ user: 'u', resource: '*', namespace: 'x-only', apiGroup: 'x' }),
    line({ user: 'u', resource: 'nodes' }),
    line({ user: 'u', nonResourcePath: '/custom' }),
    line({ user: 'u', nonResourcePath: '/root/*' }),
  ].join('\n'), 'p'));
  const u = user('u');
  expect(policy, [
    [res(u, 'get', 'foo', 'any-group', 'x'), true],
    [res(u, 'get', 'foo', 'core-only', 'x'), false],
    [res(u, 'get', 'pods', 'core-only'), true],
    [res(u, 'get', 'foo', 'x-only', 'x'), true],
    [res(u, 'delete', 'nodes'), true],
    [res(u, 'delete', 'nodes', 'default'), false],
    // Subresources and names are not looked at.
    [{ ...res(u, 'create', 'pods', 'core-only'), subresource: 'eviction', name: 'p' }, true],
    [path(u, 'post', '/custom'), true],
    [path(u, 'get', '/custom/more'), false],
    [path(u, 'get', '/root'), false],
    [path(u, 'get', '/root/'), true],
    [path(u, 'get', '/root/test/1/2/3'), true],
  ]);
});

test('legacy unversioned lines: unset user and group is every authenticated user, unset namespace or resource is `*`, every API group', () => {
  const policy = new AbacAuthorizer(parsePolicyFile([
    '{"readonly": true, "resource": "events"}',
    '{"user":"scheduler", "readonly": true, "resource": "pods"}',
    '{"user":"scheduler", "resource": "bindings"}',
    '{"user":"alice", "namespace": "projectCaribou"}',
    '{"user":"admin"}',
    '{"apiVersion":"abac.authorization.kubernetes.io/v0","kind":"Policy","user":"carol","resource":"configmaps"}',
  ].join('\n'), 'legacy.jsonl'));
  const [scheduler, alice, chuck, admin, carol] = ['scheduler', 'alice', 'chuck', 'admin', 'carol'].map((n) => user(n));
  expect(policy, [
    [res(scheduler!, 'list', 'pods', 'ns1'), true],
    [res(scheduler!, 'list', 'pods'), true],
    [res(scheduler!, 'create', 'pods', 'ns1'), false],
    [res(scheduler!, 'create', 'bindings', 'ns1'), true],
    [res(alice!, 'update', 'widgets', 'projectCaribou', 'bar'), true],
    [res(alice!, 'get', 'pods', 'ns1'), false],
    [path(alice!, 'get', '/version'), false],
    [res(chuck!, 'get', 'events', 'ns1', 'events.k8s.io'), true],
    [res(chuck!, 'update', 'events', 'ns1'), false],
    [res(ANONYMOUS, 'get', 'events', 'ns1'), false],
    [path(chuck!, 'get', '/'), false],
    // With neither namespace nor resource a legacy line reaches every path too.
    [path(admin!, 'post', '/anything'), true],
    [res(admin!, 'delete', 'nodes'), true],
    [res(carol!, 'update', 'configmaps', 'team'), true],
  ]);
});

test('the rules of a user in a namespace, as SelfSubjectRulesReview lists them', () => {
  const policy = new AbacAuthorizer(parsePolicyFile([
    '{"readonly": true, "resource": "events"}',
    '{"user":"bob", "readonly": true, "namespace": "projectCaribou"}',
    '{"user":"bob", "readonly": true, "nonResourcePath": "*"}',
    line({ user: 'bob', resource: 'pods', namespace: 'elsewhere' }),
    line({ group: 'ops', resource: 'nodes', namespace: '*', apiGroup: '' }),
  ].join('\n'), 'p'));
  const READ = ['get', 'list', 'watch'];
  assert.equal(policy.rulesFor(user('bob'), 'projectCaribou'), {
    resourceRules: [{ verbs: READ, apiGroups: ['*'], resources: ['events'] }, { verbs: READ, apiGroups: ['*'], resources: ['*'] }, { verbs: READ, apiGroups: ['*'], resources: ['*'] }],
    nonResourceRules: [{ verbs: READ, nonResourceURLs: ['*'] }],
    incomplete: false, errors: [],
  });
  assert.equal(policy.rulesFor({ username: 'olga', groups: ['ops'] }, 'x'), {
    resourceRules: [{ verbs: ['*'], apiGroups: [''], resources: ['nodes'] }], nonResourceRules: [], incomplete: false, errors: [] });
});

test('blank lines and comments are skipped; a line that does not read names the file, the line and why', () => {
  assert.is(parsePolicyFile('\n  # who may do what\n\n' + line({ user: 'a', resource: '*', namespace: '*' }) + '\n', 'p').length, 1);
  const fails = (content: string, says: string) => assert.throws(() => parsePolicyFile(content, '/etc/orch/abac.jsonl'), (e: Error) => e.message === says, says);
  // JSON.parse words its own part.
  assert.throws(() => parsePolicyFile('# header\n{"user": "a"\n', '/etc/orch/abac.jsonl'),
    (e: Error) => e.message.startsWith('error reading policy file /etc/orch/abac.jsonl, line 2: {"user": "a": not JSON: '));
  fails(`${line({ user: 'a' })}\n${line({ user: 'b', readonly: 'yes' })}`,
    `error reading policy file /etc/orch/abac.jsonl, line 2: ${line({ user: 'b', readonly: 'yes' })}: readonly must be true or false, got "yes"`);
  fails('{"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy","spec":{}}',
    'error reading policy file /etc/orch/abac.jsonl, line 1: {"apiVersion":"abac.authorization.kubernetes.io/v2","kind":"Policy","spec":{}}: apiVersion "abac.authorization.kubernetes.io/v2" is not abac.authorization.kubernetes.io/v1beta1 (or the legacy abac.authorization.kubernetes.io/v0)');
  fails('{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","spec":{}}', 'error reading policy file /etc/orch/abac.jsonl, line 1: {"apiVersion":"abac.authorization.kubernetes.io/v1beta1","spec":{}}: kind must be Policy, got ""');
  fails('[1, 2]', 'error reading policy file /etc/orch/abac.jsonl, line 1: [1, 2]: a policy must be an object');
  fails('{"user": 7}', 'error reading policy file /etc/orch/abac.jsonl, line 1: {"user": 7}: user must be a string, got 7');
});

test('a policy file that does not read stops the server from starting', () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-abac-'));
  const file = join(dir, 'abac.jsonl');
  writeFileSync(file, `${line({ user: 'a', nonResourcePath: '*' })}\n\n{oops}\n`);
  const start = (policy: string) => () => new ApiServer(apiServerOptions({ authorizationMode: ['ABAC'], authorizationPolicyFile: policy }), { clock: manualClock(), random: seededRandom(1) });
  assert.throws(start(file), (e: Error) => e.message.startsWith(`error reading policy file ${file}, line 3: {oops}: not JSON`));
  assert.throws(start(join(dir, 'missing.jsonl')), (e: Error) => e.message.startsWith(`error reading policy file ${join(dir, 'missing.jsonl')}: ENOENT`));
});

test('in the server\'s chain: ABAC allows, the rest is forbidden with its reason, and reviews answer from it', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-abac-'));
  const file = join(dir, 'abac.jsonl');
  // Reviews are resources too: under ABAC alone someone must be let ask them.
  const reviews = line({ group: 'system:authenticated', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews', namespace: '*' });
  writeFileSync(file, `${DOCS_EXAMPLES.replaceAll('projectCaribou', 'project-caribou')}\n${reviews}`);
  const h = await startServer({ authorizationMode: ['ABAC'], authorizationPolicyFile: file,
    tokens: new Map([['bob-token', { username: 'bob', groups: ['system:authenticated'] }]]) });
  const BOB = { authorization: 'Bearer bob-token' };
  assert.is((await h.get('/api/v1/namespaces/project-caribou/pods', BOB)).status, 200);
  const denied = await h.get('/api/v1/namespaces/default/pods', BOB);
  assert.is(denied.status, 403);
  assert.is(denied.json.message, 'pods is forbidden: User "bob" cannot list resource "pods" in API group "" in the namespace "default": No policy matched.');
  assert.is((await h.get('/version')).status, 200, 'unauthenticated read-only paths');
  assert.is((await h.post('/api/v1/namespaces/project-caribou/pods', {}, BOB)).status, 403);
  const rules = await h.post('/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', { spec: { namespace: 'project-caribou' } }, BOB);
  // As the real RulesFor, a policy is listed only where its namespace is `*` or the one asked:
  // the path policies, with none, are not listed in project-caribou.
  assert.equal(rules.json.status, { resourceRules: [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] },
    { verbs: ['*'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectrulesreviews'] }], nonResourceRules: [], incomplete: false });
});

test.run();
