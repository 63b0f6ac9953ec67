// API Priority and Fairness as a client sees it: the response headers naming the flow schema and
// priority level, 429 with Retry-After for a request its level refuses (Reject), that found its
// queue full, or that waited past a quarter of its deadline; the same over the bus; and the
// apiserver_flowcontrol_* metrics.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REQUEST_SUBJECT } from '../../../../actors/apiserver/bus-endpoint.ts';
import { payload, valueOf } from '../../../../transport/payload.ts';
import { CM, configMap, heldServer, type HeldServer } from './held-server.ts';

const FC = '/apis/flowcontrol.apiserver.k8s.io/v1';
const TOKENS = new Map([['dev', { username: 'dev', groups: ['system:authenticated'] }], ['boss', { username: 'boss', groups: ['system:authenticated'] }]]);
const AS_DEV = { authorization: 'Bearer dev' };

/** A priority level for `dev` alone: `limitResponse` as given, no seats of its own and none to borrow. */
async function jail(h: HeldServer, limitResponse: Record<string, unknown>): Promise<{ fsUid: string; plUid: string }> {
  const pl = await h.send('POST', `${FC}/prioritylevelconfigurations`, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration',
    metadata: { name: 'jail' }, spec: { type: 'Limited', limited: { nominalConcurrencyShares: 0, borrowingLimitPercent: 0, limitResponse } } });
  assert.is(pl.status, 201, pl.text);
  const fs = await h.send('POST', `${FC}/flowschemas`, { apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name: 'dev' },
    spec: { priorityLevelConfiguration: { name: 'jail' }, matchingPrecedence: 100, distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'User', user: { name: 'dev' } }], resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], namespaces: ['*'] }] }] } });
  assert.is(fs.status, 201, fs.text);
  return { fsUid: fs.json.metadata.uid, plUid: pl.json.metadata.uid };
}

function tooMany(r: { status: number; headers: Record<string, string | string[]>; json: any }, retryAfter = '1'): void {
  assert.is(r.status, 429);
  assert.is(r.headers['retry-after'], retryAfter);
  assert.equal([r.json.reason, r.json.message], ['TooManyRequests', 'Too many requests, please try again later.']);
}

