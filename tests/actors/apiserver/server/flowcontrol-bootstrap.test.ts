// The bootstrap configuration of API Priority and Fairness in the store, and its producer
// (mandatory objects restored, suggested ones kept up to date while they say so, unwanted ones
// removed), and the printers' tables of both kinds as kubectl shows them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MERGE, startServer, type Harness, type Reply } from '../../../helpers/in-process-server.ts';

const GROUP = 'flowcontrol.apiserver.k8s.io';
const FS = `/apis/${GROUP}/v1/flowschemas`;
const PL = `/apis/${GROUP}/v1/prioritylevelconfigurations`;
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const AUTOUPDATE = 'apf.kubernetes.io/autoupdate-spec';
const SCHEMAS = ['exempt', 'probes', 'system-leader-election', 'system-node-high', 'system-nodes', 'kube-controller-manager', 'kube-scheduler',
  'kube-system-service-accounts', 'service-accounts', 'global-default', 'catch-all'];
const LEVELS = ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low'];

const schema = (name: string, spec: Record<string, unknown>, annotations?: Record<string, string>) =>
  ({ apiVersion: `${GROUP}/v1`, kind: 'FlowSchema', metadata: { name, ...(annotations ? { annotations } : {}) }, spec });
const level = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const everything = [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }];

function causes(r: Reply): string[] {
  assert.is(r.status, 422, r.text);
  return r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
}

/** One pass of the config producer: it runs every minute. */
async function aMinuteLater(h: Harness): Promise<void> {
  h.clock.advance(60_000);
  for (let i = 0; i < 50; i++) await new Promise((r) => setImmediate(r));
}

test('with priority and fairness the server stores the bootstrap schemas and levels, annotated to be kept up to date', async () => {
  const h = await startServer();
  const schemas = (await h.get(FS)).json.items;
  assert.equal(schemas.map((s: { metadata: { name: string } }) => s.metadata.name).sort(), [...SCHEMAS].sort());
  const levels = (await h.get(PL)).json.items;
  assert.equal(levels.map((l: { metadata: { name: string } }) => l.metadata.name), LEVELS);
  for (const o of [...schemas, ...levels]) {
    assert.is(o.metadata.annotations[AUTOUPDATE], 'true', o.metadata.name);
    assert.is(o.metadata.generation, 1);
  }
  const nodeHigh = levels.find((l: { metadata: { name: string } }) => l.metadata.name === 'node-high');
  assert.equal(nodeHigh.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 40, lendablePercent: 25,
    limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } } } });
  const leader = schemas.find((s: { metadata: { name: string } }) => s.metadata.name === 'system-leader-election');
  assert.equal(leader.spec.rules[0].subjects[2], { kind: 'ServiceAccount', serviceAccount: { namespace: 'orch-system', name: '*' } });
  assert.equal(leader.status.conditions.map((c: { type: string; status: string }) => [c.type, c.status]), [['Dangling', 'False']]);
});

test('without priority and fairness the kinds are served, with no bootstrap objects', async () => {
  const h = await startServer({ enablePriorityAndFairness: false });
  assert.equal((await h.get(FS)).json.items, []);
  assert.is((await h.post(PL, level('mine', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } }))).status, 201);
  assert.is(h.server.flowControl, undefined);
});

test('a mandatory object deleted or changed comes back; a suggested one is kept as its annotation says', async () => {
  const h = await startServer();
  assert.is((await h.del(`${FS}/catch-all`)).status, 200);
  assert.equal(causes(await h.patch(`${PL}/catch-all`, { spec: { limited: { nominalConcurrencyShares: 50 } } }, MERGE)),
    [`spec: Invalid value: {"type":"Limited","limited":{"nominalConcurrencyShares":50,"lendablePercent":0,"limitResponse":{"type":"Reject"}}}: spec of 'catch-all' must equal the fixed value`]);
  // The exempt level's spec.exempt is the operators' to tune.
  assert.is((await h.patch(`${PL}/exempt`, { spec: { exempt: { nominalConcurrencyShares: 10 } } }, MERGE)).status, 200);
  // A suggested level changed but still annotated "true" is put back; one annotated "false" is left alone.
  assert.is((await h.patch(`${PL}/workload-low`, { spec: { limited: { nominalConcurrencyShares: 7 } } }, MERGE)).status, 200);
  assert.is((await h.patch(`${PL}/global-default`, { metadata: { annotations: { [AUTOUPDATE]: 'false' } }, spec: { limited: { nominalConcurrencyShares: 7 } } }, MERGE)).status, 200);
  // Changed with no annotation: the producer decides to keep it, and writes that down.
  assert.is((await h.patch(`${PL}/system`, { metadata: { annotations: null }, spec: { limited: { nominalConcurrencyShares: 7 } } }, MERGE)).status, 200);
  // Objects of the producer's own making that it no longer wants are deleted; the users' are not.
  assert.is((await h.post(FS, schema('stale', { priorityLevelConfiguration: { name: 'workload-low' }, rules: everything }, { [AUTOUPDATE]: 'true' }))).status, 201);
  assert.is((await h.post(FS, schema('mine', { priorityLevelConfiguration: { name: 'workload-low' }, rules: everything }))).status, 201);
  await aMinuteLater(h);
  assert.is((await h.get(`${FS}/catch-all`)).status, 200, 'recreated');
  assert.is((await h.get(`${PL}/exempt`)).json.spec.exempt.nominalConcurrencyShares, 10);
  assert.is((await h.get(`${PL}/workload-low`)).json.spec.limited.nominalConcurrencyShares, 100);
  assert.is((await h.get(`${PL}/global-default`)).json.spec.limited.nominalConcurrencyShares, 7);
  const system = (await h.get(`${PL}/system`)).json;
  assert.is(system.spec.limited.nominalConcurrencyShares, 7);
  assert.is(system.metadata.annotations[AUTOUPDATE], 'false');
  assert.is((await h.get(`${FS}/stale`)).status, 404);
  assert.is((await h.get(`${FS}/mine`)).status, 200);
});

test('kubectl get flowschemas: the real columns, in matching order, MISSINGPL from the Dangling condition', async () => {
  const h = await startServer();
  h.clock.advance(3_600_000);
  const t = (await h.get(FS, { accept: TABLE })).json;
  assert.equal(t.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'PriorityLevel', 'MatchingPrecedence', 'DistinguisherMethod', 'Age', 'MissingPL']);
  assert.equal(t.rows.map((r: { cells: unknown[] }) => r.cells[0]), SCHEMAS);
  assert.equal(t.rows[0].cells, ['exempt', 'exempt', 1, '<none>', '60m', 'False']);
  assert.equal(t.rows[4].cells, ['system-nodes', 'system', 500, 'ByUser', '60m', 'False']);
  const p = (await h.get(PL, { accept: TABLE })).json;
  assert.equal(p.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'Type', 'NominalConcurrencyShares', 'Queues', 'HandSize', 'QueueLengthLimit', 'Age']);
  assert.equal(p.rows[0].cells, ['catch-all', 'Limited', 5, '<none>', '<none>', '<none>', '60m']);
  assert.equal(p.rows[1].cells, ['exempt', 'Exempt', '<none>', '<none>', '<none>', '<none>', '60m']);
  assert.equal(p.rows[6].cells, ['workload-high', 'Limited', 40, 128, 6, 50, '60m']);
});

test.run();
