// The pod printer (printPod): readiness, the computed status reason kubectl shows in STATUS
// ("Init:0/1", "ContainerCreating", "CrashLoopBackOff", "Completed", "Terminating", ...), and
// restarts with the age of the last one.
import type { KObject } from '../../../api/types.ts';
import { ageSince, GO_ZERO_TIME_MS, parseTimestampMs, translateTimestampSince } from '../human-duration.ts';
import { ageColumn, column, fields, type Fields, int, list, nameColumn, type Printer, text, wide } from '../tables-format.ts';

const POD_COLUMNS = [
  nameColumn,
  column('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
  column('Status', 'The aggregate status of the containers in this pod.'),
  column('Restarts', 'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.'),
  ageColumn,
  column('IP', 'podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated.', wide),
  column('Node', 'NodeName indicates in which node this pod is scheduled.', wide),
  column('Nominated Node', 'nominatedNodeName is set only when this pod preempts other pods on the node, but it cannot be scheduled right away as preemption victims receive their graceful termination periods.', wide),
  column('Readiness Gates', 'If specified, all readiness gates will be evaluated for pod readiness.', wide),
];

/** The reason a node controller gives pods on a node it lost (pkg/util/node NodeUnreachablePodReason). */
const NODE_LOST = 'NodeLost';

/** What the status pass over a pod's containers adds up. */
interface Tally {
  reason: string;
  ready: number;
  restarts: number;
  /** When a counted container last terminated, in ms; undefined while none has. */
  lastRestartMs: number | undefined;
}

export const POD_PRINTER: Printer = { columns: POD_COLUMNS, cells: podCells };

function podCells(pod: KObject, nowMs: number): unknown[] {
  const spec = fields(pod.spec);
  const status = fields(pod.status);
  const phase = text(status.phase);
  const tally: Tally = { reason: text(status.reason) || phase, ready: 0, restarts: 0, lastRestartMs: undefined };
  for (const c of conditionsOf(status))
    if (c.type === 'PodScheduled' && c.reason === 'SchedulingGated') tally.reason = 'SchedulingGated';

  const initSpecs = new Map(list(spec.initContainers).map((c) => [text(fields(c).name), fields(c)]));
  const sidecars = list(spec.initContainers).map((c) => fields(c)).filter(isRestartable).length;
  const total = list(spec.containers).length + sidecars;

  const init = initContainerPass(tally, status, initSpecs, list(spec.initContainers).length);
  if (!init.initializing || firstConditionIsTrue(status, 'Initialized')) {
    // Past initialization only sidecars' restarts count, with the app containers'.
    tally.restarts = init.sidecarRestarts;
    tally.lastRestartMs = init.sidecarLastMs;
    containerPass(tally, status);
  }

  const deleting = pod.metadata.deletionTimestamp !== undefined && pod.metadata.deletionTimestamp !== null;
  if (deleting && status.reason === NODE_LOST) tally.reason = 'Unknown';
  else if (deleting && phase !== 'Succeeded' && phase !== 'Failed') tally.reason = 'Terminating';

  const restarts = tally.restarts !== 0 && tally.lastRestartMs !== undefined
    ? `${tally.restarts} (${ageSince(tally.lastRestartMs, nowMs)} ago)`
    : String(tally.restarts);
  return [
    pod.metadata.name ?? '', `${tally.ready}/${total}`, tally.reason, restarts, translateTimestampSince(pod.metadata.creationTimestamp, nowMs),
    podIP(status) || '<none>', text(spec.nodeName) || '<none>', text(status.nominatedNodeName) || '<none>', readinessGates(spec, status),
  ];
}

/**
 * Walks init container statuses in order, stopping at the first one still in the way. Returns
 * whether the pod is still initializing, and the sidecars' share of the restarts.
 */
function initContainerPass(tally: Tally, status: Fields, specs: Map<string, Fields>, initCount: number):
  { initializing: boolean; sidecarRestarts: number; sidecarLastMs: number | undefined } {
  const statuses = list(status.initContainerStatuses).map((x) => fields(x));
  let sidecarRestarts = 0;
  let sidecarLastMs: number | undefined;
  let initializing = false;
  for (let i = 0; i < statuses.length; i++) {
    const c = statuses[i];
    const sidecar = isRestartable(specs.get(text(c.name)));
    const lastMs = lastTerminatedMs(c);
    tally.restarts += int(c.restartCount);
    tally.lastRestartMs = later(tally.lastRestartMs, lastMs);
    if (sidecar) {
      sidecarRestarts += int(c.restartCount);
      sidecarLastMs = later(sidecarLastMs, lastMs);
    }
    const { waiting, terminated } = stateOf(c);
    if (terminated && int(terminated.exitCode) === 0) continue;
    if (sidecar && c.started === true) {
      if (c.ready === true) tally.ready++;
      continue;
    }
    if (terminated) tally.reason = `Init:${text(terminated.reason) || exitDescription(terminated)}`;
    else if (waiting && text(waiting.reason) && waiting.reason !== 'PodInitializing') tally.reason = `Init:${text(waiting.reason)}`;
    else tally.reason = `Init:${i}/${initCount}`;
    initializing = true;
    break;
  }
  return { initializing, sidecarRestarts, sidecarLastMs };
}

/** App containers, last to first, so the reason of the first one with a waiting or terminated state wins. */
function containerPass(tally: Tally, status: Fields): void {
  const statuses = list(status.containerStatuses).map((x) => fields(x));
  let hasRunning = false;
  for (let i = statuses.length - 1; i >= 0; i--) {
    const c = statuses[i];
    tally.restarts += int(c.restartCount);
    tally.lastRestartMs = later(tally.lastRestartMs, lastTerminatedMs(c));
    const { waiting, running, terminated } = stateOf(c);
    if (waiting && text(waiting.reason)) tally.reason = text(waiting.reason);
    else if (terminated && text(terminated.reason)) tally.reason = text(terminated.reason);
    else if (terminated) tally.reason = exitDescription(terminated);
    else if (c.ready === true && running) {
      hasRunning = true;
      tally.ready++;
    }
  }
  // A finished container beside a running one does not make the pod "Completed".
  if (tally.reason === 'Completed' && hasRunning) tally.reason = anyConditionIsTrue(status, 'Ready') ? 'Running' : 'NotReady';
}

function stateOf(containerStatus: Fields): { waiting?: Fields; running?: Fields; terminated?: Fields } {
  const state = fields(containerStatus.state);
  const part = (key: string) => (state[key] !== undefined && state[key] !== null ? fields(state[key]) : undefined);
  return { waiting: part('waiting'), running: part('running'), terminated: part('terminated') };
}

function exitDescription(terminated: Fields): string {
  const signal = int(terminated.signal);
  return signal !== 0 ? `Signal:${signal}` : `ExitCode:${int(terminated.exitCode)}`;
}

/** lastState.terminated.finishedAt; an unset or zero time counts as never. */
function lastTerminatedMs(containerStatus: Fields): number | undefined {
  const ms = parseTimestampMs(fields(containerStatus.lastState, 'terminated').finishedAt);
  return ms === GO_ZERO_TIME_MS ? undefined : ms;
}

function later(a: number | undefined, b: number | undefined): number | undefined {
  return b !== undefined && (a === undefined || b > a) ? b : a;
}

/** A sidecar: an init container with restartPolicy Always (podutil.IsRestartableInitContainer). */
function isRestartable(initContainer: Fields | undefined): boolean {
  return initContainer?.restartPolicy === 'Always';
}

const conditionsOf = (status: Fields) => list(status.conditions).map((x) => fields(x));

/** isPodInitializedConditionTrue: the first condition of the type decides. */
function firstConditionIsTrue(status: Fields, type: string): boolean {
  return conditionsOf(status).find((c) => c.type === type)?.status === 'True';
}

/** hasPodReadyCondition: any condition of the type that is True. */
function anyConditionIsTrue(status: Fields, type: string): boolean {
  return conditionsOf(status).some((c) => c.type === type && c.status === 'True');
}

/** status.podIP wins over podIPs[0] when both are set (the v1 to internal conversion). */
function podIP(status: Fields): string {
  return text(status.podIP) || text(fields(list(status.podIPs)[0]).ip);
}

function readinessGates(spec: Fields, status: Fields): string {
  const gates = list(spec.readinessGates).map((g) => text(fields(g).conditionType));
  if (gates.length === 0) return '<none>';
  const conditions = conditionsOf(status);
  const trueCount = gates.filter((type) => conditions.find((c) => c.type === type)?.status === 'True').length;
  return `${trueCount}/${gates.length}`;
}
