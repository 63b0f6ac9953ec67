// Pod readiness across a zone partition in a whole run: the node lifecycle controller marks the
// pods of the cut-off nodes not Ready on the pass that finds their nodes Unknown (their ReplicaSet
// counts them out); once the partition ends the node agents report their nodes and pods Ready
// again, the taints go before any eviction, and nothing else changed.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../actors/api/types.ts';
import { runScenario } from '../../sim/run.ts';
import { parseScenario } from '../../sim/scenario/load.ts';

const SCENARIO = `
name: partition-ready
duration: 8m
sampleInterval: 10s
nodePools:
  - { name: a, count: 4, region: r, zones: [z1, z2], capacity: { cpu: "4", memory: 16Gi, pods: 30 } }
workloads:
  - { name: web, count: 16, controller: ReplicaSet, requests: { cpu: 100m } }
faults:
  - { kind: zonePartition, at: 2m, zone: z2, recoverAfter: 2m }
`;

type Condition = { type: string; status: string };
const statusOf = (o: KObject | undefined, type: string) => ((o?.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).find((c) => c.type === type)?.status;

test('pods of a partitioned zone are not Ready from their nodes\' Unknown until the partition ends, then Ready again', async () => {
  /** Each pod's Ready changes and each node's, as `status@seconds into the run`. */
  const pods = new Map<string, string[]>();
  const nodes = new Map<string, string[]>();
  const zoneOf = new Map<string, string>();
  const { report, checks, errors } = await runScenario(parseScenario(SCENARIO, { name: 'partition-ready', dir: '.' }), {
    onStarted: (live) => {
      for (const n of live.cluster.nodes) zoneOf.set(n.name, n.zone);
      live.cluster.server.store.onChange((c) => {
        const kind = c.key.includes('/core/pods/') ? pods : c.key.includes('/core/nodes/') ? nodes : undefined;
        const now = statusOf(c.object, 'Ready');
        if (!kind || c.type === 'DELETED' || !now || now === statusOf(c.prev, 'Ready')) return;
        const name = kind === pods ? `${(c.object.spec as { nodeName: string }).nodeName}/${c.object.metadata.name}` : c.object.metadata.name!;
        kind.set(name, [...(kind.get(name) ?? []), `${now}@${Math.round(live.virtualMs() / 1000)}`]);
      });
    },
  });
  assert.equal(errors, []);
  for (const c of checks) assert.is(c.violations, 0, `${c.name}: ${c.examples.join('; ')}`);
  const cut = [...zoneOf].filter(([, z]) => z === 'z2').map(([n]) => n).sort();
  assert.equal(cut.length, 2);

  // Each cut-off node: Unknown 40 s or so into the partition (2:00 to 4:00), Ready once it is over.
  for (const node of cut) {
    const [unknown, back, ...rest] = nodes.get(node)!.map((s) => s.split('@') as [string, string]);
    assert.equal([unknown?.[0], back?.[0], rest.length], ['Unknown', 'True', 0], `${node}: ${nodes.get(node)}`);
    const [unknownS, backS] = [Number(unknown![1]), Number(back![1])];
    // The grace period (40 s) runs from the last lease renewal seen, up to 10.4 s before the cut.
    assert.ok(unknownS >= 120 + 40 - 11 && unknownS <= 120 + 40 + 5, `${node} Unknown at ${unknownS} s`);
    assert.ok(backS >= 240 && backS <= 240 + 50, `${node} Ready again at ${backS} s`);
    // Its pods: not Ready while starting, Ready once running, not Ready from the very pass that found the node Unknown, Ready again after it is back.
    const own = [...pods].filter(([key]) => key.startsWith(`${node}/`));
    assert.ok(own.length > 0, `${node} ran pods`);
    for (const [key, changes] of own) {
      const [starting, running, marked, again, ...more] = changes.map((s) => s.split('@') as [string, string]);
      assert.equal([starting?.[0], running?.[0], marked?.[0], again?.[0], more.length], ['False', 'True', 'False', 'True', 0], `${key}: ${changes}`);
      assert.is(Number(marked![1]), unknownS, `${key} marked with its node`);
      assert.ok(Number(again![1]) >= 240 && Number(again![1]) <= 240 + 50, `${key} Ready again at ${again![1]} s`);
    }
  }
  // The healthy zone's pods did nothing but start.
  for (const [key, changes] of pods) if (!cut.some((n) => key.startsWith(`${n}/`))) assert.equal(changes.map((s) => s.split('@')[0]), ['False', 'True'], key);
  // The ReplicaSet counted the marked pods out, and was whole again once they were back; none was evicted or replaced.
  assert.is(report.replicaSetDips.length, 1, JSON.stringify(report.replicaSetDips));
  const [dip] = report.replicaSetDips;
  assert.ok(dip!.fromMs >= 149_000 && dip!.toMs !== undefined && dip!.toMs >= 240_000 && dip!.toMs <= 290_000, JSON.stringify(dip));
  assert.is(report.summary.taints, 2, 'both cut-off nodes tainted unreachable (z1 healthy: the normal rate)');
  assert.is(report.summary.taintEvictions, 0, 'the taints went before their 300 s were up');
  assert.is(report.summary.pods.created, 16);
});

test('a node whose taint waits behind the pod marks (the client\'s 20 QPS) is not queued and tainted again meanwhile', async () => {
  // Three cut-off nodes of 100 pods each: 300 marks take the controller's client 15 s, longer than the 10 s between taints.
  const crowded = SCENARIO.replace('count: 4, region: r', 'count: 6, region: r').replace('pods: 30', 'pods: 110').replace('cpu: "4"', 'cpu: "64"').replace('count: 16', 'count: 600')
    .replace('recoverAfter: 2m', 'recoverAfter: 10m').replace('duration: 8m', 'duration: 6m');
  const { report, errors } = await runScenario(parseScenario(crowded, { name: 'crowded', dir: '.' }));
  assert.equal(errors, []);
  assert.is(report.summary.taints, 3, 'one taint per cut-off node');
});

test.run();
