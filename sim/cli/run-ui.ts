// `orchsim run SCENARIO --ui`: the run under the inspector's timeline. It waits paused at 0:00;
// the page or POST /inspect/api/time moves it; when it first reaches its end, its report is
// written and printed as a plain run's would be, and the inspector stays up until Ctrl-C.
import { RECORDS_PER_ACTOR, Sequences, startInspector, Timeline, type InspectorServer } from '../inspector/index.ts';
import { ScenarioRun, type RunOptions, type RunOutcome } from '../run.ts';
import type { Scenario } from '../scenario/types.ts';

export interface UiRunOptions extends Pick<RunOptions, 'seed' | 'explain' | 'inspectLog' | 'inspect'> {
  /** The inspector's port; 0 or absent: a free one. */
  port?: number;
}

export interface UiRun {
  readonly inspector: InspectorServer;
  readonly timeline: Timeline;
  /** 1 if the run reached its end and a checker found a violation, else 0. */
  exitCode(): number;
  close(): Promise<void>;
}

/** Starts the run paused and the inspector over it; `onEnd` gets the outcome the first time the run reaches its end. */
export async function startUiRun(scenario: Scenario, o: UiRunOptions, onEnd: (outcome: RunOutcome) => Promise<void>,
  log: (line: string) => void): Promise<UiRun> {
  const sequences = new Sequences();
  const start = (first: boolean) => ScenarioRun.start(scenario, {
    onSystem: (system) => sequences.watch(system),
    ...(o.seed !== undefined ? { seed: o.seed } : {}), ...(o.explain ? { explain: o.explain } : {}), ...(o.inspect ? { inspect: o.inspect } : {}),
    // The log is the first run's: a replay to go back would only write it again.
    ...(first && o.inspectLog ? { inspectLog: o.inspectLog } : {}),
    recordsPerActor: RECORDS_PER_ACTOR,
  });
  let failed = false;
  const timeline = new Timeline(await start(true), () => start(false), async (run) => {
    const outcome = await run.conclude();
    failed = outcome.checks.some((c) => c.violations > 0);
    await onEnd(outcome);
  });
  let inspector: InspectorServer;
  try {
    inspector = await startInspector(() => timeline.run.cluster.system, { ...(o.port !== undefined ? { port: o.port } : {}), time: timeline, sequences });
  } catch (e) {
    await timeline.close();
    throw e;
  }
  log(`inspector at ${inspector.url}`);
  log('the run waits paused at 0:00: press Run in the page, or POST /inspect/api/time {"action": "run"}; Ctrl-C ends it');
  return {
    inspector, timeline,
    exitCode: () => (failed ? 1 : 0),
    async close() {
      await inspector.close();
      await timeline.close();
    },
  };
}
