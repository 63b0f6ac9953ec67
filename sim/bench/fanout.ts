// The watch fan-out benchmark, shared by `orchsim bench fanout` and `npm run bench fanout`: for
// each number of watchers, the same ~1.3 KB pod events delivered in process, through orchsim over
// NATS, and by the NATS client alone; then the node-agent case. Cases run one after another in
// this process; each reports when it finishes.
import { MemoryBus } from '../../transport/memory-bus.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { wallClock } from '../clock.ts';
import { eventOf } from '../../actors/apiserver/watch/events.ts';
import { captureEvents, type CapturedEvents, type PodShape } from './events.ts';
import { inProcessCase, natsCase, rawNatsCase, type CaseInput } from './fanout-cases.ts';
import { ratiosOf, type FanoutCase, type FanoutPath, type FanoutReport, type NodeAgentCase } from './fanout-report.ts';
import { batchEvents, DeliveryLatch } from './flow.ts';
import { nodeAgentCase, type NodeAgentInput } from './node-agents.ts';

export interface FanoutOptions {
  watchers: number[];
  /** Timed events per case, fewer where the deliveries would pass MAX_DELIVERIES_PER_CASE. */
  events: number;
  /** Bytes of one event on the wire. */
  sizeBytes: number;
  /** Runs of each path per watcher count, interleaved; the fastest is reported. */
  repeats: number;
  /** Watchers of the node-agent case, one per node; 0 skips it. */
  nodeAgents: number;
  /** A NATS server to measure, or none (the NATS half is skipped). */
  natsUrl?: string;
  /** Told one line per finished case. */
  progress?: (line: string) => void;
}

export const FANOUT_DEFAULTS: Required<Omit<FanoutOptions, 'natsUrl' | 'progress'>> = {
  watchers: [1, 10, 100, 1_000, 10_000],
  events: 20_000,
  sizeBytes: 1_300,
  repeats: 2,
  nodeAgents: 5_000,
};

/** Bounds a case's work (and the raw client's, which pays per delivery): 1,000,000 deliveries is ~3 s raw. */
export const MAX_DELIVERIES_PER_CASE = 1_000_000;
const MIN_EVENTS_PER_CASE = 20;
/** Pod events of the node-agent case: each is timed alone, so a few thousand suffice. */
const MAX_NODE_AGENT_EVENTS = 2_000;
/** Untimed events before each case, as a fraction of its timed ones. */
const WARM_FRACTION = 0.1;

export function checkFanoutOptions(o: FanoutOptions): void {
  const bad = (what: string) => { throw new RangeError(what); };
  if (o.watchers.length === 0 || o.watchers.some((n) => !Number.isInteger(n) || n < 1)) bad(`watchers must be whole numbers of at least 1, got ${o.watchers.join(',')}`);
  if (!Number.isInteger(o.events) || o.events < 1) bad(`events must be a whole number of at least 1, got ${o.events}`);
  if (!Number.isInteger(o.sizeBytes) || o.sizeBytes < 1 || o.sizeBytes > 1_000_000) bad(`size must be between 1 and 1000000 bytes, got ${o.sizeBytes}`);
  if (!Number.isInteger(o.repeats) || o.repeats < 1 || o.repeats > 10) bad(`repeat must be between 1 and 10, got ${o.repeats}`);
  if (!Number.isInteger(o.nodeAgents) || o.nodeAgents < 0) bad(`node agents must be a whole number, got ${o.nodeAgents}`);
}

const timedEventsFor = (o: FanoutOptions, watchers: number) =>
  Math.min(o.events, Math.max(MIN_EVENTS_PER_CASE, Math.floor(MAX_DELIVERIES_PER_CASE / watchers)));
const warmEventsFor = (timed: number) => Math.max(1, Math.ceil(timed * WARM_FRACTION));

function caseLine(c: FanoutCase): string {
  const name = { 'in-process': 'in-process', nats: 'orchsim over NATS', 'raw-nats': 'raw NATS client' }[c.path];
  return `${name.padEnd(17)} ${String(c.watchers).padStart(6)} watchers ${String(c.events).padStart(6)} events ${c.deliveriesPerSec.toFixed(0).padStart(9)} deliveries/s  p50 ${c.p50Ms.toFixed(3)} ms  p99 ${c.p99Ms.toFixed(3)} ms  (${(c.wallMs / 1000).toFixed(1)} s)`;
}

function agentLine(a: NodeAgentCase): string {
  return `node agents ${a.path.padEnd(10)} ${a.watchers} watchers ${a.events} events: ${a.deliveriesPerEvent.toFixed(2)} deliveries/event, ${a.busMessagesPerEvent.toFixed(2)} bus messages/event, p50 ${a.p50Ms.toFixed(3)} ms, p99 ${a.p99Ms.toFixed(3)} ms`;
}

