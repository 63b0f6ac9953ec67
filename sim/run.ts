// One run of a scenario: assemble the cluster, start the workloads, faults and the sampler on the
// virtual clock, let the kernel run to the scenario's end, settle, check the invariants and build
// the report. A pure function of the scenario and the seed, apart from the wall-clock figures
// returned beside the report.
import { SimCluster } from './cluster.ts';
import { Checkers, type CheckResult } from './checkers.ts';
import { drainMicrotasks } from './kernel.ts';
import { histogram, percentiles, RunMetrics } from './metrics.ts';
import { scheduleFaults } from './faults.ts';
import type { PendingPod, Report, RequestTime } from './report/types.ts';
import type { Decision } from '../actors/scheduler/scheduler.ts';
import type { Scenario } from './scenario/types.ts';
import { startWorkloads } from './workload.ts';
import { openInspectLog, type InspectLog } from './inspect-log.ts';
import type { ActorSystem, Inspect } from '../actors/system/actor-system.ts';
import { members } from './scenario/fault-sets.ts';
import type { RequestTimes } from './request-time.ts';
import { Timelines } from './timelines.ts';
import type { Pod } from '../actors/api/model/core.ts';
import { BatchCounts } from './batch-report.ts';
import { ClusterSeries } from './cluster-series.ts';

export interface LiveRun {
  /** Virtual ms since the run's start. */
  virtualMs(): number;
  metrics: RunMetrics;
  cluster: SimCluster;
}

export interface RunOptions {
  seed?: number;
  /** Called once the cluster is up, before virtual time moves: progress displays read the run through it. */
  onStarted?: (live: LiveRun) => void;
  /** Pods (`namespace/name`) whose last scheduling decision the outcome should carry. */
  explain?: string[];
  /** Write the actor system's records to `file` as JSON lines (only `machines`' when not empty). */
  inspectLog?: { file: string; machines?: readonly string[] };
  /** Called with the run's actor system as it is made, before anything is recorded (an inspector's sequence view watches it). */
  onSystem?: (system: ActorSystem) => void;
  /** Records each actor keeps in memory (for an inspector); 0 or absent: none. */
  recordsPerActor?: number;
  /** XState's inspection observer for the actors with these ids (the Stately inspector's chosen actors). */
  inspect?: (id: string) => Inspect | undefined;
}

export interface RunOutcome {
  report: Report;
  checks: CheckResult[];
  /** Component errors and failed creates, first few (a healthy run has none). */
  errors: string[];
  wallMs: number;
  steps: number;
  /** The last scheduling decision of each pod asked for with `explain`, its time from the run's start (undefined: none was made, or it is too old to be kept). */
  explanations: { pod: string; decision: Decision | undefined }[];
}

const MAX_ERRORS = 20;

/**
 * A scenario's run, started and moved on in steps: `advance` runs virtual time up to a point (or
 * until `stopWhen`), `finish` runs nothing more and checks, reports and cleans up, `dispose` only
 * cleans up (a run given up, such as an inspector's replay that went elsewhere). `runScenario` is
 * start, advance to the end, finish.
 */
export class ScenarioRun {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly cluster: SimCluster;
  readonly metrics: RunMetrics;
  /** The clock's time at the start: virtual ms count from here. */
  readonly t0: number;
  readonly #options: RunOptions;
  readonly #wallStart: number;
  readonly #errors: string[];
  readonly #checks: Checkers;
  readonly #timelines: Timelines;
  readonly #unobserve: () => void;
  readonly #log: InspectLog | undefined;
  /** The Jobs of Job and CronJob workloads, counted only when the scenario has some. */
  readonly #batch: BatchCounts | undefined;
  #workloads: Awaited<ReturnType<typeof startWorkloads>> | undefined;
  #faults: Report['faults'] = [];
  /** Usage, replicas and node groups over time, when the scenario asks for usage or autoscaling. */
  #series: ClusterSeries | undefined;
  #steps = 0;
  #disposed = false;

