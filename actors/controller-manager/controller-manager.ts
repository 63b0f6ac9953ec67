// The controller manager: the control loops `--controllers` enables, each with its own API client
// limited to orchApiQps/orchApiBurst as the real one's clients are, hosted by the component machine.
//
//   node-lifecycle-controller   node health, Unknown conditions, zones, NoExecute and NoSchedule taints
//   taint-eviction-controller   deletes pods that do not tolerate a node's NoExecute taints, or no longer
import { createActor, type Actor } from 'xstate';
import type { Clock } from '../api/env.ts';
import type { Informer } from '../client/informer.ts';
import { RateLimiter } from '../client/rate-limiter.ts';
import { componentMachine, componentState } from '../../machines/component.ts';
import type { ZoneState } from '../../machines/zone.ts';
import type { Bus } from '../../transport/bus.ts';
import { NodeLifecycleController } from './controllers/node-lifecycle.ts';
import { TaintEvictionController } from './controllers/taint-eviction.ts';
import { NodeConditionTaints } from './controllers/node-condition-taints.ts';
import { controllerEnabled, controllerManagerOptions, type ControllerManagerOptions } from './options.ts';

export interface ControllerManagerInit {
  bus: Bus;
  clock: Clock;
  options?: Partial<ControllerManagerOptions>;
  onError?: (controller: string, e: unknown) => void;
  onTaint?: (node: string, key: string, atMs: number) => void;
  onEvict?: (pod: string, atMs: number) => void;
}

interface Loop {
  start(): Promise<void>;
  stop(): void;
}

export class ControllerManager {
  readonly options: ControllerManagerOptions;
  readonly nodeLifecycle: NodeLifecycleController | undefined;
  readonly conditionTaints: NodeConditionTaints | undefined;
  readonly taintEviction: TaintEvictionController | undefined;
  readonly #loops: Loop[] = [];
  readonly #lifecycle: Actor<typeof componentMachine>;

  constructor(init: ControllerManagerInit) {
    const o = (this.options = controllerManagerOptions(init.options));
    const { bus, clock } = init;
    const limiter = () => (o.orchApiQps > 0 ? new RateLimiter(clock, o.orchApiQps, o.orchApiBurst) : undefined);
    const onError = (controller: string) => (e: unknown) => (init.onError ? init.onError(controller, e) : console.error(`${controller}:`, e));
    const optional = <T>(value: T | undefined, key: string) => (value === undefined ? {} : { [key]: value });
    if (controllerEnabled(o.controllers, 'node-lifecycle-controller')) {
      this.conditionTaints = new NodeConditionTaints({ bus, clock, onError: onError('node-lifecycle-controller') });
      this.nodeLifecycle = new NodeLifecycleController({ bus, clock, options: o, onError: onError('node-lifecycle-controller'),
        ...optional(limiter(), 'limiter'), ...optional(init.onTaint, 'onTaint') });
      this.#loops.push(this.conditionTaints, this.nodeLifecycle);
    }
    if (controllerEnabled(o.controllers, 'taint-eviction-controller')) {
      this.taintEviction = new TaintEvictionController({ bus, clock, onError: onError('taint-eviction-controller'),
        ...optional(limiter(), 'limiter'), ...optional(init.onEvict, 'onEvict') });
      this.#loops.push(this.taintEviction);
    }
    this.#lifecycle = createActor(componentMachine, { clock }).start();
  }

  async start(): Promise<void> {
    try {
      for (const loop of this.#loops) await loop.start();
    } catch (e) {
      this.#lifecycle.send({ type: 'FAILED', error: (e as Error).message });
      throw e;
    }
    this.#lifecycle.send({ type: 'STARTED' });
  }

  stop(): void {
    this.#lifecycle.send({ type: 'STOP' });
    for (const loop of this.#loops) loop.stop();
    this.#lifecycle.send({ type: 'STOPPED' });
  }

  get state(): string {
    return componentState(this.#lifecycle.getSnapshot().value);
  }

  get lifecycle(): Actor<typeof componentMachine> {
    return this.#lifecycle;
  }

  /** Every zone's state (empty without the node lifecycle controller). */
  zoneStates(): Map<string, ZoneState> {
    return this.nodeLifecycle?.zoneStates() ?? new Map();
  }

  /** The informers of every loop (the checkers compare their caches with the store). */
  get informers(): Informer[] {
    return [this.conditionTaints?.informer, ...(this.nodeLifecycle?.informers ?? []), ...(this.taintEviction?.informers ?? [])].filter((i): i is Informer => i !== undefined);
  }
}
