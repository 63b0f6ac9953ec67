// The machines decide a zone outage: in zone-outage.yaml zone-b's node agents are cut off from the
// control plane at 5m. Their leases renew spread over the period, not in lockstep. The actor
// system's records show each of its nodes' health machine going
// Ready → Unknown 40-50 s after the node's last lease renewal (the monitor grace period,
// the health machine's delay, counted from the pass that saw the renewal); zone-b's zone machine
// going Normal → FullDisruption on the pass that took its last Ready node away, while the other
// zones stay Normal; the nodes tainted no faster than the zone's rate (0.1 per second, set by the
// zone machine's state); and every pod deleted gracefully recorded as an object actor, Live →
// Terminating → Removed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../actors/api/types.ts';
import { topState, type InspectionRecord, type TransitionRecord } from '../../actors/system/index.ts';
import { controllerManagerFromScenario } from '../../actors/controller-manager/options.ts';
import { NODE_LEASE_NAMESPACE } from '../../actors/api/namespaces.ts';
import { runScenario } from '../../sim/run.ts';
import { loadScenario } from '../../sim/scenario/load.ts';

const UNREACHABLE = 'node.kubernetes.io/unreachable';
const noExecute = (node: KObject | undefined) => ((node?.spec as { taints?: { key: string; effect: string }[] } | undefined)?.taints ?? [])
  .some((t) => t.key === UNREACHABLE && t.effect === 'NoExecute');