/** The value of one series of /metrics, or undefined. */
async function metric(h: HeldServer, series: string): Promise<number | undefined> {
  const text = (await h.send('GET', '/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.split(' ').pop());
}

test('every classified answer names its flow schema and priority level by UID', async () => {
  const h = await heldServer();
  const fs = (await h.send('GET', `${FC}/flowschemas/global-default`)).json;
  const pl = (await h.send('GET', `${FC}/prioritylevelconfigurations/global-default`)).json;
  const r = await h.send('GET', CM);
  assert.is(r.status, 200);
  assert.is(r.headers['x-kubernetes-pf-flowschema-uid'], fs.metadata.uid);
  assert.is(r.headers['x-kubernetes-pf-prioritylevel-uid'], pl.metadata.uid);
  const missing = await h.send('GET', `${CM}/nothing`);
  assert.is(missing.status, 404);
  assert.is(missing.headers['x-kubernetes-pf-flowschema-uid'], fs.metadata.uid, 'failed requests too');
});

test('a Reject level serves what it may run and refuses the rest at once, as concurrency-limit', async () => {
  const h = await heldServer({ tokens: TOKENS });
  const { fsUid, plUid } = await jail(h, { type: 'Reject' });
  h.hold();
  const first = h.send('GET', CM, undefined, AS_DEV);
  await h.settle();
  const refused = await h.send('GET', CM, undefined, AS_DEV);
  tooMany(refused);
  assert.is(refused.headers['x-kubernetes-pf-flowschema-uid'], fsUid);
  assert.is(refused.headers['x-kubernetes-pf-prioritylevel-uid'], plUid);
  h.release();
  assert.is((await first).status, 200);
  assert.is(await metric(h, 'apiserver_flowcontrol_rejected_requests_total{priority_level="jail",flow_schema="dev",reason="concurrency-limit"}'), 1);
  assert.is(await metric(h, 'apiserver_request_terminations_total{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="429"}'), 1);
});

test('a queued request waits at most a quarter of its deadline, then gets 429 (time-out)', async () => {
  const h = await heldServer({ tokens: TOKENS });
  await jail(h, { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 10 } });
  const waiting = h.send('GET', `${CM}?timeout=8s`, undefined, AS_DEV);
  const longer = h.send('GET', CM, undefined, AS_DEV);
  await h.settle();
  assert.is(await metric(h, 'apiserver_flowcontrol_current_inqueue_requests{priority_level="jail",flow_schema="dev"}'), 2);
  h.clock.advance(2_000);
  tooMany(await waiting);
  assert.is(await metric(h, 'apiserver_flowcontrol_current_inqueue_requests{priority_level="jail",flow_schema="dev"}'), 1, 'the other waits on: 15 s');
  h.clock.advance(13_000);
  tooMany(await longer);
  assert.is(await metric(h, 'apiserver_flowcontrol_rejected_requests_total{priority_level="jail",flow_schema="dev",reason="time-out"}'), 2);
});

test('beyond the queue length limit: 429 at once (queue-full), and over the bus the same', async () => {
  const h = await heldServer({ tokens: TOKENS });
  await jail(h, { type: 'Queue', queuing: { queues: 1, handSize: 1, queueLengthLimit: 2 } });
  const queued = [h.send('GET', CM, undefined, AS_DEV), h.send('GET', CM, undefined, AS_DEV)];
  await h.settle();
  tooMany(await h.send('GET', CM, undefined, AS_DEV));
  const reply = valueOf<{ status: number; headers: Record<string, string> }>(
    await h.server.bus.request(REQUEST_SUBJECT, payload({ method: 'GET', url: CM, headers: AS_DEV, body: new Uint8Array() }), 5_000));
  assert.is(reply.status, 429);
  assert.ok(Number(reply.headers['retry-after']) >= 1);
  assert.is(await metric(h, 'apiserver_flowcontrol_rejected_requests_total{priority_level="jail",flow_schema="dev",reason="queue-full"}'), 2);
  h.clock.advance(15_000);
  for (const q of queued) assert.is((await q).status, 429);
});

test('a request is classified as the user it impersonates, from its arrival over HTTPS as well', async () => {
  const h = await heldServer({ tokens: TOKENS });
  const { fsUid } = await jail(h, { type: 'Reject' });
  h.hold();
  const first = h.send('GET', CM, undefined, AS_DEV);
  await h.settle();
  const asDev = { authorization: 'Bearer boss', 'impersonate-user': 'dev' };
  const refused = await h.send('GET', CM, undefined, asDev);
  tooMany(refused);
  assert.is(refused.headers['x-kubernetes-pf-flowschema-uid'], fsUid);
  assert.is(h.server.arrive({ method: 'GET', url: CM, headers: asDev }).admission.state, 'refused', 'placed as dev on arrival');
  const itself = h.server.arrive({ method: 'GET', url: CM, headers: { authorization: 'Bearer boss' } });
  assert.is(itself.admission.state, 'admitted', 'boss as itself has room');
  itself.release();
  h.release();
  assert.is((await first).status, 200);
});

test('executing requests show by level and schema, and the levels\' limits too', async () => {
  const h = await heldServer();
  h.hold();
  const writes = ['a', 'b'].map((n) => h.send('POST', CM, configMap(n)));
  await h.settle();
  // The two writes, and the scrape itself.
  assert.is(await metric(h, 'apiserver_flowcontrol_current_executing_requests{priority_level="global-default",flow_schema="global-default"}'), 3);
  assert.is(await metric(h, 'apiserver_flowcontrol_nominal_limit_seats{priority_level="workload-low"}'), 245);
  assert.is(await metric(h, 'apiserver_flowcontrol_current_limit_seats{priority_level="global-default"}'), 56);
  h.release();
  await Promise.all(writes);
  assert.is(await metric(h, 'apiserver_flowcontrol_current_executing_requests{priority_level="global-default",flow_schema="global-default"}'), 1);
});

test.run();
