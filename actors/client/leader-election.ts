// Leader election on a Lease, as client-go's leader elector does it, on the injected clock:
//
// - A candidate reads the Lease every retryPeriod plus up to 1.2 × retryPeriod of jitter (counted
//   after each attempt). It takes the Lease when nobody holds it, or when the record has not
//   changed for a whole leaseDuration on its own clock (it never compares the record's times with
//   its clock: only when it saw the record change).
// - A leader renews every retryPeriod after its last renewal; an attempt that has not succeeded
//   within renewDeadline (a hung request counts as failed at the deadline) loses the leadership,
//   and so does finding another holder. renewDeadline < leaseDuration is what makes a stuck
//   leader step down before anyone else may take over.
// - Stopping a leader releases the Lease (holder cleared, duration 1 s), so a successor need not
//   wait out the lease.
// The leader machine (machines/leader.ts) holds the state. Given a registry, the elector reports
// client-go's `leader_election_master_status{name}`: 1 while it leads the lock `name`, 0 otherwise.
import { createActor, type Actor } from 'xstate';
import type { Clock, Random } from '../api/env.ts';
import { Gauge, type Registry } from '../api/metrics.ts';
import { lookupResource } from '../api/resources.ts';
import { StatusError } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import { leaderMachine, type LeaderState } from '../../machines/leader.ts';
import type { ApiClient } from './client.ts';
import { perRegistry } from './per-registry.ts';

const LEASES = lookupResource('coordination.k8s.io', 'v1', 'leases')!;
/** client-go's JitterFactor for candidates' retries. */
export const RETRY_JITTER = 1.2;

export interface LeaderElectionConfig {
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceName: string;
  resourceNamespace: string;
  /** Who this replica is: the Lease's holderIdentity while it leads. */
  identity: string;
}

export interface LeaderElectorInit {
  client: ApiClient;
  clock: Clock;
  random: Random;
  config: LeaderElectionConfig;
  onStartedLeading: () => void;
  onStoppedLeading: () => void;
  onError?: (e: unknown) => void;
  /** Where to report leader_election_master_status. */
  registry?: Registry;
}

const masterStatus = perRegistry((registry: Registry) => new Gauge({
  name: 'leader_election_master_status', labelNames: ['name'] as const, registers: [registry],
  help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
}));

interface LeaseSpec {
  holderIdentity?: string;
  leaseDurationSeconds?: number;
  acquireTime?: string;
  renewTime?: string;
  leaseTransitions?: number;
}

/** The `--leader-elect*` options, as the controller manager and the scheduler both take them. */
export interface LeaderElectOptions {
  leaderElect: boolean;
  leaderElectLeaseDurationMs: number;
  leaderElectRenewDeadlineMs: number;
  leaderElectRetryPeriodMs: number;
  leaderElectResourceName: string;
  leaderElectResourceNamespace: string;
}

/** Throws a RangeError naming `component` and the bad option. */
export function checkLeaderElectOptions(component: string, o: LeaderElectOptions): void {
  const bad = (name: keyof LeaderElectOptions, rule: string) => new RangeError(`${component} option ${name} ${rule}, got ${JSON.stringify(o[name])}`);
  if (typeof o.leaderElect !== 'boolean') throw bad('leaderElect', 'must be true or false');
  for (const name of ['leaderElectResourceName', 'leaderElectResourceNamespace'] as const)
    if (typeof o[name] !== 'string' || !o[name]) throw bad(name, 'must be a non-empty string');
  try {
    checkLeaderElection(electionConfig(o));
  } catch (e) {
    throw new RangeError(`${component} options: ${(e as Error).message}`);
  }
}

/** The elector's timings and lock from the options. */
export function electionConfig(o: LeaderElectOptions): Omit<LeaderElectionConfig, 'identity'> {
  return { leaseDurationMs: o.leaderElectLeaseDurationMs, renewDeadlineMs: o.leaderElectRenewDeadlineMs, retryPeriodMs: o.leaderElectRetryPeriodMs,
    resourceName: o.leaderElectResourceName, resourceNamespace: o.leaderElectResourceNamespace };
}

/** The Lease's MicroTime form of `ms`. */
const microTime = (ms: number) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

