// --balance-similar-node-groups as the real one: groups whose templates have the same capacity
// (memory within 1.5%), allocatable within 5% and the same labels but zone, host and group share a
// scale-up, each next node going to the smallest; in a cluster the TriggeredScaleUp names each.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { DEPLOYMENTS } from '../../../actors/api/model/apps.ts';
import type { Node } from '../../../actors/api/model/core.ts';
import { EVENTS } from '../../../actors/client/events/index.ts';
import type { KObject } from '../../../actors/api/types.ts';
import { balanceScaleUp, ignoredLabels, similarTemplates } from '../../../actors/cluster-autoscaler/balance.ts';
import type { NodeGroup } from '../../../actors/cluster-autoscaler/cloud-provider.ts';
import { simCluster } from '../../helpers/sim-cluster.ts';

/** A template node; `zone` and `pool` give its zone and group labels, the rest are labels as they are. */
const template = (cpu: string, memory: string, { zone = 'z1', pool = 'p', ...labels }: Record<string, string> = {}, allocatableCpu = cpu): Node => ({
  metadata: { name: 't', labels: { 'kubernetes.io/os': 'linux', 'topology.kubernetes.io/zone': zone, 'orchsim.io/pool': pool, ...labels } },
  status: { capacity: { cpu, memory, pods: '110' }, allocatable: { cpu: allocatableCpu, memory, pods: '110' } },
}) as Node;
const IGNORED = ignoredLabels(['orchsim.io/pool']);

test('templates are similar with the same capacity and labels but zone and group, memory within 1.5% and allocatable within 5%', () => {
  assert.ok(similarTemplates(template('4', '16Gi', { zone: 'a', pool: 'x' }), template('4', '16Gi', { zone: 'b', pool: 'y' }), IGNORED));
  assert.ok(similarTemplates(template('4', '16000Mi'), template('4', '16200Mi'), IGNORED), '1.2% apart');
  assert.not.ok(similarTemplates(template('4', '16000Mi'), template('4', '16300Mi'), IGNORED), '1.8% apart');
  assert.not.ok(similarTemplates(template('4', '16Gi'), template('8', '16Gi'), IGNORED), 'CPU capacity must match exactly');
  assert.ok(similarTemplates(template('4', '16Gi', {}, '3900m'), template('4', '16Gi'), IGNORED), 'allocatable 2.5% apart');
  assert.not.ok(similarTemplates(template('4', '16Gi', {}, '3700m'), template('4', '16Gi'), IGNORED), 'allocatable 7.5% apart');
  assert.not.ok(similarTemplates(template('4', '16Gi', { disk: 'ssd' }), template('4', '16Gi'), IGNORED), 'a label only one has');
  assert.not.ok(similarTemplates(template('4', '16Gi', { disk: 'ssd' }), template('4', '16Gi', { disk: 'hdd' }), IGNORED));
  assert.not.ok(similarTemplates(template('4', '16Gi', { pool: 'x' }), template('4', '16Gi', { pool: 'y' }), ignoredLabels([])), 'a group label not ignored');
});

const group = (id: string, size: number, max: number): NodeGroup =>
  ({ id, minSize: 0, maxSize: max, targetSize: () => size, instances: () => [], templateNode: () => template('4', '16Gi'), costPerHour: undefined });
const split = (groups: NodeGroup[], nodes: number) => balanceScaleUp(groups, nodes).map((i) => `${i.group.id} ${i.currentSize}->${i.newSize}`);

test('new nodes go to the smallest group each, none past its maximum, the smaller current size first on a tie', () => {
  assert.equal(split([group('a', 1, 5), group('b', 1, 5)], 2), ['a 1->2', 'b 1->2']);
  assert.equal(split([group('a', 3, 10), group('b', 0, 10), group('c', 1, 10)], 4), ['b 0->3', 'c 1->2']);
  assert.equal(split([group('a', 3, 10), group('b', 0, 10), group('c', 1, 10)], 6), ['b 0->4', 'c 1->3'], 'on a tie of new sizes the smaller current size goes first');
  assert.equal(split([group('a', 1, 2), group('b', 1, 10)], 4), ['a 1->2', 'b 1->4'], 'a stops at its maximum');
  assert.equal(split([group('a', 2, 2), group('b', 0, 1)], 3), ['b 0->1'], 'no more room than the maxima give');
  assert.equal(split([group('a', 1, 5)], 2), ['a 1->3'], 'alone: all to the chosen group');
});

const scenario = (balance: boolean) => `duration: 1h
events: true
nodePools:
  - { name: a, count: 1, zones: [z1], autoscaling: { min: 1, max: 3 }, capacity: { cpu: "4", memory: 16Gi } }
  - { name: b, count: 1, zones: [z2], autoscaling: { min: 1, max: 3 }, capacity: { cpu: "4", memory: 16Gi } }
  - { name: big, count: 0, zones: [z1], autoscaling: { min: 0, max: 3 }, capacity: { cpu: "8", memory: 32Gi } }
clusterAutoscaler:
  scan-interval: 10s
  expander: priority
  balance-similar-node-groups: ${balance}
  priorities: { 10: [^a$], 1: [.*] }
`;

async function scaleUpFor(balance: boolean): Promise<string[]> {
  const { c, client, run } = await simCluster(scenario(balance));
  await client.create(DEPLOYMENTS, { metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 4, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '3' } } }] } } } } as KObject);
  await run(30_000);
  const events = (await client.list(EVENTS, 'default')).items.filter((e) => (e as Record<string, unknown>).reason === 'TriggeredScaleUp') as unknown as { message: string }[];
  c.stop();
  return [...new Set(events.map((e) => e.message))];
}

test('with balancing, the similar group in the other zone shares the scale-up the expander gave the preferred group; the larger machine does not', async () => {
  assert.equal(await scaleUpFor(true), ['pod triggered scale-up: [{a 1->2 (max: 3)} {b 1->2 (max: 3)}]']);
  assert.equal(await scaleUpFor(false), ['pod triggered scale-up: [{a 1->3 (max: 3)}]']);
});

test.run();