async function nodeAgents(o: FanoutOptions, shape: PodShape, url: string | undefined): Promise<NodeAgentCase[]> {
  const timedEvents = Math.min(o.events, MAX_NODE_AGENT_EVENTS);
  const input = (path: NodeAgentInput['path']): NodeAgentInput => ({ path, agents: o.nodeAgents, warmEvents: warmEventsFor(timedEvents), timedEvents, shape });
  const out: NodeAgentCase[] = [];
  const bus = new MemoryBus({ clock: wallClock() });
  out.push(await nodeAgentCase(input('in-process'), bus, bus, new DeliveryLatch()));
  await bus.close();
  o.progress?.(agentLine(out[0]));
  if (url === undefined) return out;
  const latch = new DeliveryLatch();
  const onError = (e: unknown) => latch.fail(e instanceof Error ? e : new Error(String(e)));
  const pub = await NatsBus.connect({ servers: url, name: 'orchsim-bench-apiserver', onError });
  const sub = await NatsBus.connect({ servers: url, name: 'orchsim-bench-node-agents', onError });
  try {
    out.push(await nodeAgentCase(input('nats'), pub, sub, latch));
  } finally {
    await sub.close();
    await pub.close();
  }
  o.progress?.(agentLine(out[1]));
  return out;
}

/** Events decoded to time one decode (the best of a few rounds: other work on the machine only slows it). */
const DECODE_SAMPLE = 500;
const DECODE_ROUNDS = 5;

/** Microseconds to decode one event, from copies (bytes this process did not encode itself). */
function decodeMicros(events: CapturedEvents): number {
  const copies = events.data.slice(0, DECODE_SAMPLE).map((d) => d.slice());
  let bestMs = Infinity;
  for (let r = 0; r < DECODE_ROUNDS; r++) {
    const startMs = performance.now();
    for (const data of copies) eventOf({ subject: 'orch.w', data });
    bestMs = Math.min(bestMs, performance.now() - startMs);
  }
  return (bestMs * 1000) / copies.length;
}

/** Runs every case; `nats` says which server `natsUrl` is (or why there is none). */
export async function runFanout(o: FanoutOptions, nats: string): Promise<FanoutReport> {
  checkFanoutOptions(o);
  const most = Math.max(...o.watchers.map((n) => timedEventsFor(o, n) + warmEventsFor(timedEventsFor(o, n))));
  const events = await captureEvents(most, o.sizeBytes);
  const cases: FanoutCase[] = [];
  for (const watchers of o.watchers) {
    const timedEvents = timedEventsFor(o, watchers);
    const batch = Math.min(timedEvents, batchEvents(watchers, events.sizeBytes));
    const input: CaseInput = { watchers, events, warmEvents: warmEventsFor(timedEvents), timedEvents, batch };
    const paths: [FanoutPath, () => Promise<FanoutCase>][] = [['in-process', () => inProcessCase(input)]];
    const url = o.natsUrl;
    if (url !== undefined) paths.push(['nats', () => natsCase(input, url)], ['raw-nats', () => rawNatsCase(input, url)]);
    // Rounds of every path, interleaved, so that other work on the machine weighs on all alike.
    const runs = new Map<FanoutPath, FanoutCase[]>(paths.map(([path]) => [path, []]));
    for (let r = 0; r < o.repeats; r++) for (const [path, measure] of paths) runs.get(path)!.push(await measure());
    for (const list of runs.values()) {
      const best = list.reduce((a, b) => (b.deliveriesPerSec > a.deliveriesPerSec ? b : a));
      cases.push({ ...best, runsPerSec: list.map((c) => c.deliveriesPerSec) });
      o.progress?.(caseLine(best));
    }
  }
  const agents = o.nodeAgents > 0 ? await nodeAgents(o, events.shape, o.natsUrl) : [];
  return {
    suite: 'fanout',
    node: process.version,
    nats,
    options: { watchers: o.watchers, events: o.events, sizeBytes: o.sizeBytes, repeats: o.repeats, nodeAgents: o.nodeAgents },
    eventBytes: events.sizeBytes,
    decodeMicros: decodeMicros(events),
    notes: fanoutNotes(),
    cases,
    ratios: ratiosOf(cases, o.watchers),
    nodeAgents: agents,
  };
}

function fanoutNotes(): string[] {
  return [
    'events: ADDED pod events captured from the API server\'s Fanout (MemoryStore creates), encoded once before timing; every path publishes the same bytes on the same object subjects',
    'in-process: MemoryBus, one WatchHub, real Watchers watching the namespace with labelSelector=app=bench-web; nats: the same with the publisher and the watchers on two NATS connections; raw-nats: @nats-io/transport-node alone, one subscription per watcher on the watchers\' subject, no decoding',
    `flow control: events go out in batches sized to keep about 8 MiB of deliveries in flight (at most 256 events); the next batch waits for every delivery of the last. Timed events per case: --events, at most ${MAX_DELIVERIES_PER_CASE} deliveries' worth (at least ${MIN_EVENTS_PER_CASE}), after ${WARM_FRACTION * 100}% more untimed`,
    'each path runs --repeat times per watcher count, interleaved with the others; the fastest run is reported (runsPerSec lists them all)',
    'deliveries/s: watchers x timed events over the wall time of the timed part; p50/p99: publish to receipt in ms, timed by up to 32 watchers spread over the fan-out order (it includes waiting behind the rest of a batch)',
    `node agents: one watcher per node with fieldSelector=spec.nodeName=<node> and bookmarks; each pod event is one store create through the Fanout, waited for before the next (at most ${MAX_NODE_AGENT_EVENTS} timed); p50/p99 from the create to the node's watcher`,
  ];
}