/** Throws a RangeError unless the durations can work (client-go's checks). */
export function checkLeaderElection(c: Pick<LeaderElectionConfig, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'>): void {
  if (!(c.leaseDurationMs > c.renewDeadlineMs)) throw new RangeError(`leader election: leaseDuration (${c.leaseDurationMs} ms) must be greater than renewDeadline (${c.renewDeadlineMs} ms)`);
  if (!(c.renewDeadlineMs > RETRY_JITTER * c.retryPeriodMs)) throw new RangeError(`leader election: renewDeadline (${c.renewDeadlineMs} ms) must be greater than ${RETRY_JITTER} × retryPeriod (${c.retryPeriodMs} ms)`);
  if (!(c.retryPeriodMs > 0)) throw new RangeError(`leader election: retryPeriod must be greater than 0, got ${c.retryPeriodMs} ms`);
}

export class LeaderElector {
  readonly #c: LeaderElectionConfig;
  readonly #client: ApiClient;
  readonly #clock: Clock;
  readonly #random: Random;
  readonly #init: LeaderElectorInit;
  readonly #machine: Actor<typeof leaderMachine>;
  #observed: LeaseSpec = {};
  #observedRaw = '';
  #observedMs = 0;
  #timer: unknown;
  #deadline: unknown;
  /** Bumped whenever a term ends, so answers to an older term's requests are ignored. */
  #epoch = 0;
  #stopped = false;
  readonly #status: ((leading: boolean) => void) | undefined;

  constructor(init: LeaderElectorInit) {
    checkLeaderElection(init.config);
    this.#init = init;
    this.#c = init.config;
    this.#client = init.client;
    this.#clock = init.clock;
    this.#random = init.random;
    this.#machine = createActor(leaderMachine, { clock: init.clock, input: { identity: init.config.identity } });
    if (init.registry) {
      const gauge = masterStatus(init.registry), labels = { name: init.config.resourceName };
      this.#status = (leading) => gauge.set(labels, leading ? 1 : 0);
    }
  }

  get state(): LeaderState {
    return this.#machine.getSnapshot().value as LeaderState;
  }

  get isLeader(): boolean {
    return this.state === 'Leader';
  }

  get machine(): Actor<typeof leaderMachine> {
    return this.#machine;
  }

  /**
   * client-go's leader election health check (the components' `leaderElection` in /healthz): false
   * while this replica holds itself the leader yet has not renewed the Lease for a leaseDuration
   * plus `toleranceMs` (20 s, as the real components allow): a leader stuck without stepping down.
   */
  healthy(toleranceMs = 20_000): boolean {
    return !this.isLeader || this.#clock.now() - this.#observedMs <= this.#c.leaseDurationMs + toleranceMs;
  }

  start(): void {
    this.#status?.(false);
    this.#machine.start();
    void this.#attempt();
  }

  /** Stops campaigning; a leader stops leading and releases the Lease. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#clock.clearTimeout(this.#timer);
    this.#clock.clearTimeout(this.#deadline);
    const leading = this.isLeader;
    this.#machine.send({ type: 'STOP' });
    this.#status?.(false);
    if (!leading) return;
    this.#init.onStoppedLeading();
    await this.#release().catch((e) => this.#init.onError?.(e));
  }

  /** The replica dies at once: no more attempts, no release (its Lease runs out). */
  halt(): void {
    this.#stopped = true;
    this.#epoch++;
    this.#clock.clearTimeout(this.#timer);
    this.#clock.clearTimeout(this.#deadline);
    this.#machine.stop();
    this.#status?.(false);
  }

  // ---- Candidate ----------------------------------------------------------------------------------

