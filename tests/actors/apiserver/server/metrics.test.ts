// /metrics: the real API server's metric names and labels in the Prometheus text format, durations
// on the server's clock, watches counted while they run, 429s among the terminations.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openWatch } from '../../../helpers/watch-stream.ts';
import { CM, configMap, heldServer } from './held-server.ts';

const POST_CM = 'verb="POST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver"';
const LIST_CM = 'verb="LIST",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"';
const GET_CM = 'verb="GET",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="resource",component="apiserver"';
const CM_KIND = 'group="",version="v1",kind="ConfigMap"';

/** The sample lines of a scrape, without HELP and TYPE. */
const samples = (text: string) => text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));

test('requests are counted by verb, group, version, resource, scope and code, with durations on the server clock', async () => {
  const h = await heldServer({ enablePriorityAndFairness: false, maxRequestsInflight: 1, maxMutatingRequestsInflight: 5 });
  await h.send('POST', CM, configMap('a'));
  await h.send('POST', CM, configMap('b'));
  await h.send('POST', CM, configMap('a'));
  await h.send('POST', `${CM}?dryRun=All`, configMap('c'));
  await h.send('GET', `${CM}/missing`);
  await h.send('PATCH', `${CM}/a?fieldManager=t`, configMap('a'), { 'content-type': 'application/apply-patch+yaml' });
  h.hold();
  const slow = h.send('GET', CM);
  await h.settle();
  h.clock.advance(300);
  assert.is((await h.send('GET', CM)).status, 429);
  h.release();
  await slow;
  const r = await h.send('GET', '/metrics');
  assert.is(r.status, 200);
  assert.is(r.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  const lines = samples(r.text);
  for (const expected of [
    `apiserver_request_total{${POST_CM},code="201"} 2`,
    `apiserver_request_total{${POST_CM},code="409"} 1`,
    `apiserver_request_total{${POST_CM.replace('dry_run=""', 'dry_run="All"')},code="201"} 1`,
    `apiserver_request_total{${GET_CM},code="404"} 1`,
    `apiserver_request_total{${POST_CM.replace('POST', 'APPLY')},code="200"} 1`,
    `apiserver_request_total{${LIST_CM},code="200"} 1`,
    `apiserver_request_total{${LIST_CM},code="429"} 1`,
    `apiserver_request_terminations_total{verb="LIST",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="429"} 1`,
    // The held list took 0.3 s of the manual clock; everything else took no time at all.
    `apiserver_request_duration_seconds_bucket{le="0.2",${LIST_CM}} 1`,
    `apiserver_request_duration_seconds_bucket{le="0.4",${LIST_CM}} 2`,
    `apiserver_request_duration_seconds_sum{${LIST_CM}} 0.3`,
    `apiserver_request_duration_seconds_count{${LIST_CM}} 2`,
    `apiserver_request_duration_seconds_bucket{le="0.005",${POST_CM}} 3`,
    'apiserver_current_inflight_requests{request_kind="readOnly"} 1',
    'apiserver_current_inflight_requests{request_kind="mutating"} 1',
  ]) assert.ok(lines.includes(expected), `missing: ${expected}\n${lines.join('\n')}`);
});

test('a watch is a registered watcher and a long-running request while it runs; its events are counted and sized', async () => {
  const h = await heldServer();
  await h.send('POST', CM, configMap('a'));
  const w = await openWatch(h.server, `${CM}?watch=true`);
  await h.send('POST', CM, configMap('b'));
  await w.until(2);
  let lines = samples((await h.send('GET', '/metrics')).text);
  assert.ok(lines.includes(`apiserver_registered_watchers{${CM_KIND}} 1`), lines.join('\n'));
  assert.ok(lines.includes('apiserver_longrunning_requests{verb="WATCH",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver"} 1'));
  assert.ok(lines.includes(`apiserver_watch_events_total{${CM_KIND}} 2`), 'the initial ADDED and the new one');
  assert.ok(lines.includes(`apiserver_watch_events_sizes_count{${CM_KIND}} 2`));
  assert.ok(!lines.some((l) => l.startsWith('apiserver_request_total{verb="WATCH"')), 'a watch is counted when it ends');
  w.close();
  await h.settle();
  lines = samples((await h.send('GET', '/metrics')).text);
  assert.ok(lines.includes(`apiserver_registered_watchers{${CM_KIND}} 0`), lines.join('\n'));
  assert.ok(lines.includes('apiserver_request_total{verb="WATCH",dry_run="",group="",version="v1",resource="configmaps",subresource="",scope="namespace",component="apiserver",code="200"} 1'));
});

test('probes and scrapes are counted under their path; paths the server does not serve all count as other', async () => {
  const h = await heldServer();
  await h.send('GET', '/readyz');
  await h.send('GET', '/metrics');
  await h.send('GET', '/made/up/1');
  await h.send('GET', '/made/up/2');
  const lines = samples((await h.send('GET', '/metrics')).text);
  assert.ok(lines.includes('apiserver_request_total{verb="GET",dry_run="",group="",version="",resource="",subresource="other",scope="",component="apiserver",code="404"} 2'), lines.join('\n'));
  assert.ok(lines.includes('apiserver_request_total{verb="GET",dry_run="",group="",version="",resource="",subresource="/readyz",scope="",component="apiserver",code="200"} 1'), lines.join('\n'));
  assert.ok(lines.includes('apiserver_request_total{verb="GET",dry_run="",group="",version="",resource="",subresource="/metrics",scope="",component="apiserver",code="200"} 1'));
});

test('/metrics is a non-resource path the authorizer decides: AlwaysAllow serves anyone, AlwaysDeny forbids', async () => {
  const open = await heldServer();
  assert.is((await open.send('GET', '/metrics')).status, 200, 'anonymous, with --anonymous-auth and AlwaysAllow');
  const closed = await heldServer({ authorizationMode: ['AlwaysDeny'] });
  const r = await closed.send('GET', '/metrics');
  assert.is(r.status, 403);
  assert.equal([r.json.reason, r.json.message], ['Forbidden', 'forbidden: User "system:anonymous" cannot get path "/metrics": Everything is forbidden.']);
  const strict = await heldServer({ anonymousAuth: false });
  assert.is((await strict.send('GET', '/metrics')).status, 401, 'an unauthenticated request is refused first');
});

test('each server instance keeps its own registry', async () => {
  const a = await heldServer();
  const b = await heldServer();
  await a.send('POST', CM, configMap('x'));
  assert.ok(samples((await a.send('GET', '/metrics')).text).includes(`apiserver_request_total{${POST_CM},code="201"} 1`));
  assert.ok(!(await b.send('GET', '/metrics')).text.includes('code="201"'));
});

test.run();
