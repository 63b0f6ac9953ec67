// kubectl (the one on PATH) and API Priority and Fairness: `kubectl get flowschemas,prioritylevelconfigurations`
// lists the bootstrap configuration with the real printers' columns, flow schemas in matching
// order; `kubectl create -f`, `describe` and `delete` work on both kinds, and kubectl sends and
// asks JSON for them (no Protobuf is needed).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';

const kubectl = suite<{ s: TestServer }>('kubectl-flowcontrol');

kubectl.before(async (ctx) => {
  ctx.s = await startTestServer();
});
kubectl.after(async (ctx) => {
  await ctx.s.stop();
});

/** The words of each line of a table, the first line its header. */
const table = (text: string) => text.trim().split('\n').map((l) => l.trim().split(/\s+/));

kubectl('get flowschemas,prioritylevelconfigurations shows the bootstrap configuration', async (ctx) => {
  const r = await ctx.s.kubectl(['get', 'flowschemas,prioritylevelconfigurations']);
  assert.is(r.code, 0, r.stderr);
  const [schemas, levels] = r.stdout.split('\n\n').map(table);
  assert.equal(schemas![0], ['NAME', 'PRIORITYLEVEL', 'MATCHINGPRECEDENCE', 'DISTINGUISHERMETHOD', 'AGE', 'MISSINGPL']);
  const fs = 'flowschema.flowcontrol.apiserver.k8s.io/';
  assert.equal(schemas!.slice(1).map((row) => [row[0], row[1], row[2], row[3], row[5]]), [
    [`${fs}exempt`, 'exempt', '1', '<none>', 'False'],
    [`${fs}probes`, 'exempt', '2', '<none>', 'False'],
    [`${fs}system-leader-election`, 'leader-election', '100', 'ByUser', 'False'],
    [`${fs}system-node-high`, 'node-high', '400', 'ByUser', 'False'],
    [`${fs}system-nodes`, 'system', '500', 'ByUser', 'False'],
    [`${fs}kube-controller-manager`, 'workload-high', '800', 'ByNamespace', 'False'],
    [`${fs}kube-scheduler`, 'workload-high', '800', 'ByNamespace', 'False'],
    [`${fs}kube-system-service-accounts`, 'workload-high', '900', 'ByNamespace', 'False'],
    [`${fs}service-accounts`, 'workload-low', '9000', 'ByUser', 'False'],
    [`${fs}global-default`, 'global-default', '9900', 'ByUser', 'False'],
    [`${fs}catch-all`, 'catch-all', '10000', 'ByUser', 'False'],
  ]);
  assert.equal(levels![0], ['NAME', 'TYPE', 'NOMINALCONCURRENCYSHARES', 'QUEUES', 'HANDSIZE', 'QUEUELENGTHLIMIT', 'AGE']);
  const pl = 'prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/';
  assert.equal(levels!.slice(1).map((row) => row.slice(0, 6)), [
    [`${pl}catch-all`, 'Limited', '5', '<none>', '<none>', '<none>'],
    [`${pl}exempt`, 'Exempt', '<none>', '<none>', '<none>', '<none>'],
    [`${pl}global-default`, 'Limited', '20', '128', '6', '50'],
    [`${pl}leader-election`, 'Limited', '10', '16', '4', '50'],
    [`${pl}node-high`, 'Limited', '40', '64', '6', '50'],
    [`${pl}system`, 'Limited', '30', '64', '6', '50'],
    [`${pl}workload-high`, 'Limited', '40', '128', '6', '50'],
    [`${pl}workload-low`, 'Limited', '100', '128', '6', '50'],
  ]);
});

kubectl('create -f, describe and delete a level and a schema of one\'s own, in JSON', async (ctx) => {
  const from = ctx.s.requests.length;
  const created = await ctx.s.kubectl(['create', '-f', '-'], `apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: PriorityLevelConfiguration
metadata: { name: team }
spec:
  type: Limited
  limited:
    nominalConcurrencyShares: 10
    limitResponse: { type: Queue, queuing: { queues: 16, handSize: 4, queueLengthLimit: 20 } }
---
apiVersion: flowcontrol.apiserver.k8s.io/v1
kind: FlowSchema
metadata: { name: team }
spec:
  priorityLevelConfiguration: { name: team }
  matchingPrecedence: 700
  distinguisherMethod: { type: ByNamespace }
  rules:
  - subjects: [{ kind: Group, group: { name: team } }]
    resourceRules: [{ verbs: ["*"], apiGroups: ["*"], resources: ["*"], namespaces: ["*"] }]
`);
  assert.is(created.code, 0, created.stderr);
  assert.equal(created.stdout.trim().split('\n'), ['prioritylevelconfiguration.flowcontrol.apiserver.k8s.io/team created', 'flowschema.flowcontrol.apiserver.k8s.io/team created']);
  const posts = ctx.s.requests.slice(from).filter((r) => r.method === 'POST');
  assert.equal(posts.map((r) => [r.url.split('?')[0], r.headers['content-type']]), [
    ['/apis/flowcontrol.apiserver.k8s.io/v1/prioritylevelconfigurations', 'application/json'],
    ['/apis/flowcontrol.apiserver.k8s.io/v1/flowschemas', 'application/json'],
  ]);
  const got = await ctx.s.kubectl(['get', 'flowschema', 'team']);
  assert.equal(table(got.stdout)[1]!.filter((_, i) => i !== 4), ['team', 'team', '700', 'ByNamespace', 'False']);
  const described = await ctx.s.kubectl(['describe', 'prioritylevelconfiguration', 'team']);
  assert.is(described.code, 0, described.stderr);
  assert.match(described.stdout, /Nominal Concurrency Shares:\s+10/);
  assert.match(described.stdout, /Lendable Percent:\s+0/);
  const deleted = await ctx.s.kubectl(['delete', 'flowschema,prioritylevelconfiguration', 'team']);
  assert.is(deleted.code, 0, deleted.stderr);
  assert.is((await ctx.s.kubectl(['get', 'flowschema', 'team'])).code, 1);
});

kubectl('a mandatory schema cannot be changed', async (ctx) => {
  const edited = await ctx.s.kubectl(['patch', 'flowschema', 'catch-all', '--type=merge', '-p', '{"spec":{"matchingPrecedence":9999}}']);
  assert.is(edited.code, 1);
  assert.match(edited.stderr, 'The FlowSchema "catch-all" is invalid: spec: Invalid value:');
  assert.match(edited.stderr, `spec of 'catch-all' must equal the fixed value`);
});

kubectl.run();
