// A controller of the controller manager as an actor: its lifecycle machine (machines/controller.ts)
// hosted as `controller/<name>` in the process's actor system, with the controller's own work as
// the machine's I/O. A controller composes one and forwards its start and stop to it.
import { fromPromise, type Actor } from 'xstate';
import { controllerMachine } from '../../machines/controller.ts';
import type { ActorSystem } from '../system/actor-system.ts';
import { stateName } from '../system/records.ts';
import { actorIds } from '../system/ids.ts';
import { whenState } from '../system/when-state.ts';

/** What a controller does at each point of its lifecycle. */
export interface ControllerWork {
  /** Between periodic passes; 0 or absent: the controller works off informer events only. */
  readonly periodMs?: number;
  /** Lists and watches what the controller reads; resolves once its caches are synced. */
  syncCaches(): Promise<void>;
  /** Once synced: start the workers, sweep what the caches hold. */
  run?(): void;
  /** One periodic pass; the next starts periodMs after it resolves (it waits for its writes). */
  pass?(): Promise<void> | void;
  /** Stop: timers cleared, workers stopped. */
  halt(): void;
}

export class ControllerActor {
  readonly #actor: Actor<typeof controllerMachine>;
  readonly #system: ActorSystem;

  constructor(name: string, work: ControllerWork, system: ActorSystem) {
    this.#system = system;
    const machine = controllerMachine.provide({
      actors: { syncCaches: fromPromise(() => work.syncCaches()), pass: fromPromise(async () => work.pass?.()) },
      actions: { run: () => work.run?.(), halt: () => work.halt() },
    });
    this.#actor = system.host(machine, { id: actorIds.controller(name), input: { periodMs: work.periodMs ?? 0 } });
  }

  /** Starts the lifecycle; resolves once the controller runs (or was stopped first), rejects if its caches could not be synced. */
  start(): Promise<void> {
    const started = whenState(this.#actor, (s) => (s.matches('Running') || s.matches('Stopped') ? 'settled' : s.matches('Failed') ? new Error(s.context.error) : undefined));
    this.#actor.start();
    return started;
  }

  stop(): void {
    this.#actor.send({ type: 'STOP' });
  }

  /** Runs `fn` as this controller: what it sends (events, requests) is the controller's, after a wait too. */
  as<T>(fn: () => T): T {
    return this.#system.as(this.#actor.id, fn);
  }

  /** Whether the controller runs (its caches synced, not stopped): what gates its event handlers. */
  get running(): boolean {
    return this.#actor.getSnapshot().matches('Running');
  }

  /** `WaitingForCaches`, `Running.Watching`, `Running.Passing`, `Running.Waiting`, `Stopped` or `Failed`. */
  get state(): string {
    return stateName(this.#actor.getSnapshot().value);
  }
}