  private constructor(scenario: Scenario, options: RunOptions, wallStart: number, errors: string[], cluster: SimCluster,
    metrics: RunMetrics, timelines: Timelines, checks: Checkers, log: () => InspectLog | undefined) {
    this.scenario = scenario;
    this.seed = options.seed ?? scenario.seed;
    this.#options = options;
    this.#wallStart = wallStart;
    this.#errors = errors;
    this.cluster = cluster;
    this.metrics = metrics;
    this.#checks = checks;
    this.t0 = metrics.t0;
    this.#timelines = timelines;
    this.#unobserve = cluster.server.store.onChange((c) => {
      metrics.observe(c);
      timelines.observe(c);
    });
    this.#log = log();
    this.#batch = BatchCounts.watch(scenario.workloads, cluster.server.store);
  }

  /** Assembles the cluster and starts the workloads, the faults and the sampler; virtual time has not moved. */
  /** Runs `scenario`; one with a fault set (`zone: any`) runs its first member. */
  static async start(given: Scenario, options: RunOptions = {}): Promise<ScenarioRun> {
    const scenario = members(given)[0]!.scenario;
    const wallStart = performance.now();
    const seed = options.seed ?? scenario.seed;
    const errors: string[] = [];
    const noteError = (where: string, e: unknown) => {
      if (errors.length < MAX_ERRORS) errors.push(`${where}: ${e instanceof Error ? e.message : String(e)}`);
    };
    let metrics: RunMetrics | undefined;
    let timelines: Timelines | undefined;
    let checkers: Checkers | undefined;
    let log: InspectLog | undefined;
    const cluster = new SimCluster(scenario, seed, {
      onSystem: (system) => {
        if (options.inspectLog) log = openInspectLog(system, options.inspectLog.file, options.inspectLog.machines);
        options.onSystem?.(system);
      },
      ...(options.recordsPerActor ? { recordsPerActor: options.recordsPerActor } : {}),
      ...(options.inspect ? { inspect: options.inspect } : {}),
      onDecision: (d) => {
        metrics?.decision(d);
        timelines?.decision(d);
      },
      onError: noteError,
      onTaint: () => metrics?.taint(), onEvict: () => metrics?.taintEviction(),
      onLeading: (lock, holder, leading, atMs) => {
        metrics?.leading(lock, holder, leading, atMs);
        checkers?.leading(lock, holder, leading);
      },
    });
    const { clock, server } = cluster;
    // Zones an autoscaled pool may add nodes to count from the start.
    const zones = [...new Set([...cluster.nodes.map((n) => n.zone), ...scenario.nodePools.filter((p) => p.autoscaling).flatMap((p) => p.zones)])].sort();
    metrics = new RunMetrics(clock, server.options.etcdPrefix, zones, clock.now(), scenario.sampleIntervalMs);
    timelines = new Timelines(clock, server.options.etcdPrefix, metrics.t0);
    checkers = new Checkers(metrics);
    const run = new ScenarioRun(scenario, options, wallStart, errors, cluster, metrics, timelines, checkers, () => log);
    try {
      await run.#begin(noteError);
    } catch (e) {
      run.dispose();
      throw e;
    }
    return run;
  }

  async #begin(noteError: (where: string, e: unknown) => void): Promise<void> {
    const { cluster, metrics: m, scenario, t0 } = this;
    const clock = cluster.clock;
    this.#series = ClusterSeries.for(scenario, cluster, m);
    await cluster.start();
    const endMs = scenario.durationMs;
    this.#workloads = await startWorkloads(cluster.adminBus, clock, cluster.random.fork('workloads'), scenario.workloads, t0, endMs);
    cluster.served?.start();
    this.#faults = scheduleFaults(cluster, clock, cluster.random.fork('faults'), scenario.faults, t0, (e) => noteError('faults', e));
    const sample = () => {
      m.sample(cluster.apiRequests, cluster.controllers.zoneStates());
      this.#series?.sample();
      if (clock.now() - t0 < endMs) clock.setTimeout(sample, Math.min(scenario.sampleIntervalMs, t0 + endMs - clock.now()));
    };
    clock.setTimeout(sample, Math.min(scenario.sampleIntervalMs, endMs));
    this.#options.onStarted?.({ virtualMs: () => this.virtualMs, metrics: m, cluster });
  }

  /** Virtual ms since the start. */
  get virtualMs(): number {
    return this.cluster.clock.now() - this.t0;
  }

  /** Whether virtual time reached the scenario's end. */
  get ended(): boolean {
    return this.virtualMs >= this.scenario.durationMs;
  }

  /** Runs virtual time to `untilMs` since the start (the scenario's end at most), or until `stopWhen()` holds between events. */
  async advance(untilMs: number = this.scenario.durationMs, stopWhen?: () => boolean): Promise<void> {
    const until = this.t0 + Math.min(untilMs, this.scenario.durationMs);
    const { steps } = await this.cluster.kernel.run({ until, ...(stopWhen ? { stopWhen } : {}) });
    this.#steps += steps;
  }

  /** Stops the workloads, checks the invariants and builds the report; then cleans up. */
  async finish(): Promise<RunOutcome> {
    try {
      return await this.conclude();
    } finally {
      this.dispose();
    }
  }

  /** Stops the workloads, checks the invariants and builds the report, leaving the cluster as it is (an inspector still shows it). */
  async conclude(): Promise<RunOutcome> {
    const { cluster, metrics: m, scenario, seed, t0 } = this;
    const checks = this.#checks;
    this.#workloads?.stop();
    await drainMicrotasks();
    await checks.compareCaches(cluster.server.store, cacheChecks(cluster), (o) => (o as Pod).spec?.nodeName ?? '');
    for (const e of this.#workloads?.errors ?? []) this.#errors.push(`workloads: ${e}`);
    const report = { ...buildReport(scenario, seed, m, cluster, this.#faults, t0), timelines: this.#timelines.report(),
      ...(this.#batch ? { batch: this.#batch.report() } : {}) };
    if (this.#series) report.series = { ...report.series, ...this.#series.report(report.series.tMs, report.autoscaling?.groups) };
    const explanations = (this.#options.explain ?? []).map((key) => {
      const d = cluster.scheduler?.explain(key);
      return { pod: key, decision: d && { ...d, atMs: d.atMs - t0 } };
    });
    return { report, checks: checks.results(), errors: this.#errors.slice(0, MAX_ERRORS), wallMs: performance.now() - this.#wallStart, steps: this.#steps, explanations };
  }

  /** Stops the cluster and closes the inspection log; the run can go no further. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#workloads?.stop();
    this.#unobserve();
    this.#batch?.stop();
    this.#series?.stop();
    this.cluster.stop();
    this.#log?.close();
  }
}

export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<RunOutcome> {
  const run = await ScenarioRun.start(scenario, options);
  try {
    await run.advance();
  } catch (e) {
    run.dispose();
    throw e;
  }
  return run.finish();
}

function cacheChecks(cluster: SimCluster) {
  const prefix = cluster.server.options.etcdPrefix;
  // The leading replicas' informers: a replica that stopped leading stopped following too.
  const [nodes, pods] = cluster.schedulers.find((s) => s.leading)?.current?.informers ?? [];
  return [
    ...(nodes && pods ? [
      { name: 'scheduler nodes', informer: nodes, prefix: `${prefix}/core/nodes/` },
      { name: 'scheduler pods', informer: pods, prefix: `${prefix}/core/pods/` },
    ] : []),
    ...cluster.controllers.informers.map((informer) => ({
      name: `controller-manager ${informer.o.type.resource}`, informer,
      prefix: `${prefix}/${informer.o.type.group || 'core'}/${informer.o.type.resource}/${informer.o.namespace ? `${informer.o.namespace}/` : ''}`,
    })),
    ...[...cluster.agents].map(([name, agent]) => ({
      name: `nodeagent ${name}`, informer: agent.podInformer, prefix: `${prefix}/core/pods/`, group: name,
    })),
  ];
}

const PENDING_SHOWN = 100;

/** The scheduler's last word on each pod still unbound at the end, the first ones by name. */
function pendingPods(m: RunMetrics, cluster: SimCluster, t0: number): PendingPod[] {
  const unbound = [...m.pods].filter(([, p]) => p.node === undefined).map(([key]) => key).sort();
  const out: PendingPod[] = [];
  for (const key of unbound) {
    const d = cluster.scheduler?.explain(key);
    if (!d || d.result !== 'unschedulable') continue;
    out.push({ pod: key, attempts: d.attempt, lastAttemptMs: d.atMs - t0, message: d.message ?? '', filtered: d.filtered });
    if (out.length === PENDING_SHOWN) break;
  }
  return out;
}

function buildReport(scenario: Scenario, seed: number, m: RunMetrics, cluster: SimCluster, faults: Report['faults'], t0: number): Omit<Report, 'timelines'> {
  const span = m.firstCreateMs !== undefined && m.lastBindMs !== undefined ? m.lastBindMs - m.firstCreateMs : 0;
  const unschedulable: Record<string, number> = {};
  for (const reason of m.lastFailure.values()) unschedulable[reason] = (unschedulable[reason] ?? 0) + 1;
  return {
    version: 1,
    scenario: { name: scenario.name, description: scenario.description, durationMs: scenario.durationMs },
    seed,
    traceHash: m.traceHash,
    summary: {
      nodes: cluster.nodes.length,
      pods: {
        created: m.counts.created, scheduled: m.counts.scheduled, running: m.phaseCounts.Running, succeeded: m.phaseCounts.Succeeded,
        failed: m.phaseCounts.Failed, pending: m.phaseCounts.Pending, deleted: m.counts.deleted, evicted: m.counts.evicted,
      },
      schedulingThroughputPerSec: span > 0 ? Math.round((m.counts.scheduled * 1000 * 1000) / span) / 1000 : 0,
      schedulingLatencyMs: percentiles(m.schedulingLatencies),
      podStartupMs: percentiles(m.startupLatencies),
      schedulingAttempts: m.counts.attempts,
      unschedulableAttempts: m.counts.unschedulableAttempts,
      preemptions: m.counts.preemptions,
      taints: m.counts.taints,
      taintEvictions: m.counts.taintEvictions,
      events: m.counts.events,
      apiRequests: cluster.apiRequests,
    },
    series: m.series,
    histograms: { schedulingLatencyMs: histogram(m.schedulingLatencies), podStartupMs: histogram(m.startupLatencies) },
    unschedulable,
    faults: [...faults].sort((a, b) => a.atMs - b.atMs),
    zones: m.zones,
    pending: pendingPods(m, cluster, t0),
    leadership: m.leadership,
    failovers: m.failovers(),
    replicaSetDips: m.replicaSetDips,
    ...(cluster.served ? { requestTime: requestTimeOf(cluster.served.times) } : {}),
    ...(cluster.cloud ? { autoscaling: { groups: cluster.cloud.report(scenario.durationMs) } } : {}),
  };
}

function requestTimeOf(t: RequestTimes): RequestTime {
  return { requests: t.requests, networkMs: t.networkMs, queueMs: percentiles(t.queueMs), serviceMs: percentiles(t.serviceMs) };
}
