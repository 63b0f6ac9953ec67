// What the real autoscaler's cluster state registry keeps between loops about nodes asked for
// (clusterstate/clusterstate.go, utils/backoff/exponential_backoff.go), as rules over the times
// the host gives it (it reads no clock):
// - a scale-up request per group: asked at `timeMs`, expected by `timeMs + max-node-provision-time`
//   (a further scale-up of the group moves the expectation on); done when the group has no
//   upcoming node, timed out (ScaleUpTimedOut) at the first loop strictly after the expectation;
// - an exponential backoff per group after a failed scale-up (a timeout, or the cloud refusing to
//   grow it): initial-node-group-backoff-duration, doubled (up to max-node-group-backoff-duration)
//   by each failure after the last backoff ended; forgotten when a scale-up of the group completes
//   or node-group-backoff-reset-timeout after its last failure;
// - for each machine of a group with no Node, the first loop that saw it so: unregistered for
//   longer than max-node-provision-time it is long unregistered, and is removed.

export interface ClusterStateOptions {
  maxNodeProvisionTimeMs: number;
  initialNodeGroupBackoffMs: number;
  maxNodeGroupBackoffMs: number;
  nodeGroupBackoffResetTimeoutMs: number;
}

/** Why a group is backed off, as the status ConfigMap's backoffInfo tells it. */
export interface BackoffInfo {
  errorCode: string;
  errorMessage: string;
}

interface Backoff extends BackoffInfo {
  durationMs: number;
  untilMs: number;
  lastFailedMs: number;
}

interface ScaleUpRequest {
  timeMs: number;
  expectedAddMs: number;
}

/** One group as a loop sees it: its machines, which of them have registered, and the Ready ones. */
export interface GroupSight {
  id: string;
  target: number;
  /** Every machine of the group (running or being created), by node name. */
  instances: readonly string[];
  ready: number;
}

export class ClusterState {
  readonly #requests = new Map<string, ScaleUpRequest>();
  readonly #backoffs = new Map<string, Backoff>();
  readonly #unregisteredSince = new Map<string, number>();
  /** Per group at the last update: machines with no Node, and the names of those unregistered too long. */
  readonly #unregisteredNow = new Map<string, { long: string[] }>();

  constructor(readonly options: ClusterStateOptions) {}

  /** The group was asked to grow at `nowMs` (RegisterOrUpdateScaleUp). */
  scaleUp(groupId: string, nowMs: number): void {
    const request = this.#requests.get(groupId);
    this.#requests.set(groupId, { timeMs: request?.timeMs ?? nowMs, expectedAddMs: nowMs + this.options.maxNodeProvisionTimeMs });
  }

  /** A scale-up of the group failed at `nowMs`: it is backed off (an ongoing backoff is not lengthened). */
  failed(groupId: string, nowMs: number, info: BackoffInfo): void {
    const before = this.#backoffs.get(groupId);
    let durationMs = this.options.initialNodeGroupBackoffMs;
    if (before) durationMs = before.untilMs < nowMs ? Math.min(2 * before.durationMs, this.options.maxNodeGroupBackoffMs) : before.durationMs;
    this.#backoffs.set(groupId, { ...info, durationMs, untilMs: nowMs + durationMs, lastFailedMs: nowMs });
  }

  /** Why the group is backed off at `nowMs`, or undefined when it is not. */
  backoff(groupId: string, nowMs: number): BackoffInfo | undefined {
    const b = this.#backoffs.get(groupId);
    return b && b.untilMs > nowMs ? { errorCode: b.errorCode, errorMessage: b.errorMessage } : undefined;
  }

  /** The group's machines unregistered for longer than max-node-provision-time (as of the last update). */
  unregistered(groupId: string): { long: readonly string[] } {
    return this.#unregisteredNow.get(groupId) ?? { long: [] };
  }

  /** Nodes asked for and not yet Ready, less those unregistered too long (the real upcoming nodes). */
  upcoming(g: GroupSight): number {
    return Math.max(0, g.target - g.ready - this.unregistered(g.id).long.length);
  }

  /**
   * The start of a loop at `nowMs` (UpdateNodes): unregistered machines noted, requests whose
   * nodes all came are done (and their group's backoff forgotten), those past their expected
   * time are timed out and back their group off. Answers the timed-out groups with how long
   * their request waited.
   */
  update(nowMs: number, groups: readonly GroupSight[], registered: (name: string) => boolean): { groupId: string; afterMs: number }[] {
    const seen = new Set<string>();
    this.#unregisteredNow.clear();
    for (const g of groups) {
      const now = { long: [] as string[] };
      this.#unregisteredNow.set(g.id, now);
      for (const name of g.instances) {
        if (registered(name)) continue;
        seen.add(name);
        const since = this.#unregisteredSince.get(name) ?? nowMs;
        this.#unregisteredSince.set(name, since);
        if (since + this.options.maxNodeProvisionTimeMs < nowMs) now.long.push(name);
      }
    }
    for (const name of [...this.#unregisteredSince.keys()]) if (!seen.has(name)) this.#unregisteredSince.delete(name);
    for (const [id, b] of this.#backoffs) if (b.lastFailedMs + this.options.nodeGroupBackoffResetTimeoutMs < nowMs) this.#backoffs.delete(id);
    const timedOut: { groupId: string; afterMs: number }[] = [];
    for (const g of groups) {
      const request = this.#requests.get(g.id);
      if (!request) continue;
      if (this.upcoming(g) === 0) {
        this.#requests.delete(g.id);
        this.#backoffs.delete(g.id);
      } else if (request.expectedAddMs < nowMs) {
        const afterMs = nowMs - request.timeMs;
        timedOut.push({ groupId: g.id, afterMs });
        this.#requests.delete(g.id);
      }
    }
    return timedOut;
  }
}
