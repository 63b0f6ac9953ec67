// The inspector of a process's actor system: its JSON API (query.ts) served over HTTP on
// 127.0.0.1 with a token (server.ts). See sim/inspector/README.md.
import type { ActorSystem } from '../../actors/system/actor-system.ts';
import { MACHINES } from '../../actors/system/options.ts';
import { Inspector } from './query.ts';
import type { NodeControls } from './controls.ts';
import { serveInspector, type InspectorServer } from './server.ts';

export { Inspector, InspectError } from './query.ts';
export type { InspectorServer } from './server.ts';
export type { NodeControls } from './controls.ts';

/** Records each actor keeps for its page while the inspector is on. */
export const RECORDS_PER_ACTOR = 16;

/** Serves the inspector of `system` on 127.0.0.1:`port` (0: a free port); `controls()` gives the simulated nodes once they run. */
export function startInspector(system: ActorSystem, port = 0, controls: () => NodeControls | undefined = () => undefined): Promise<InspectorServer> {
  return serveInspector(new Inspector(system, MACHINES), port, controls);
}
