// A scheduler process: with leader election (the default) it campaigns for its Lease and
// schedules only while it leads, a fresh Scheduler per term; without, it schedules from start
// to stop. The simulator's replicas, `orchsim serve` and `orchsim scheduler` all start it so. Its
// registry (`replica.metrics`) holds every term's scheduler metrics and its leader status.
import type { Clock, Random } from '../api/env.ts';
import { newRegistry, type Registry } from '../api/metrics.ts';
import { ApiClient } from '../client/client.ts';
import { electionConfig } from '../client/leader-election.ts';
import { Replica } from '../client/replica.ts';
import { meteredBus } from '../client/request-metrics.ts';
import type { Bus } from '../../transport/bus.ts';
import { ActorSystem } from '../system/actor-system.ts';
import type { SchedulerOptions } from './options.ts';
import { Scheduler, type SchedulerInit } from './scheduler.ts';

export interface SchedulerReplicaInit {
  bus: Bus;
  clock: Clock;
  /** Tie-breaks and leader election's jitter are drawn from it. */
  random: Random;
  /** Checked already (schedulerOptions and the like). */
  options: SchedulerOptions;
  /** The holderIdentity on the Lease. */
  identity: string;
  onDecision?: SchedulerInit['onDecision'];
  onError?: (e: unknown) => void;
  /** Told when this replica starts and stops scheduling, with the lock's name. */
  onLeading?: (lock: string, identity: string, leading: boolean, atMs: number) => void;
  /** Where the replica's metrics go (a new registry when absent). */
  registry?: Registry;
  /** The process's actor system (a system of its own when absent). */
  system?: ActorSystem;
  /** Whether its schedulers record events (default true). */
  events?: boolean;
}

export function schedulerReplica(init: SchedulerReplicaInit): Replica<Scheduler> {
  const { bus, clock, random, options, identity } = init;
  const onError = init.onError ?? ((e: unknown) => console.error(`scheduler ${identity}:`, e));
  const registry = init.registry ?? newRegistry();
  const system = init.system ?? new ActorSystem(clock);
  return new Replica({
    identity, clock, registry, system,
    make: () => new Scheduler({ bus, clock, random, options, onError, registry, system, identity, ...(init.events === false ? { events: false } : {}),
      ...(init.onDecision ? { onDecision: init.onDecision } : {}) }),
    ...(options.leaderElect ? { election: {
      // As the real one: the election's requests give up after the renew deadline.
      client: new ApiClient(meteredBus(bus, clock, registry), `${options.schedulerName}/leader-election`, options.leaderElectRenewDeadlineMs, undefined, { clock }), random: random.fork('leader-election'),
      config: electionConfig(options),
    } } : {}),
    ...(init.onLeading ? { onLeading: (id: string, leading: boolean, at: number) => init.onLeading!(options.leaderElectResourceName, id, leading, at) } : {}),
    onError,
  });
}
