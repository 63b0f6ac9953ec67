// The events the node agent records, as the real kubelet does, against a real API server on the
// virtual clock: its node's start, its pods' containers (pulled, created, started, stopped), memory
// pressure and eviction; and none when events are turned off.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { EVENTS, type CoreEvent } from '../../../actors/client/events/index.ts';
import { NodeAgent } from '../../../actors/nodeagent/nodeagent.ts';
import { MEMORY_USAGE } from '../../../actors/nodeagent/pod-usage.ts';
import type { NodeAgentOptions } from '../../../actors/nodeagent/options.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const NODE = 'node-1';

async function world(options: Partial<NodeAgentOptions> = {}, recording = true) {
  const { clock, kernel, bus, random, server, client } = await virtualWorld();
  const agent = new NodeAgent({ bus, clock, random: random.fork('agent'), nodeName: NODE, options: { leaseRenewJitterFactor: 0, ...options }, events: recording,
    onError: (e) => { throw e; } });
  await agent.start();
  const t0 = clock.now();
  const pod = (name: string, containers: object[], annotations?: Record<string, string>) =>
    client.create(PODS, { metadata: { name, namespace: 'default', ...(annotations ? { annotations } : {}) }, spec: { nodeName: NODE, containers } } as KObject);
  /** Every event stored, oldest first, as `kind/name[fieldPath] type reason: message`. */
  const events = async (name?: string) => ((await client.list(EVENTS, undefined)).items as CoreEvent[])
    .filter((e) => name === undefined || e.involvedObject.name === name)
    .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
    .map((e) => `${e.involvedObject.kind}/${e.involvedObject.name}${e.involvedObject.fieldPath ?? ''} ${e.type} ${e.reason}: ${e.message}`);
  const stored = async () => (await client.list(EVENTS, undefined)).items as CoreEvent[];
  return { clock, client, agent, pod, events, stored, until: (ms: number) => kernel.run({ until: t0 + ms }), close: () => { agent.stop(); server.stop(); } };
}

test('a node that registers records its start and its first status, about the node, in the default namespace', async () => {
  const w = await world();
  await w.until(1_000);
  assert.equal(await w.events(NODE), [
    `Node/${NODE} Normal Starting: Starting kubelet.`,
    `Node/${NODE} Normal NodeHasSufficientMemory: Node ${NODE} status is now: NodeHasSufficientMemory`,
    `Node/${NODE} Normal NodeHasNoDiskPressure: Node ${NODE} status is now: NodeHasNoDiskPressure`,
    `Node/${NODE} Normal NodeHasSufficientPID: Node ${NODE} status is now: NodeHasSufficientPID`,
    `Node/${NODE} Normal NodeAllocatableEnforced: Updated Node Allocatable limit across pods`,
    `Node/${NODE} Normal NodeReady: Node ${NODE} status is now: NodeReady`,
  ]);
  const starting = (await w.stored()).find((e) => e.reason === 'Starting')!;
  assert.is(starting.metadata.namespace, 'default');
  assert.equal(starting.involvedObject, { kind: 'Node', name: NODE, uid: NODE }, 'the real agent names its node so: no apiVersion, its name as uid');
  assert.equal(starting.source, { component: 'kubelet', host: NODE });
  assert.equal([starting.reportingComponent, starting.reportingInstance, starting.count, starting.eventTime ?? null], ['kubelet', NODE, 1, null]);
  assert.match(starting.metadata.name, new RegExp(`^${NODE}\\.[0-9a-f]{16}$`), 'named after the object and the time in nanoseconds, in hex');
  w.close();
});

test('a pod\'s containers: images pulled while they are created, then pulled, created and started; an image on the node is present for the next pod', async () => {
  const w = await world({ eventRecordQps: 0 });
  const web = await w.pod('web', [{ name: 'app', image: 'nginx:1.27' }, { name: 'tools', image: 'busybox', imagePullPolicy: 'Always' }]);
  await w.until(30_000);
  const lines = await w.events('web');
  assert.equal(lines.map((l) => l.replace(/ in [^(]+\([^)]+\)\. Image size: \d+ bytes\./, ' in T.')), [
    'Pod/webspec.containers{app} Normal Pulling: Pulling image "nginx:1.27"',
    'Pod/webspec.containers{tools} Normal Pulling: Pulling image "busybox"',
    'Pod/webspec.containers{app} Normal Pulled: Successfully pulled image "nginx:1.27" in T.',
    'Pod/webspec.containers{app} Normal Created: Created container: app',
    'Pod/webspec.containers{app} Normal Started: Started container app',
    'Pod/webspec.containers{tools} Normal Pulled: Successfully pulled image "busybox" in T.',
    'Pod/webspec.containers{tools} Normal Created: Created container: tools',
    'Pod/webspec.containers{tools} Normal Started: Started container tools',
  ]);
  assert.match(lines[2]!, /in (\d+(\.\d+)?m?s) \(\1 including waiting\)\. Image size: \d+ bytes\.$/, 'the pull took the creating time');
  const started = (await w.stored()).find((e) => e.reason === 'Started')!;
  assert.equal({ ...started.involvedObject, resourceVersion: undefined },
    { kind: 'Pod', namespace: 'default', name: 'web', uid: web.metadata.uid, apiVersion: 'v1', resourceVersion: undefined, fieldPath: 'spec.containers{app}' });
  assert.ok(Number(started.involvedObject.resourceVersion) >= Number(web.metadata.resourceVersion), 'the version of the pod the agent knows');

  await w.pod('web-2', [{ name: 'app', image: 'nginx:1.27' }, { name: 'tools', image: 'busybox', imagePullPolicy: 'Always' }]);
  await w.until(60_000);
  assert.equal((await w.events('web-2')).filter((l) => l.includes('Pull')).map((l) => l.replace(/ in .*$/, '')), [
    'Pod/web-2spec.containers{tools} Normal Pulling: Pulling image "busybox"',
    'Pod/web-2spec.containers{app} Normal Pulled: Container image "nginx:1.27" already present on machine',
    'Pod/web-2spec.containers{tools} Normal Pulled: Successfully pulled image "busybox"',
  ], 'IfNotPresent finds the image the first pod pulled; Always pulls again');
  w.close();
});

