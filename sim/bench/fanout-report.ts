// What `orchsim bench fanout` (and `npm run bench fanout`) reports: every case's figures, the
// ratios the design targets, written as JSON and printed as a table.

export type FanoutPath = 'in-process' | 'nats' | 'raw-nats';

export interface FanoutCase {
  path: FanoutPath;
  watchers: number;
  /** Timed events (after the warm-up). */
  events: number;
  /** Events published before waiting for all their deliveries (flow control). */
  batch: number;
  deliveries: number;
  wallMs: number;
  deliveriesPerSec: number;
  eventsPerSec: number;
  /** From publish to a watcher receiving the event, over the sampled watchers. */
  p50Ms: number;
  p99Ms: number;
  /** Deliveries per second of every run of this case; the figures above are the fastest run's. */
  runsPerSec?: number[];
}

export interface NodeAgentCase {
  path: 'in-process' | 'nats';
  watchers: number;
  events: number;
  /** Events received by watchers' sinks, per pod event: 1 is the node's own watcher only. */
  deliveriesPerEvent: number;
  /** Watch-event messages the bus handed to the watching process, per pod event. */
  busMessagesPerEvent: number;
  /** Progress messages (the source of bookmarks) the watching process received, per pod event. */
  progressMessagesPerEvent: number;
  eventsPerSec: number;
  /** From the store create to the node's watcher receiving the event. */
  p50Ms: number;
  p99Ms: number;
}

export interface Ratio {
  watchers: number;
  /** orchsim over NATS / the raw NATS client, deliveries per second. */
  natsOverRaw?: number;
  /** in-process / orchsim over NATS, deliveries per second. */
  inProcessOverNats?: number;
}

export interface FanoutReport {
  suite: 'fanout';
  node: string;
  /** Which NATS server was measured, or why the NATS half was skipped. */
  nats: string;
  options: { watchers: number[]; events: number; sizeBytes: number; repeats: number; nodeAgents: number };
  /** The mean size of one event on the wire. */
  eventBytes: number;
  /** Microseconds to decode one event (msgpackr): paid once per message a process receives over NATS. */
  decodeMicros: number;
  notes: string[];
  cases: FanoutCase[];
  ratios: Ratio[];
  nodeAgents: NodeAgentCase[];
}

export const TARGET_NATS_OVER_RAW = 0.8;
export const TARGET_IN_PROCESS_OVER_NATS = 20;
/** "A handful" of deliveries for one pod event among all node agents. */
export const TARGET_NODE_DELIVERIES_PER_EVENT = 5;

export function ratiosOf(cases: FanoutCase[], watchers: number[]): Ratio[] {
  return watchers.map((n) => {
    const rate = (p: FanoutPath) => cases.find((c) => c.path === p && c.watchers === n)?.deliveriesPerSec;
    const [inProcess, nats, raw] = [rate('in-process'), rate('nats'), rate('raw-nats')];
    return {
      watchers: n,
      ...(nats !== undefined && raw !== undefined ? { natsOverRaw: nats / raw } : {}),
      ...(inProcess !== undefined && nats !== undefined ? { inProcessOverNats: inProcess / nats } : {}),
    };
  });
}

const PATH_NAMES: Record<FanoutPath, string> = { 'in-process': 'in-process', nats: 'orchsim over NATS', 'raw-nats': 'raw NATS client' };

function align(lines: string[][], leftColumns = 1): string {
  const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
  const pad = (l: string[]) => l.map((c, i) => (i < leftColumns ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [pad(lines[0]), widths.map((w) => '-'.repeat(w)).join('  ').trimEnd(), ...lines.slice(1).map(pad)].join('\n');
}

const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(3));
const verdict = (held: boolean) => (held ? 'ok' : 'MISSED');

function ratioCells(c: FanoutCase, r: Ratio | undefined): string[] {
  if (c.path === 'nats' && r?.natsOverRaw !== undefined)
    return [`${r.natsOverRaw.toFixed(2)} x raw`, `>= ${TARGET_NATS_OVER_RAW}`, verdict(r.natsOverRaw >= TARGET_NATS_OVER_RAW)];
  if (c.path === 'in-process' && r?.inProcessOverNats !== undefined)
    return [`${r.inProcessOverNats.toFixed(1)} x NATS`, `>= ${TARGET_IN_PROCESS_OVER_NATS}`, verdict(r.inProcessOverNats >= TARGET_IN_PROCESS_OVER_NATS)];
  return ['', '', ''];
}

export function formatFanoutTable(report: FanoutReport): string {
  // The ratio columns only when there is something to set against: the NATS half was measured.
  const withRatios = report.cases.some((c) => c.path !== 'in-process');
  const header = ['path', 'watchers', 'events', 'batch', 'deliveries/s', 'p50 ms', 'p99 ms', ...(withRatios ? ['ratio', 'target', ''] : [])];
  const rows = report.cases.map((c) => [
    PATH_NAMES[c.path], String(c.watchers), String(c.events), String(c.batch), c.deliveriesPerSec.toFixed(0), ms(c.p50Ms), ms(c.p99Ms),
    ...(withRatios ? ratioCells(c, report.ratios.find((r) => r.watchers === c.watchers)) : []),
  ]);
  const parts = [`events of ${report.eventBytes} bytes, ${report.decodeMicros.toFixed(1)} µs to decode; NATS: ${report.nats}`, align([header, ...rows])];
  if (report.nodeAgents.length > 0) {
    const agentHeader = ['node agents', 'watchers', 'events', 'deliveries/event', 'bus messages/event', 'progress messages/event', 'events/s', 'p50 ms', 'p99 ms', 'target', ''];
    const agentRows = report.nodeAgents.map((a) => [
      PATH_NAMES[a.path], String(a.watchers), String(a.events), a.deliveriesPerEvent.toFixed(2), a.busMessagesPerEvent.toFixed(2), a.progressMessagesPerEvent.toFixed(2),
      a.eventsPerSec.toFixed(0), ms(a.p50Ms), ms(a.p99Ms), `<= ${TARGET_NODE_DELIVERIES_PER_EVENT}`, verdict(a.deliveriesPerEvent <= TARGET_NODE_DELIVERIES_PER_EVENT),
    ]);
    parts.push(align([agentHeader, ...agentRows]));
  }
  return parts.join('\n\n');
}
