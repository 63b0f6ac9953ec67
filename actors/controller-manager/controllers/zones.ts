// The node lifecycle controller's zones: one zone machine each (machines/zone.ts), hosted as
// `zone/<region:zone>`, and the tainting queue whose rate the machine's state sets. Every monitor
// pass observes each zone's counts; across zones, the real handleDisruption's rule holds here:
// when every zone is fully disrupted at once, the controller more likely lost its own view of
// the nodes than every zone its nodes, so no zone is tainted until one comes back.
import type { Actor } from 'xstate';
import type { Clock } from '../../api/env.ts';
import { zoneMachine, type ZoneInput, type ZoneState } from '../../../machines/zone.ts';
import type { ActorSystem } from '../../system/actor-system.ts';
import { TaintingQueue, type TaintAction } from '../tainting-queue.ts';
import { actorIds } from '../../system/ids.ts';

interface Zone {
  actor: Actor<typeof zoneMachine>;
  queue: TaintingQueue;
}

/** A zone's nodes at a pass: Ready and not, and how many it holds. */
export interface ZoneCounts {
  ready: number;
  notReady: number;
  size: number;
}

/** What a pass's observation asks of the controller. */
export type Disruption = 'allDown' | 'back' | undefined;

export class Zones {
  readonly #zones = new Map<string, Zone>();

  constructor(readonly clock: Clock, readonly system: ActorSystem, readonly input: ZoneInput) {}

  /** The zone `key`, made on first sight. */
  ensure(key: string): Zone {
    let zone = this.#zones.get(key);
    if (zone) return zone;
    const queue = new TaintingQueue(this.input.evictionRate, this.clock.now());
    const machine = zoneMachine.provide({ actions: { setRate: (_, { qps }) => queue.swapLimiter(qps, this.clock.now()) } });
    const actor = this.system.host(machine, { id: actorIds.zone(key), input: this.input }).start();
    this.#zones.set(key, (zone = { actor, queue }));
    return zone;
  }

  queue(key: string): TaintingQueue | undefined {
    return this.#zones.get(key)?.queue;
  }

  /** Every zone's state, by key. */
  states(): Map<string, ZoneState> {
    return new Map([...this.#zones].map(([k, z]) => [k, this.#state(z)]));
  }

  /** Whether any zone has a node waiting for its taint. */
  get queued(): boolean {
    for (const z of this.#zones.values()) if (z.queue.size > 0) return true;
    return false;
  }

  /** One tainting pass: every zone's queue, in key order, each write waited for. */
  async taint(action: TaintAction): Promise<void> {
    for (const key of [...this.#zones.keys()].sort()) await this.#zones.get(key)!.queue.try(() => this.clock.now(), action);
  }

  /**
   * Sends each zone its counts (the machines decide their states and rates). All zones fully
   * disrupted, and not all before: every queue stops ('allDown': the controller takes every node
   * for reachable). All fully disrupted before and not now: every zone's rate comes back ('back':
   * every node gets a fresh grace period).
   */
  observe(counts: ReadonlyMap<string, ZoneCounts>): Disruption {
    const allWereDown = this.#zones.size > 0 && [...this.#zones.values()].every((z) => this.#state(z) === 'FullDisruption');
    for (const [key, c] of counts) this.ensure(key).actor.send({ type: 'OBSERVE', ready: c.ready, notReady: c.notReady, size: c.size });
    const allAreDown = counts.size > 0 && [...counts.keys()].every((key) => this.#state(this.#zones.get(key)!) === 'FullDisruption');
    if (allAreDown && allWereDown) return undefined;
    const now = this.clock.now();
    if (allAreDown) {
      for (const z of this.#zones.values()) z.queue.swapLimiter(0, now);
      return 'allDown';
    }
    if (allWereDown) {
      for (const key of counts.keys()) {
        const z = this.#zones.get(key)!;
        z.queue.swapLimiter(z.actor.getSnapshot().context.qps, now);
      }
      return 'back';
    }
    return undefined;
  }

  stop(): void {
    for (const z of this.#zones.values()) z.actor.stop();
  }

  #state(zone: Zone): ZoneState {
    return zone.actor.getSnapshot().value as ZoneState;
  }
}