test('zone-outage: health machines go Unknown after the grace period, the zone machine fully disrupted on that pass, taints at the zone rate', async () => {
  const scenario = await loadScenario(new URL('../../sim/scenarios/zone-outage.yaml', import.meta.url).pathname);
  const o = controllerManagerFromScenario(scenario.options.controllerManager);
  const partition = scenario.faults.find((f) => f.kind === 'zonePartition')!;
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-zone-outage-'));
  const file = join(dir, 'inspect.jsonl');
  const taints = new Map<string, number>();
  const renewals = new Map<string, number[]>();
  let zoneOf = new Map<string, string>();
  let t0 = 0;
  const { errors, checks, report } = await runScenario(scenario, {
    inspectLog: { file },
    onStarted: (live) => {
      t0 = live.cluster.clock.now();
      zoneOf = new Map(live.cluster.nodes.map((n) => [n.name, n.zone]));
      live.cluster.server.store.onChange((c) => {
        if (c.object.kind === 'Lease' && c.object.metadata.namespace === NODE_LEASE_NAMESPACE) {
          const times = renewals.get(c.object.metadata.name!) ?? [];
          times.push(live.cluster.clock.now() - t0);
          renewals.set(c.object.metadata.name!, times);
        }
        if (c.object.kind === 'Node' && noExecute(c.object) && !noExecute(c.prev) && !taints.has(c.object.metadata.name!))
          taints.set(c.object.metadata.name!, live.cluster.clock.now() - t0);
      });
    },
  });
  const records = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as InspectionRecord);
  rmSync(dir, { recursive: true });
  assert.equal(errors, []);
  assert.ok(checks.every((c) => c.violations === 0));
  const transitions = records.filter((r): r is TransitionRecord => r.kind === 'transition');
  const partitioned = [...zoneOf].filter(([, z]) => z === partition.zone).map(([n]) => n);
  assert.is(partitioned.length, 20);

  // The zone's leases renew spread over their period, as independently started agents' do, not in
  // lockstep: each node's last renewal before the partition, over the 10 s before it.
  const last = partitioned.map((name) => renewals.get(name)!.filter((t) => t <= partition.atMs).at(-1)!);
  const mean = last.reduce((a, b) => a + b, 0) / last.length;
  const sd = Math.sqrt(last.reduce((a, t) => a + (t - mean) ** 2, 0) / last.length);
  assert.ok(Math.max(...last) - Math.min(...last) > 7_500 && sd > 2_000, `last renewals ${last.map((t) => t - partition.atMs).join(' ')} ms from the partition (sd ${sd.toFixed(0)} ms)`);

  // The monitor passes, from the controller's machine: each starts nodeMonitorPeriod after the
  // last one ended, and ends once its writes (conditions, taints, pods marked not Ready) returned.
  const controller = transitions.filter((r) => r.id === 'controller/node-lifecycle-controller');
  const starts = controller.filter((r) => r.to === 'Running.Passing').map((r) => r.t);
  const passes = controller.filter((r) => r.from === 'Running.Passing' && r.to === 'Running.Waiting').map((r, i) => ({ start: starts[i]!, end: r.t }));
  passes.slice(1).forEach((p, i) => assert.is(p.start, passes[i]!.end + o.nodeMonitorPeriodMs, `pass ${i + 1} starts a period after the one before ends`));
  const firstPassFrom = (t: number) => passes.find((p) => p.start >= t)!;

  // Each partitioned node: Unknown at least the grace period after its last renewal, and no later
  // than the end of the first pass that starts a grace period after the end of the first pass
  // that could see that renewal (its probe time, on the controller's clock).
  const unknownAt: number[] = [];
  for (const name of partitioned) {
    const losses = transitions.filter((r) => r.id === `node-health/${name}` && topState(r.from) === 'Ready' && topState(r.to) === 'Unknown');
    assert.is(losses.length, 1, `node-health/${name} went from Ready to Unknown once`);
    const lost = losses[0]!;
    assert.ok(lost.t > partition.atMs, `${name} went Unknown after the partition`);
    const renewed = renewals.get(name)!.filter((t) => t <= lost.t).at(-1)!;
    const after = lost.t - renewed;
    const latest = firstPassFrom(firstPassFrom(renewed).end + o.nodeMonitorGracePeriodMs).end;
    assert.ok(after >= o.nodeMonitorGracePeriodMs && lost.t <= latest, `${name}: Unknown ${after} ms after its last renewal, at ${lost.t} (at the latest ${latest})`);
    unknownAt.push(lost.t);
  }

  // The zone, decided at the end of each pass (the real handleDisruption, after every node's
  // update): partially disrupted at the end of the pass that left more than 2 and at least
  // unhealthyZoneThreshold of its nodes not Ready (if one did before the last), fully at the end of
  // the pass that took its last Ready node away; the others stay Normal.
  const zones = transitions.filter((r) => r.machine === 'zone' && r.from !== 'Initial');
  const down = zones.find((r) => r.id.endsWith(`:${partition.zone}`) && r.to === 'FullDisruption');
  assert.ok(down, 'zone-b went FullDisruption');
  const endOf = (t: number) => passes.find((p) => p.start <= t && t <= p.end)!.end;
  assert.is(down.t, endOf(Math.max(...unknownAt)), 'at the end of the pass that took its last Ready node away');
  const notReadyAt = (t: number) => unknownAt.filter((u) => u <= t).length;
  const partial = [...new Set(unknownAt.map(endOf))].sort((a, b) => a - b)
    .find((t) => notReadyAt(t) > 2 && notReadyAt(t) / partitioned.length >= o.unhealthyZoneThreshold && notReadyAt(t) < partitioned.length);
  const partly = zones.filter((r) => r.id.endsWith(`:${partition.zone}`) && r.to === 'PartialDisruption' && r.t < down.t);
  assert.equal(partly.map((r) => [r.from, r.t]), partial === undefined ? [] : [['Normal', partial]], 'partially disrupted on its pass');
  assert.is(down.from, partial === undefined ? 'Normal' : 'PartialDisruption');
  assert.ok(zones.every((r) => r.id.endsWith(`:${partition.zone}`)), zones.map((r) => `${r.id} ${r.to}`).join(', '));

  // Taints: every partitioned node once, no other. The zone's bucket (burst 1) gives a token at
  // its rate while Normal, none while PartialDisruption (a zone under largeClusterSizeThreshold),
  // and, swapped from that empty one, its first one a period after FullDisruption.
  assert.equal([...taints.keys()].sort(), [...partitioned].sort());
  const times = [...taints.values()].sort((a, b) => a - b);
  const periodMs = 1000 / o.nodeEvictionRate;
  const beforeDown = times.filter((t) => t < down.t);
  assert.ok(beforeDown.every((t) => partial === undefined || t <= partial), `no taint while PartialDisruption: ${beforeDown.join(' ')}`);
  assert.ok(times.filter((t) => t >= down.t).every((t) => t >= down.t + periodMs), 'the first a period after FullDisruption');
  // The tainting pass waits for each write and the monitor pass for its own, so no write waits
  // behind a pass's backlog: consecutive taints land a zone period apart, give or take the
  // client's queue (at most a few requests).
  times.slice(1).forEach((t, k) => assert.ok(t - times[k]! >= periodMs - 500, `taints ${k} and ${k + 1} ${t - times[k]!} ms apart (${times.join(' ')})`));
  assert.ok(times.at(-1)! <= down.t + partitioned.length * periodMs + 60_000, `the last taint at ${times.at(-1)} ms`);

  // The report's timelines say the same, node by node and pod by pod: each partitioned node
  // Unknown as its health machine went Unknown, tainted when the taint landed; each of its pods
  // evicted by the taint eviction controller once 300 s have passed (the default toleration), and no other.
  const { nodes, pods } = report.timelines;
  for (const [i, name] of partitioned.entries()) {
    const at = (what: string, detail?: string) => nodes[name]!.filter((e) => e[1] === what && e[2] === detail).map((e) => e[0]);
    // Its condition is written when the machine goes Unknown, and lands before that pass ends (the pass waits for it).
    const [written] = at('Unknown');
    assert.ok(at('Unknown').length === 1 && written! >= unknownAt[i]! && written! <= endOf(unknownAt[i]!), `${name} Unknown at ${written}, its machine at ${unknownAt[i]}`);
    assert.equal(at('tainted', UNREACHABLE), [taints.get(name)!], `${name} tainted`);
    assert.ok(at('untainted', UNREACHABLE)[0]! > partition.atMs + partition.recoverAfterMs!, `${name} untainted after the partition healed`);
    assert.equal(nodes[name]![0], [0, 'registered']);
  }
  const evicted = Object.entries(pods).filter(([, e]) => e.some((x) => x[1] === 'evicted'));
  assert.ok(evicted.length >= 400, `${evicted.length} pods evicted`);
  for (const [pod, entries] of evicted) {
    const node = entries.find((e) => e[1] === 'scheduled')![2]!;
    const eviction = entries.find((e) => e[1] === 'evicted')!;
    assert.is(eviction[2], 'taint-eviction-controller');
    // Decided at the toleration's end; the deletions of a node's pods go out together, at most two
    // seconds through the controller's client (which their events, Marking for deletion, share).
    const late = eviction[0] - (taints.get(node)! + 300_000);
    assert.ok(late >= 0 && late < 2_000, `${pod} on ${node}: evicted ${late} ms after its toleration ended`);
  }
  assert.equal(new Set(evicted.map(([, e]) => e.find((x) => x[1] === 'scheduled')![2])), new Set(partitioned));

  // Every pod deleted gracefully (by the taint eviction controller) is an object actor from Live to Removed.
  const objects = records.filter((r) => r.machine === 'object');
  const started = new Set(objects.filter((r) => r.kind === 'actor').map((r) => r.id));
  const stopped = new Set(objects.filter((r) => r.kind === 'stop').map((r) => r.id));
  assert.ok(started.size >= 400, `${started.size} objects terminated`);
  assert.equal([...started].filter((id) => !stopped.has(id)), [], 'each one removed');
  const one = [...started][0]!;
  assert.equal(objects.filter((r) => r.id === one && r.kind === 'transition').map((r) => `${(r as TransitionRecord).from}→${(r as TransitionRecord).to}`),
    ['Live→Terminating', 'Terminating→Removed']);
});

test.run();
