// Time under `orchsim run --ui`: the run waits paused until told to move; it runs to a virtual
// time, or to its end, steps one event at a time, and pauses between any two events. Because a run
// is a pure function of its scenario and seed, going back is exact: the timeline starts the same
// run again and runs it to the time asked for, and every actor is as it was then.
//
// Checkpoints: a run the timeline leaves is kept, paused where it was (two at most, and none
// while the heap is over half full), and a move to a time at or after a kept run's continues
// from there instead of from 0:00. Going back to 6:50 from 10:00, then to 10:00 and to 6:50
// again, replays once: after that each move takes up the run paused at the other time.
//
// The page never stops the run: a request that cannot be done is an InspectError saying why.
import { getHeapStatistics } from 'node:v8';
import type { ScenarioRun } from '../run.ts';
import { InspectError } from './query.ts';

export interface TimeStatus {
  /** `virtual` under `orchsim run --ui`; `wall` under `serve`, where nothing moves time but the clock. */
  readonly mode: 'virtual' | 'wall';
  /** Virtual ms since the run's start. */
  readonly timeMs: number;
  readonly endMs?: number;
  readonly state: 'paused' | 'running' | 'ended';
  /** Times the run was started again to go back. */
  readonly replays?: number;
  /** Virtual ms of the runs kept paused, a move to a later time starts from the nearest (`run --ui`). */
  readonly checkpoints?: readonly number[];
}

/** What the inspector's time requests reach. */
export interface TimeControl {
  status(): TimeStatus;
  act(body: unknown): Promise<TimeStatus>;
}

/** `orchsim serve`: the wall clock's time, which no request moves. */
export function wallTime(now: () => number): TimeControl {
  return {
    status: () => ({ mode: 'wall', timeMs: now(), state: 'running' }),
    act: () => Promise.reject(new InspectError(400, 'under orchsim serve time is the wall clock\'s: nothing pauses, steps or rewinds it (orchsim run SCENARIO --ui does)')),
  };
}

const ACTIONS = ['pause', 'step', 'run'];
/** Runs kept paused besides the current one. */
const CHECKPOINTS = 2;

export class Timeline implements TimeControl {
  #run: ScenarioRun;
  /** Runs left behind, newest first, kept paused to start later moves from. */
  #kept: ScenarioRun[] = [];
  readonly #restart: () => Promise<ScenarioRun>;
  readonly #onEnd: (run: ScenarioRun) => Promise<void>;
  #state: TimeStatus['state'] = 'paused';
  /** The current move; the next waits for it. */
  #moving: Promise<void> = Promise.resolve();
  /** Asks the current move to stop between two events. */
  #halt = false;
  #replays = 0;
  #endSeen = false;

  /** `restart` starts the same run anew (to go back); `onEnd` is told, once, when the first run reaches its end. */
  constructor(run: ScenarioRun, restart: () => Promise<ScenarioRun>, onEnd: (run: ScenarioRun) => Promise<void>) {
    this.#run = run;
    this.#restart = restart;
    this.#onEnd = onEnd;
  }

  /** The run the inspector shows now. */
  get run(): ScenarioRun {
    return this.#run;
  }

  status(): TimeStatus {
    return { mode: 'virtual', timeMs: this.#run.virtualMs, endMs: this.#run.scenario.durationMs, state: this.#state, replays: this.#replays,
      checkpoints: this.#kept.map((r) => r.virtualMs).sort((a, b) => a - b) };
  }

  /** `{"action": "pause"}`, `{"action": "step"}`, or `{"action": "run", "to": <virtual ms>}` (`to` absent: the end). */
  async act(body: unknown): Promise<TimeStatus> {
    const { action, to } = (body ?? {}) as { action?: unknown; to?: unknown };
    if (typeof action !== 'string' || !ACTIONS.includes(action)) {
      throw new InspectError(400, `the body must be {"action": "pause" | "step" | "run", "to": <virtual ms, with run>}, got ${JSON.stringify(body)}`);
    }
    if (action === 'pause') {
      this.#halt = true;
      await this.#moving;
      return this.status();
    }
    if (action === 'step') {
      if (to !== undefined) throw new InspectError(400, 'step takes no "to": it fires the next event');
      return this.#move(async () => {
        let fired = 0;
        await this.#run.advance(this.#run.scenario.durationMs, () => fired++ >= 1 || this.#halt);
      }, true);
    }
    const endMs = this.#run.scenario.durationMs;
    if (to !== undefined && !(typeof to === 'number' && Number.isInteger(to) && to >= 0 && to <= endMs)) {
      throw new InspectError(400, `"to" must be a whole number of virtual ms from 0 to the run's end, ${endMs}, got ${JSON.stringify(to)}`);
    }
    const target = (to as number | undefined) ?? endMs;
    // Going forward waits for nothing but the run; to an end it answers at once, and the run goes on.
    const wait = to !== undefined;
    return this.#move(async () => {
      await this.#takeUp(target);
      await this.#run.advance(target, () => this.#halt);
    }, wait);
  }

  /** Stops whatever move is under way, then does `work`; answers when it is done, or at once unless `wait`. */
  async #move(work: () => Promise<void>, wait: boolean): Promise<TimeStatus> {
    this.#halt = true;
    this.#state = 'running';
    const before = this.#moving;
    const move = before.then(async () => {
      this.#halt = false;
      this.#state = 'running';
      try {
        await work();
      } finally {
        this.#state = this.#run.ended ? 'ended' : 'paused';
      }
      if (this.#run.ended && !this.#endSeen) {
        this.#endSeen = true;
        await this.#onEnd(this.#run);
      }
    });
    this.#moving = move.catch(() => {});
    if (wait) await move;
    else void move.catch(() => {});
    return this.status();
  }

  /**
   * Makes current the run best placed to reach `target`: the latest of the current run and the
   * kept ones that is not past it, or, when all are, the run started again from 0:00. The run
   * left is kept.
   */
  async #takeUp(target: number): Promise<void> {
    const current = this.#run;
    let best = current.virtualMs <= target ? current : undefined;
    for (const r of this.#kept) if (r.virtualMs <= target && (!best || r.virtualMs > best.virtualMs)) best = r;
    if (best === current) return;
    if (best) this.#kept.splice(this.#kept.indexOf(best), 1);
    else {
      best = await this.#restart();
      this.#replays++;
    }
    this.#run = best;
    this.#kept.unshift(current);
    while (this.#kept.length > CHECKPOINTS || (this.#kept.length > 0 && heapIsHalfFull())) this.#kept.pop()!.dispose();
  }

  /** Stops moving and gives up the runs. */
  async close(): Promise<void> {
    this.#halt = true;
    await this.#moving;
    this.#run.dispose();
    for (const r of this.#kept.splice(0)) r.dispose();
  }
}

function heapIsHalfFull(): boolean {
  const heap = getHeapStatistics();
  return heap.used_heap_size > heap.heap_size_limit / 2;
}