test('a running pod deleted has each of its containers stopped (Killing)', async () => {
  const w = await world({ eventRecordQps: 0 });
  await w.pod('web', [{ name: 'app', image: 'nginx:1.27' }, { name: 'log', image: 'busybox:1.36' }]);
  await w.until(30_000);
  await w.client.delete(PODS, 'default', 'web');
  await w.until(90_000);
  assert.equal((await w.events('web')).filter((l) => l.includes('Killing')), [
    'Pod/webspec.containers{app} Normal Killing: Stopping container app',
    'Pod/webspec.containers{log} Normal Killing: Stopping container log',
  ]);
  w.close();
});

test('a container whose run fails under restartPolicy OnFailure backs off (BackOff), then is created and started again', async () => {
  const w = await world({ eventRecordQps: 0 });
  const pod = await w.client.create(PODS, { metadata: { name: 'flaky', namespace: 'default', annotations: { 'orchsim.io/run-duration': '5s', 'orchsim.io/exit-code': '1' } },
    spec: { nodeName: NODE, restartPolicy: 'OnFailure', containers: [{ name: 'main', image: 'busybox:1.36' }] } } as KObject);
  await w.until(60_000);
  const lines = await w.events('flaky');
  assert.ok(lines.includes(`Pod/flakyspec.containers{main} Warning BackOff: Back-off restarting failed container main in pod flaky_default(${pod.metadata.uid})`), lines.join('\n'));
  const started = ((await w.stored()).find((e) => e.reason === 'Started' && e.involvedObject.name === 'flaky'))!;
  assert.ok(started.count! >= 2, `started again after each back-off: ${started.count}`);
  w.close();
});

test('memory pressure: the condition\'s change, the threshold met, the pod evicted with its message and annotations, stopped; and the pressure\'s end', async () => {
  const w = await world({ memory: '2Gi', eventRecordQps: 0 });
  await w.pod('hog', [{ name: 'main', image: 'nginx:1.27', resources: { requests: { memory: '512Mi' } } }], { [MEMORY_USAGE]: '2000Mi' });
  await w.until(15 * 60_000);
  // By the version they were last written at: the second NodeHasSufficientMemory counts on the first.
  assert.equal((await w.events(NODE)).map((l) => l.split(':')[0]), [
    `Node/${NODE} Normal Starting`, `Node/${NODE} Normal NodeHasNoDiskPressure`, `Node/${NODE} Normal NodeHasSufficientPID`,
    `Node/${NODE} Normal NodeAllocatableEnforced`, `Node/${NODE} Normal NodeReady`, `Node/${NODE} Warning EvictionThresholdMet`,
    `Node/${NODE} Normal NodeHasInsufficientMemory`, `Node/${NODE} Normal NodeHasSufficientMemory`,
  ]);
  const sufficient = (await w.stored()).find((e) => e.reason === 'NodeHasSufficientMemory')!;
  assert.is(sufficient.count, 2);
  assert.ok(sufficient.lastTimestamp! > sufficient.firstTimestamp!, 'first at registration, last when the pressure ended');
  const evicted = (await w.stored()).find((e) => e.reason === 'Evicted')!;
  assert.is(evicted.type, 'Warning');
  assert.match(evicted.message, /^The node was low on resource: memory\. Threshold quantity: 100Mi, available: \d+Ki\. Container main was using 2048000Ki, request is 524288Ki/);
  assert.equal(evicted.metadata.annotations, { offending_containers: 'main', offending_containers_usage: '2048000Ki', starved_resource: 'memory' });
  assert.equal((await w.events('hog')).slice(-2).map((l) => l.split(':')[0]), ['Pod/hog Warning Evicted', 'Pod/hogspec.containers{main} Normal Killing']);
  w.close();
});

test('eventRecordQPS and eventBurst pace the agent\'s event writes', async () => {
  const w = await world({ eventRecordQps: 1, eventBurst: 1 });
  await w.until(2_500);
  assert.is((await w.events(NODE)).length, 3, 'one at once, then one a second');
  await w.until(5_500);
  assert.is((await w.events(NODE)).length, 6);
  w.close();
});

test('with events turned off the agent records none', async () => {
  const w = await world({}, false);
  await w.pod('web', [{ name: 'app', image: 'nginx:1.27' }]);
  await w.until(60_000);
  assert.equal(await w.stored(), []);
  assert.is(((await w.client.get(PODS, 'default', 'web')).status as { phase: string }).phase, 'Running');
  w.close();
});

test.run();