  async #attempt(): Promise<void> {
    const epoch = this.#epoch;
    const result = await this.#tryAcquireOrRenew().catch((e) => (this.#init.onError?.(e), false));
    if (this.#stopped || epoch !== this.#epoch) return;
    if (result === true) {
      this.#machine.send({ type: 'ACQUIRED' });
      this.#status?.(true);
      this.#init.onStartedLeading();
      this.#renewLater();
      return;
    }
    if (typeof result === 'string') this.#machine.send({ type: 'HELD', holder: result });
    const delay = this.#c.retryPeriodMs * (1 + this.#random.next() * RETRY_JITTER);
    this.#timer = this.#clock.setTimeout(() => {
      this.#machine.send({ type: 'RETRY' });
      void this.#attempt();
    }, delay);
  }

  // ---- Leader -------------------------------------------------------------------------------------

  #renewLater(): void {
    this.#timer = this.#clock.setTimeout(() => this.#renewRound(), this.#c.retryPeriodMs);
  }

  /** One renewal round: attempts every retryPeriod until one succeeds or renewDeadline passes. */
  #renewRound(): void {
    const epoch = this.#epoch;
    this.#deadline = this.#clock.setTimeout(() => this.#lose(), this.#c.renewDeadlineMs);
    const tryOnce = async () => {
      const ok = await this.#tryAcquireOrRenew().catch((e) => (this.#init.onError?.(e), false));
      if (this.#stopped || epoch !== this.#epoch) return;
      if (ok === true) {
        this.#clock.clearTimeout(this.#deadline);
        this.#machine.send({ type: 'RENEWED' });
        this.#renewLater();
        return;
      }
      this.#timer = this.#clock.setTimeout(() => void tryOnce(), this.#c.retryPeriodMs);
    };
    void tryOnce();
  }

  #lose(): void {
    if (this.#stopped || !this.isLeader) return;
    this.#epoch++;
    this.#clock.clearTimeout(this.#timer);
    this.#machine.send({ type: 'LOST' });
    this.#status?.(false);
    this.#init.onStoppedLeading();
    // Back to campaigning, as a restarted replica would.
    this.#timer = this.#clock.setTimeout(() => void this.#attempt(), this.#c.retryPeriodMs);
  }

  // ---- The Lease ----------------------------------------------------------------------------------

  /** client-go's tryAcquireOrRenew: true when we hold the Lease now; the other holder's name when it is theirs. */
  async #tryAcquireOrRenew(): Promise<boolean | string> {
    const now = this.#clock.now();
    const { identity, resourceName: name, resourceNamespace: namespace } = this.#c;
    const record: LeaseSpec = { holderIdentity: identity, leaseDurationSeconds: Math.round(this.#c.leaseDurationMs / 1000), acquireTime: microTime(now), renewTime: microTime(now) };
    let lease: KObject;
    try {
      lease = await this.#client.get(LEASES, namespace, name);
    } catch (e) {
      if (!(e instanceof StatusError && e.code === 404)) return false;
      try {
        const created = await this.#client.create(LEASES, { metadata: { name, namespace }, spec: { ...record, leaseTransitions: 0 } } as KObject);
        this.#observe(created.spec as LeaseSpec);
        return true;
      } catch {
        return false;
      }
    }
    const old = (lease.spec ?? {}) as LeaseSpec;
    const raw = JSON.stringify(old);
    if (raw !== this.#observedRaw) this.#observe(old);
    const leading = this.#observed.holderIdentity === identity;
    if (old.holderIdentity && this.#observedMs + this.#c.leaseDurationMs > now && !leading) return old.holderIdentity;
    const spec = leading
      ? { ...record, acquireTime: old.acquireTime ?? record.acquireTime, leaseTransitions: old.leaseTransitions ?? 0 }
      : { ...record, leaseTransitions: (old.leaseTransitions ?? 0) + 1 };
    try {
      const updated = await this.#client.update(LEASES, { ...lease, spec });
      this.#observe(updated.spec as LeaseSpec);
      return true;
    } catch {
      return false;
    }
  }

  #observe(spec: LeaseSpec): void {
    this.#observed = spec;
    this.#observedRaw = JSON.stringify(spec);
    this.#observedMs = this.#clock.now();
  }

  async #release(): Promise<void> {
    const { resourceName: name, resourceNamespace: namespace } = this.#c;
    const lease = await this.#client.get(LEASES, namespace, name);
    if ((lease.spec as LeaseSpec).holderIdentity !== this.#c.identity) return;
    const now = microTime(this.#clock.now());
    await this.#client.update(LEASES, { ...lease, spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now,
      leaseTransitions: (lease.spec as LeaseSpec).leaseTransitions ?? 0 } });
  }
}
