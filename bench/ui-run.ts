// What `--ui` costs a run: runs SCENARIO as `orchsim run SCENARIO --ui` would, with the inspector
// up, a page's worth of requests against it (the summary every second, the time every half
// second), and the run taken to its end; prints the wall time. Time it against a plain
// `orchsim run` with the whole-process timer, alternating (bench/README.md says how).
//   node --import ./sim/cli/register.js bench/ui-run.ts SCENARIO
import { startUiRun } from '../sim/cli/run-ui.ts';
import { boundHeapGrowth } from '../sim/heap-growth.ts';
import { loadScenario } from '../sim/scenario/load.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: bench/ui-run.ts SCENARIO');
const scenario = await loadScenario(file);
boundHeapGrowth();
const started = performance.now();
const ui = await startUiRun(scenario, {}, async () => {}, () => {});
const origin = `http://127.0.0.1:${ui.inspector.port}/inspect/api/`;
const headers = { Authorization: `Bearer ${ui.inspector.token}` };
let polling = true;
const poll = async (path: string, everyMs: number) => {
  while (polling) {
    await (await fetch(origin + path, { headers })).arrayBuffer();
    await new Promise((r) => setTimeout(r, everyMs));
  }
};
const pollers = [poll('summary', 1_000), poll('time', 500)];
await ui.timeline.act({ action: 'run', to: scenario.durationMs });
polling = false;
await Promise.all(pollers);
await ui.close();
console.log(`${scenario.name}: ${((performance.now() - started) / 1000).toFixed(1)} s under the inspector`);
