// The API server's /metrics: the real server's metric names, help texts and labels, on this
// instance's own prom-client registry. Durations come from the server's clock (virtual under
// `orchsim run`), never from the library's timers.
//
//   apiserver_request_total                  counter   every answer, by verb, dry_run, group, version, resource,
//                                                      subresource, scope, component and code (429s and 504s included)
//   apiserver_request_duration_seconds       histogram the same labels but code; a watch counts when it ends
//   apiserver_current_inflight_requests      gauge     request_kind=readOnly|mutating: the most served at once
//                                                      since the previous scrape (the real one: in the last second)
//   apiserver_request_terminations_total     counter   requests the server cut short in self-defense: 429 from the
//                                                      in-flight limit or priority and fairness, 504 past --request-timeout (the real
//                                                      successor of apiserver_dropped_requests_total)
//   apiserver_longrunning_requests           gauge     watches being served, by verb, group, version, resource, ...
//   apiserver_registered_watchers            gauge     watches being served, by group, version and kind
//   apiserver_watch_events_total             counter   events sent to watchers, by group, version and kind
//   apiserver_watch_events_sizes             histogram their sizes in bytes
//
// With priority and fairness, by priority_level and flow_schema:
//   apiserver_flowcontrol_rejected_requests_total     counter requests refused, by reason: queue-full,
//                                                             concurrency-limit (a Reject level), time-out
//                                                             (waited past the wait limit), cancelled
//   apiserver_flowcontrol_current_inqueue_requests    gauge   requests waiting in the level's queues now
//   apiserver_flowcontrol_current_executing_requests  gauge   requests executing now (watches not counted)
// and by priority_level only: apiserver_flowcontrol_nominal_limit_seats and _current_limit_seats.
import { CounterSeries, HistogramSeries } from '../api/metric-series.ts';
import { Counter, Gauge, Histogram, newRegistry, type Registry } from '../api/metrics.ts';
import type { FlowControl, FlowControlMetrics, FlowCounts, RejectReason } from './flowcontrol/index.ts';
import type { InflightLimiter } from './inflight.ts';
import type { RequestLabels } from './request-info.ts';

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
const LONG_RUNNING_LABELS = ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
const KIND_LABELS = ['group', 'version', 'kind'] as const;
/** The real buckets: they serve the latency SLOs. */
const DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];
/** 1 KiB doubling to 128 KiB. */
const EVENT_SIZE_BUCKETS = Array.from({ length: 8 }, (_, i) => 1024 * 2 ** i);

const CODES = new Map<number, string>();
const codeText = (code: number) => {
  let text = CODES.get(code);
  if (text === undefined) CODES.set(code, (text = String(code)));
  return text;
};

export interface WatchKind {
  group: string;
  version: string;
  kind: string;
}

/** Requests waiting and executing, per priority level and flow schema. */
interface Flow extends FlowCounts {
  priority_level: string;
}

export class ApiServerMetrics implements FlowControlMetrics {
  readonly registry: Registry = newRegistry();
  readonly #requests: Counter<(typeof REQUEST_LABELS)[number] | 'code'>;
  readonly #durations: Histogram<(typeof REQUEST_LABELS)[number]>;
  readonly #terminations: Counter<Exclude<(typeof REQUEST_LABELS)[number], 'dry_run'> | 'code'>;
  readonly #longRunning: Gauge<(typeof LONG_RUNNING_LABELS)[number]>;
  readonly #watchers: Gauge<(typeof KIND_LABELS)[number]>;
  readonly #watchEvents: Counter<(typeof KIND_LABELS)[number]>;
  readonly #watchEventSizes: Histogram<(typeof KIND_LABELS)[number]>;
  /** The two metrics every request adds to, by label values: prom-client would hash the labels each time. */
  readonly #requestSeries: CounterSeries<(typeof REQUEST_LABELS)[number] | 'code'>;
  readonly #durationSeries: HistogramSeries<(typeof REQUEST_LABELS)[number]>;
  readonly #rejected: Counter<'priority_level' | 'flow_schema' | 'reason'>;
  /** Counted here on every change, read by the gauges only when scraped. */
  readonly #flows = new Map<string, Map<string, Flow>>();
  #flowControl: FlowControl | undefined;

