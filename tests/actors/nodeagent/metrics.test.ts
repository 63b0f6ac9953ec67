// The node agent's metrics, the real agent's with the nodeagent_ prefix, against a real API server
// on virtual time: its node's name, the pods it started and runs and their containers, how long
// each took to start on its clock, evictions by signal, status writes, and its client's requests.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../actors/api/resources.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { NodeAgent } from '../../../actors/nodeagent/nodeagent.ts';
import { MEMORY_USAGE } from '../../../actors/nodeagent/pod-usage.ts';
import type { NodeAgentOptions } from '../../../actors/nodeagent/options.ts';
import { priorityClasses } from '../../helpers/priority-classes.ts';
import { virtualWorld } from '../../helpers/virtual-world.ts';
import { sample } from '../client/metric-values.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const NODE = 'node-1';

async function world(options: Partial<NodeAgentOptions> = {}) {
  const { clock, bus, random: root, server, client, run } = await virtualWorld();
  const agent = new NodeAgent({ bus, clock, random: root.fork('agent'), nodeName: NODE, options: { leaseRenewJitterFactor: 0, ...options }, onError: (e) => { throw e; } });
  await agent.start();
  const classFor = priorityClasses(client);
  const pod = async (name: string, memory = '64Mi', extra: { priority?: number; usage?: string } = {}) => client.create(PODS, {
    metadata: { name, namespace: 'default', ...(extra.usage ? { annotations: { [MEMORY_USAGE]: extra.usage } } : {}) },
    spec: { nodeName: NODE, ...(extra.priority !== undefined ? { priorityClassName: await classFor(extra.priority) } : {}),
      containers: [{ name: 'main', image: 'nginx', resources: { requests: { memory } } }] },
  } as KObject);
  const m = (name: string, labels: Record<string, string | number> = {}) => sample(agent.metrics, name, labels);
  return { client, agent, pod, m, run, close: () => { agent.stop(); server.stop(); } };
}

test('pods started and running, their containers and their start durations', async () => {
  const w = await world();
  assert.is(await w.m('nodeagent_node_name', { node: NODE }), 1);
  for (const name of ['a', 'b', 'c']) await w.pod(name);
  await w.run(60_000);
  assert.is(((await w.client.get(PODS, 'default', 'a')).status as { phase: string }).phase, 'Running');
  assert.is(await w.m('nodeagent_started_pods_total'), 3);
  assert.is(await w.m('nodeagent_running_pods'), 3);
  assert.is(await w.m('nodeagent_running_containers', { container_state: 'running' }), 3);
  assert.is(await w.m('nodeagent_running_containers', { container_state: 'created' }), 0);
  assert.is(await w.m('nodeagent_pod_start_duration_seconds_count'), 3);
  assert.ok((await w.m('nodeagent_pod_start_duration_seconds_sum'))! > 0, 'starting takes time on the clock');
  await w.client.delete(PODS, 'default', 'a', { gracePeriodSeconds: 0 });
  await w.run(10_000);
  assert.is(await w.m('nodeagent_running_pods'), 2);
  assert.ok((await w.m('rest_client_requests_total', { code: '200', method: 'PATCH' }))! >= 6, 'pod status writes');
  w.agent.stop();
  assert.is(await w.m('nodeagent_running_pods'), 0, 'a stopped agent runs nothing');
  w.close();
});

test('an eviction under memory pressure is counted by its signal, with the status writes that report the pressure', async () => {
  const w = await world({ memory: '2Gi' });
  await w.pod('keep', '512Mi', { priority: 100 });
  await w.pod('greedy', '256Mi', { priority: 50, usage: '600Mi' });
  await w.run(30_000);
  const writesBefore = (await w.m('nodeagent_node_status_updates_total'))!;
  w.agent.setExtraMemoryUsage(1200 * 2 ** 20);
  await w.run(15_000);
  assert.is(await w.m('nodeagent_evictions', { eviction_signal: 'memory.available' }), 1);
  assert.ok((await w.m('nodeagent_node_status_updates_total'))! > writesBefore, 'the MemoryPressure condition was written');
  w.close();
});

test.run();
