// The inspector of a process's actor system: its JSON API (query.ts) served over HTTP on
// 127.0.0.1 with a token (server.ts). See sim/inspector/README.md.
import type { ActorSystem } from '../../actors/system/actor-system.ts';
import { MACHINES } from '../../actors/system/options.ts';
import { Inspector } from './query.ts';
import type { NodeControls } from './controls.ts';
import { wallTime, type TimeControl } from './timeline.ts';
import { serveInspector, type InspectorServer } from './server.ts';
import { Sequences } from './sequence.ts';

export { Inspector, InspectError } from './query.ts';
export type { InspectorServer } from './server.ts';
export type { NodeControls } from './controls.ts';
export { Timeline, type TimeControl, type TimeStatus } from './timeline.ts';
export { Sequences } from './sequence.ts';

/** Records each actor keeps for its page while the inspector is on. */
export const RECORDS_PER_ACTOR = 16;

export interface InspectorOptions {
  /** 0 or absent: a free port. */
  port?: number;
  /** The simulated nodes whose agents may be stopped and started (`serve`), once they run. */
  controls?: () => NodeControls | undefined;
  /** Time: the run's timeline under `run --ui`; the wall clock's otherwise. */
  time?: TimeControl;
  /** The sequence view's records, when the caller watches systems as they begin (`run --ui`); otherwise the current system is watched from now. */
  sequences?: Sequences;
}

/** Serves the inspector of `system()` (the system to show now) on 127.0.0.1. */
export function startInspector(system: () => ActorSystem, options: InspectorOptions = {}): Promise<InspectorServer> {
  const time = options.time ?? wallTime(() => system().elapsedMs());
  const sequences = options.sequences ?? new Sequences();
  sequences.watch(system());
  return serveInspector({ inspector: new Inspector(system, MACHINES), system, sequences, controls: options.controls ?? (() => undefined), time }, options.port ?? 0);
}