  constructor(inflight: InflightLimiter) {
    const registers = [this.registry];
    this.#requests = new Counter({ name: 'apiserver_request_total', registers, labelNames: [...REQUEST_LABELS, 'code'],
      help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.' });
    this.#durations = new Histogram({ name: 'apiserver_request_duration_seconds', registers, labelNames: [...REQUEST_LABELS], buckets: DURATION_BUCKETS,
      help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.' });
    new Gauge({ name: 'apiserver_current_inflight_requests', registers, labelNames: ['request_kind'],
      help: 'Maximal number of currently used inflight request limit of this apiserver per request kind in last second.',
      collect() {
        this.set({ request_kind: 'readOnly' }, inflight.watermark.readOnly);
        this.set({ request_kind: 'mutating' }, inflight.watermark.mutating);
        inflight.resetWatermark();
      } });
    this.#terminations = new Counter({ name: 'apiserver_request_terminations_total', registers,
      labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'],
      help: 'Number of requests which apiserver terminated in self-defense.' });
    this.#longRunning = new Gauge({ name: 'apiserver_longrunning_requests', registers, labelNames: [...LONG_RUNNING_LABELS],
      help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.' });
    this.#watchers = new Gauge({ name: 'apiserver_registered_watchers', registers, labelNames: [...KIND_LABELS],
      help: 'Number of currently registered watchers for a given resources' });
    this.#watchEvents = new Counter({ name: 'apiserver_watch_events_total', registers, labelNames: [...KIND_LABELS],
      help: 'Number of events sent in watch clients' });
    this.#requestSeries = new CounterSeries(this.#requests, [...REQUEST_LABELS, 'code']);
    this.#durationSeries = new HistogramSeries(this.#durations, REQUEST_LABELS);
    this.#watchEventSizes = new Histogram({ name: 'apiserver_watch_events_sizes', registers, labelNames: [...KIND_LABELS], buckets: EVENT_SIZE_BUCKETS,
      help: 'Watch event size distribution in bytes' });
    this.#rejected = new Counter({ name: 'apiserver_flowcontrol_rejected_requests_total', registers, labelNames: ['priority_level', 'flow_schema', 'reason'],
      help: 'Number of requests rejected by API Priority and Fairness subsystem' });
    const flows = this.#flows;
    const flowGauge = (name: string, help: string, read: (f: Flow) => number) => new Gauge({ name, help, registers, labelNames: ['priority_level', 'flow_schema'],
      collect() {
        for (const byLevel of flows.values())
          for (const f of byLevel.values()) this.set({ priority_level: f.priority_level, flow_schema: f.flowSchema }, read(f));
      } });
    flowGauge('apiserver_flowcontrol_current_inqueue_requests', 'Number of requests currently pending in queues of the API Priority and Fairness subsystem', (f) => f.waiting);
    flowGauge('apiserver_flowcontrol_current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem', (f) => f.executing);
    const levels = () => this.#flowControl?.levels.values() ?? [];
    const levelGauge = (name: string, help: string, read: (l: { nominalCL: number; currentCL: number }) => number) =>
      new Gauge({ name, help, registers, labelNames: ['priority_level'], collect() {
        for (const l of levels()) this.set({ priority_level: l.name }, read(l));
      } });
    levelGauge('apiserver_flowcontrol_nominal_limit_seats', 'Nominal number of execution seats configured for each priority level', (l) => l.nominalCL);
    levelGauge('apiserver_flowcontrol_current_limit_seats', 'current derived number of execution seats available to each priority level', (l) => l.currentCL);
  }

  /** The priority levels whose limits the level gauges show. */
  observeFlowControl(fc: FlowControl): void {
    this.#flowControl = fc;
  }

  rejected(level: string, flowSchema: string, reason: RejectReason): void {
    this.#rejected.inc({ priority_level: level, flow_schema: flowSchema, reason });
  }

  flow(level: string, flowSchema: string): FlowCounts {
    let byLevel = this.#flows.get(level);
    if (!byLevel) this.#flows.set(level, (byLevel = new Map()));
    let f = byLevel.get(flowSchema);
    if (!f) byLevel.set(flowSchema, (f = { priority_level: level, flowSchema, waiting: 0, executing: 0 }));
    return f;
  }

  /** One answered request: its code, and how long it took on the server's clock. */
  request(labels: RequestLabels, code: number, elapsedMs: number): void {
    const values = [labels.verb, labels.dry_run, labels.group, labels.version, labels.resource, labels.subresource, labels.scope, labels.component];
    this.#durationSeries.observe(values, Math.max(0, elapsedMs) / 1000);
    values.push(codeText(code));
    this.#requestSeries.inc(values);
  }

  /** A request cut short by the in-flight limit (429) or the request timeout (504). */
  terminated(labels: RequestLabels, code: number): void {
    const { dry_run: _, ...rest } = labels;
    this.#terminations.inc({ ...rest, code: String(code) });
  }

  /** A watch began (+1) or ended (-1). */
  watching(labels: RequestLabels, kind: WatchKind, delta: 1 | -1): void {
    const { dry_run: _, ...rest } = labels;
    this.#longRunning.inc(rest, delta);
    this.#watchers.inc({ ...kind }, delta);
  }

  /** One event written to a watcher. */
  watchEvent(kind: WatchKind, bytes: number): void {
    this.#watchEvents.inc({ ...kind });
    this.#watchEventSizes.observe({ ...kind }, bytes);
  }
}
