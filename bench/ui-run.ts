// What `--ui` costs a run: runs SCENARIO as `orchsim run SCENARIO --ui` would, with the inspector
// up, an open overview's live updates (a WebSocket watching the summary, sent every 250 ms while
// it changes, and the time), and the run taken to its end; prints the wall time. Time it against a plain
// `orchsim run` with the whole-process timer, alternating (bench/README.md says how).
//   node --import ./sim/cli/register.js bench/ui-run.ts SCENARIO
import { startUiRun } from '../sim/cli/run-ui.ts';
import { boundHeapGrowth } from '../sim/heap-growth.ts';
import { loadScenario } from '../sim/scenario/load.ts';
import { WebSocket } from 'ws';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/ui-run.ts SCENARIO');
const scenario = await loadScenario(file);
boundHeapGrowth();
const started = performance.now();
const ui = await startUiRun(scenario, {}, async () => {}, () => {});
const page = new WebSocket(`ws://127.0.0.1:${ui.inspector.port}/inspect/ws`, { headers: { Authorization: `Bearer ${ui.inspector.token}` } });
let updates = 0;
page.on('message', () => updates++);
await new Promise((resolve) => page.once('open', resolve));
page.send(JSON.stringify({ watch: 'summary' }));
await ui.timeline.act({ action: 'run', to: scenario.durationMs });
page.close();
await ui.close();
console.error(`${updates} updates sent to the page`);
console.log(`${scenario.name}: ${((performance.now() - started) / 1000).toFixed(1)} s under the inspector`);
