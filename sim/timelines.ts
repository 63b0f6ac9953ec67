// What happened to each node and each pod, in order, read from the store's committed changes (the
// stream watchers get) and the scheduler's decisions: the report's timelines, for a user to check
// a run node by node and pod by pod against what they expect. Compact: one `[ms, what, detail?]`
// entry per event, times in virtual ms from the run's start, so the same scenario and seed give
// the same entries.
//
//   node: registered, Ready | NotReady | Unknown (each change of its Ready condition),
//         tainted / untainted <key> (NoExecute taints), deleted
//   pod:  created, scheduled <node>, started, preempted <by pod> | evicted <by>, deleting,
//         Succeeded | Failed <reason>, deleted
import type { Clock } from '../actors/api/env.ts';
import type { ChangeRecord } from '../actors/apiserver/storage/store.ts';
import type { Decision } from '../actors/scheduler/scheduler.ts';
import type { TimelineEntry, Timelines as Report } from './report/types.ts';
import type { Node, Pod } from '../actors/api/model/core.ts';

const PODS = '/core/pods/';
const NODES = '/core/nodes/';

interface PodState {
  entries: TimelineEntry[];
  node: string | undefined;
  phase: string;
  started: boolean;
  deleting: boolean;
}

interface NodeState {
  entries: TimelineEntry[];
  ready: string | undefined;
  /** Its NoExecute taints' keys, joined: most changes leave them as they were. */
  taints: string;
}

const conditionsOf = (o: Pod | Node) => o.status?.conditions ?? [];
const READY: Record<string, string> = { True: 'Ready', False: 'NotReady', Unknown: 'Unknown' };

export class Timelines {
  readonly #pods = new Map<string, PodState>();
  readonly #nodes = new Map<string, NodeState>();
  /** Each preemption victim's preemptor (`namespace/name`), from the scheduler's decisions. */
  readonly #preemptors = new Map<string, string>();

  constructor(readonly clock: Clock, readonly keyPrefix: string, readonly t0: number) {}

  decision(d: Decision): void {
    for (const victim of d.preemption?.victims ?? []) this.#preemptors.set(victim, d.pod);
  }

  observe(c: ChangeRecord): void {
    const key = c.key.slice(this.keyPrefix.length);
    if (key.startsWith(PODS)) this.#pod(key.slice(PODS.length), c);
    else if (key.startsWith(NODES)) this.#node(key.slice(NODES.length), c);
  }

  report(): Report {
    const pods: Record<string, TimelineEntry[]> = {};
    for (const [k, p] of this.#pods) pods[k] = p.entries;
    const nodes: Record<string, TimelineEntry[]> = {};
    for (const [k, n] of this.#nodes) nodes[k] = n.entries;
    return { nodes, pods };
  }

  #t(): number {
    return this.clock.now() - this.t0;
  }

  #pod(key: string, c: ChangeRecord): void {
    let p = this.#pods.get(key);
    if (!p) this.#pods.set(key, (p = { entries: [[this.#t(), 'created']], node: undefined, phase: 'Pending', started: false, deleting: false }));
    if (c.type === 'DELETED') return void p.entries.push([this.#t(), 'deleted']);
    const o = c.object as Pod;
    const node = o.spec?.nodeName;
    if (node && !p.node) {
      p.node = node;
      p.entries.push([this.#t(), 'scheduled', node]);
    }
    const status = o.status;
    const phase = status?.phase ?? 'Pending';
    if (phase === 'Running' && !p.started) {
      p.started = true;
      p.entries.push([this.#t(), 'started']);
    }
    if (phase !== p.phase) {
      p.phase = phase;
      if (phase === 'Failed' && status?.reason === 'Evicted') p.entries.push([this.#t(), 'evicted', 'node-pressure']);
      else if (phase === 'Succeeded' || phase === 'Failed') p.entries.push(status?.reason ? [this.#t(), phase, status.reason] : [this.#t(), phase]);
    }
    if (o.metadata.deletionTimestamp && !p.deleting) {
      p.deleting = true;
      p.entries.push(this.#why(key, o));
    }
  }

  /** Who deleted the pod, as its DisruptionTarget condition says: a preemptor, the taint eviction controller, or no one said. */
  #why(key: string, pod: Pod): TimelineEntry {
    const target = conditionsOf(pod).find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
    if (target?.reason === 'PreemptionByScheduler') return [this.#t(), 'preempted', this.#preemptors.get(key) ?? 'scheduler'];
    if (target?.reason === 'DeletionByTaintManager') return [this.#t(), 'evicted', 'taint-eviction-controller'];
    return [this.#t(), 'deleting'];
  }

  #node(name: string, c: ChangeRecord): void {
    let n = this.#nodes.get(name);
    if (!n) this.#nodes.set(name, (n = { entries: [[this.#t(), 'registered']], ready: undefined, taints: '' }));
    if (c.type === 'DELETED') return void n.entries.push([this.#t(), 'deleted']);
    const ready = READY[conditionsOf(c.object).find((x) => x.type === 'Ready')?.status ?? ''];
    if (ready && ready !== n.ready) {
      n.ready = ready;
      n.entries.push([this.#t(), ready]);
    }
    const taints = ((c.object as Node).spec?.taints ?? [])
      .filter((t) => t.effect === 'NoExecute').map((t) => t.key).sort().join(' ');
    if (taints === n.taints) return;
    const before = n.taints ? n.taints.split(' ') : [];
    const after = taints ? taints.split(' ') : [];
    for (const k of after) if (!before.includes(k)) n.entries.push([this.#t(), 'tainted', k]);
    for (const k of before) if (!after.includes(k)) n.entries.push([this.#t(), 'untainted', k]);
    n.taints = taints;
  }
}
