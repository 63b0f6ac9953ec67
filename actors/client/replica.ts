// A replicated component (controller manager, scheduler): with leader election only the replica
// holding the lock does the work, with a fresh instance per term (as a restarted process starts
// afresh), stopped when the term ends; without it, the work runs from start to stop. The replica's
// registry outlives the terms: it is the process's, where its leader status and the work's metrics go.
import type { Clock, Random } from '../api/env.ts';
import { newRegistry, type Registry } from '../api/metrics.ts';
import type { ApiClient } from './client.ts';
import { LeaderElector, type LeaderElectionConfig } from './leader-election.ts';
import type { ActorSystem } from '../system/actor-system.ts';

export interface Runnable {
  start(): Promise<void>;
  stop(): void;
}

export interface ReplicaInit<T extends Runnable> {
  identity: string;
  clock: Clock;
  /** A new instance of the work, for each term. */
  make: () => T;
  /** Leader election: the client and jitter stream it uses, and its timings and lock. */
  election?: { client: ApiClient; random: Random; config: Omit<LeaderElectionConfig, 'identity'> };
  /** Told when this replica starts and stops working. */
  onLeading?: (identity: string, leading: boolean, atMs: number) => void;
  onError?: (e: unknown) => void;
  /** The replica's metrics (a new registry when absent). */
  registry?: Registry;
  /** The process's actor system (the leader machine's home). */
  system?: ActorSystem;
}

export class Replica<T extends Runnable> {
  readonly identity: string;
  readonly elector: LeaderElector | undefined;
  /** The replica's metrics: leader_election_master_status, and whatever its work reports there. */
  readonly metrics: Registry;
  readonly #init: ReplicaInit<T>;
  #current: T | undefined;
  #last: T | undefined;
  #stopped = false;

  constructor(init: ReplicaInit<T>) {
    this.#init = init;
    this.identity = init.identity;
    this.metrics = init.registry ?? newRegistry();
    const e = init.election;
    if (e)
      this.elector = new LeaderElector({
        client: e.client, clock: init.clock, random: e.random, config: { ...e.config, identity: init.identity }, registry: this.metrics,
        ...(init.system ? { system: init.system } : {}),
        onStartedLeading: () => void this.#lead().catch((err) => init.onError?.(err)),
        onStoppedLeading: () => this.#follow(),
        onError: (err) => init.onError?.(err),
      });
  }

  /** Campaigns (with leader election) or starts the work (without, resolving once it runs). */
  async start(): Promise<void> {
    if (this.elector) this.elector.start();
    else await this.#lead();
  }

  /** Stops the work; a leader releases its lock. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.elector) await this.elector.stop();
    this.#follow();
  }

  /** The replica dies at once: work stopped, no release (its lock runs out). */
  crash(): void {
    this.#stopped = true;
    this.elector?.halt();
    this.#follow();
  }

  /** The work of the current term; undefined while not leading. */
  get current(): T | undefined {
    return this.#current;
  }

  /** The work of the current or the last term. */
  get last(): T | undefined {
    return this.#current ?? this.#last;
  }

  get leading(): boolean {
    return this.#current !== undefined;
  }

  /** The leader election health check (always true without leader election). */
  get healthy(): boolean {
    return this.elector?.healthy() ?? true;
  }

  async #lead(): Promise<void> {
    if (this.#stopped || this.#current) return;
    const work = (this.#current = this.#init.make());
    this.#init.onLeading?.(this.identity, true, this.#init.clock.now());
    await work.start();
  }

  #follow(): void {
    const work = this.#current;
    if (!work) return;
    work.stop();
    this.#last = work;
    this.#current = undefined;
    this.#init.onLeading?.(this.identity, false, this.#init.clock.now());
  }
}
