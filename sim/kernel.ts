// The discrete-event run loop: fire the next timer of the virtual clock, let every promise
// continuation it caused run, repeat. Nothing else moves time, so a run is a pure function of
// what was scheduled.
//
// How the kernel knows the microtask queue is empty: Node runs the process.nextTick queue and
// the promise microtask queue to exhaustion (including work they add) before it moves to the
// event loop's next phase, so a `setImmediate` callback runs only once both are empty. The
// kernel awaits one such callback after every timer. Under virtual time nothing else reaches the
// event loop (no real timers, no I/O on the in-process bus), so nothing can interleave.
import type { VirtualClock } from './virtual-clock.ts';

export interface KernelOptions {
  clock: VirtualClock;
  /** Most timers one `run` may fire before it throws a `StepLimitError`: a guard against timer loops. */
  maxSteps?: number;
}

export interface RunOptions {
  /** Virtual time (epoch ms, on the clock) at which the run ends; must not be before the clock's now. */
  until: number;
  /** Checked before the first step and after every step (once continuations have run). */
  stopWhen?: () => boolean;
}

export interface RunResult {
  /** Timers fired. */
  steps: number;
  /** The clock's time when the run stopped. */
  virtualMs: number;
  /** `until`: time reached `until` with no timer left before it; `stopWhen`: the condition held. */
  reason: 'until' | 'stopWhen';
}

/** A run fired `maxSteps` timers without reaching its end. */
export class StepLimitError extends Error {
  override name = 'StepLimitError';
  constructor(
    readonly maxSteps: number,
    readonly virtualMs: number,
    readonly untilMs: number,
  ) {
    super(`kernel run stopped after maxSteps (${maxSteps}) timers at virtual time ${virtualMs} ms, before reaching ${untilMs} ms: raise maxSteps or look for a timer that re-arms itself without end`);
  }
}

const defaults: Required<Omit<KernelOptions, 'clock'>> = { maxSteps: 10_000_000 };

/** Resolves once the nextTick and microtask queues are empty (see the header). */
export const drainMicrotasks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export class Kernel {
  readonly clock: VirtualClock;
  readonly maxSteps: number;
  #running = false;

  constructor(options: KernelOptions) {
    const o = { ...defaults, ...options };
    if (!(Number.isInteger(o.maxSteps) && o.maxSteps > 0)) throw new RangeError(`maxSteps must be a positive integer, got ${o.maxSteps}`);
    this.clock = o.clock;
    this.maxSteps = o.maxSteps;
  }

  /** Runs timers in (due, seq) order until `until`, `stopWhen()`, or `maxSteps` (which throws). */
  async run({ until, stopWhen }: RunOptions): Promise<RunResult> {
    const clock = this.clock;
    if (!Number.isFinite(until)) throw new RangeError(`run needs a finite 'until' (virtual ms), got ${until}`);
    if (until < clock.now()) throw new RangeError(`virtual time cannot move backwards: it is ${clock.now()} ms, run asked to go until ${until} ms`);
    if (this.#running) throw new Error('Kernel.run is already running; await the first run before starting another');
    this.#running = true;
    let steps = 0;
    const result = (reason: RunResult['reason']): RunResult => ({ steps, virtualMs: clock.now(), reason });
    try {
      await drainMicrotasks(); // work queued before the run (bus deliveries, started actors)
      if (stopWhen?.()) return result('stopWhen');
      for (;;) {
        const due = clock.next();
        if (due === undefined || due > until) {
          clock.advanceTo(until);
          return result('until');
        }
        if (steps >= this.maxSteps) throw new StepLimitError(this.maxSteps, clock.now(), until);
        clock.fireNext(until);
        steps++;
        await drainMicrotasks();
        if (stopWhen?.()) return result('stopWhen');
      }
    } finally {
      this.#running = false;
    }
  }
}
