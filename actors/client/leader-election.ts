// Leader election on a Lease, as client-go's leader elector does it. The leader machine
// (machines/leader.ts) holds the rules and the timings (retries with jitter, the renew deadline,
// the lease's expiry on this replica's clock); this host does its I/O, as client-go's LeaseLock
// does: it reads and writes the Lease over its client, keeps the Lease last read (the next write
// replaces it) and the record last observed with the time it was observed (to tell the machine
// whether the record changed, and for the health check). A release clears the holder and sets the
// duration to 1 s, so a successor need not wait out the lease. Results of an attempt the machine
// abandoned (a renew deadline passed, a stop) are dropped, so this cache and the machine agree.
// Given a registry, the elector reports client-go's `leader_election_master_status{name}`: 1 while
// it leads the lock `name`, 0 otherwise.
import { fromPromise, type Actor } from 'xstate';
import { microTime, type Clock, type Random } from '../api/env.ts';
import { Gauge, type Registry } from '../api/metrics.ts';
import { isNotFound } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import { leaderMachine, leaderState, RETRY_JITTER, type LeaderState, type LeaseRead } from '../../machines/leader.ts';
import type { ApiClient } from './client.ts';
import { perRegistry } from './per-registry.ts';
import { ActorSystem } from '../system/actor-system.ts';
import { actorIds } from '../system/ids.ts';
import { whenState } from '../system/when-state.ts';
import { LEASES, type Lease, type LeaseSpec } from '../api/model/coordination.ts';

/** The jitter the machine draws, which the `--leader-elect*` options are checked against (leader-elect-flags.ts). */
export { RETRY_JITTER };

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
  /** The process's actor system: the leader machine is hosted there as `leader/<namespace>/<lock>/<identity>`. */
  system?: ActorSystem;
}

const masterStatus = perRegistry((registry: Registry) => new Gauge({
  name: 'leader_election_master_status', labelNames: ['name'] as const, registers: [registry],
  help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
}));

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
  readonly #system: ActorSystem;
  readonly #actor: Actor<typeof leaderMachine>;
  readonly #status: ((leading: boolean) => void) | undefined;
  /** The Lease as last read; undefined when there was none. */
  #lease: Lease | undefined;
  /** When the current attempt began: the times its write records. */
  #attemptMs = 0;
  /** The record last observed (read or written), as JSON, and when, on our clock. */
  #observedRaw = '';
  #observedMs = 0;

  constructor(init: LeaderElectorInit) {
    checkLeaderElection(init.config);
    this.#c = init.config;
    this.#client = init.client;
    this.#clock = init.clock;
    if (init.registry) {
      const gauge = masterStatus(init.registry), labels = { name: init.config.resourceName };
      this.#status = (leading) => gauge.set(labels, leading ? 1 : 0);
    }
    const machine = leaderMachine.provide({
      actors: {
        readLease: fromPromise<LeaseRead>(({ signal }) => this.#read(signal)),
        writeLease: fromPromise<boolean>(({ signal }) => this.#write(signal)),
        release: fromPromise<void>(() => this.#release()),
      },
      actions: {
        masterStatus: (_, { leading }) => this.#status?.(leading),
        startedLeading: () => init.onStartedLeading(),
        stoppedLeading: () => init.onStoppedLeading(),
        reportError: (_, { error }) => init.onError?.(error),
      },
    });
    const { resourceNamespace, resourceName, identity, leaseDurationMs, renewDeadlineMs, retryPeriodMs } = init.config;
    this.#system = init.system ?? new ActorSystem(init.clock);
    this.#actor = this.#system.host(machine, {
      id: actorIds.leader(resourceNamespace, resourceName, identity),
      input: { identity, leaseDurationMs, renewDeadlineMs, retryPeriodMs, random: init.random },
    });
  }

  get state(): LeaderState {
    return leaderState(this.#actor.getSnapshot().value as string | Record<string, unknown>);
  }

  get isLeader(): boolean {
    return this.state === 'Leader';
  }

  get machine(): Actor<typeof leaderMachine> {
    return this.#actor;
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
    this.#actor.start();
  }

  /** Stops campaigning; a leader stops leading and releases the Lease. Resolves once the machine has stopped. */
  stop(): Promise<void> {
    const actor = this.#actor;
    // Never started, already stopped, or halted: nothing to wait for.
    if (!this.#system.get(actor.id)) return Promise.resolve();
    const stopped = whenState(actor, (s) => (s.status === 'active' ? undefined : 'settled'));
    actor.send({ type: 'STOP' });
    return stopped;
  }

  /** The replica dies at once: no more attempts, no release (its Lease runs out). */
  halt(): void {
    this.#actor.stop();
    this.#status?.(false);
  }

  // ---- The Lease (client-go's LeaseLock) ----------------------------------------------------------

  /** Reads the Lease and notes whether its record changed since the one last observed. */
  async #read(signal: AbortSignal): Promise<LeaseRead> {
    this.#attemptMs = this.#clock.now();
    let lease: Lease | undefined;
    try {
      lease = await this.#client.get(LEASES, this.#c.resourceNamespace, this.#c.resourceName);
    } catch (e) {
      if (!isNotFound(e)) return { kind: 'failed' };
    }
    if (signal.aborted) return { kind: 'failed' };
    this.#lease = lease;
    if (!lease) return { kind: 'absent' };
    const spec: LeaseSpec = lease.spec ?? {};
    const raw = JSON.stringify(spec);
    const changed = raw !== this.#observedRaw;
    if (changed) this.#observe(raw);
    return { kind: 'record', holder: spec.holderIdentity ?? '', changed };
  }

  /** Writes us in as holder of the Lease last read, or creates it; false when the write failed. */
  async #write(signal: AbortSignal): Promise<boolean> {
    const { identity, resourceName: name, resourceNamespace: namespace } = this.#c;
    const now = microTime(this.#attemptMs);
    const record: LeaseSpec = { holderIdentity: identity, leaseDurationSeconds: Math.round(this.#c.leaseDurationMs / 1000), acquireTime: now, renewTime: now };
    const lease = this.#lease;
    const old: LeaseSpec = lease?.spec ?? {};
    let written: KObject;
    try {
      if (!lease) written = await this.#client.create(LEASES, { metadata: { name, namespace }, spec: { ...record, leaseTransitions: 0 } } as KObject);
      else {
        // Renewing keeps the acquisition; taking over counts a transition.
        const spec = old.holderIdentity === identity
          ? { ...record, acquireTime: old.acquireTime ?? now, leaseTransitions: old.leaseTransitions ?? 0 }
          : { ...record, leaseTransitions: (old.leaseTransitions ?? 0) + 1 };
        written = await this.#client.update(LEASES, { ...lease, spec });
      }
    } catch {
      return false;
    }
    if (!signal.aborted) this.#observe(JSON.stringify(written.spec));
    return true;
  }

  #observe(raw: string): void {
    this.#observedRaw = raw;
    this.#observedMs = this.#clock.now();
  }

  async #release(): Promise<void> {
    const { resourceName: name, resourceNamespace: namespace } = this.#c;
    const lease = await this.#client.get(LEASES, namespace, name);
    if (lease.spec?.holderIdentity !== this.#c.identity) return;
    const now = microTime(this.#clock.now());
    await this.#client.update(LEASES, { ...lease, spec: { holderIdentity: '', leaseDurationSeconds: 1, acquireTime: now, renewTime: now,
      leaseTransitions: lease.spec?.leaseTransitions ?? 0 } });
  }
}
