// The inspector's page at scale, in headless Chromium (Debian's, through playwright-core), over
// `orchsim serve --nodes N --ui` (nodes only), or over `orchsim run SCENARIO --ui` taken to a
// virtual time (nodes and their pods). Times, from the navigation's start, the overview until its
// headline figures show, the actor list until every actor is in it, a scroll through the whole list
// (the 95th percentile of its frames' times), and one node's health machine until its statechart is
// drawn with its state; each three times, medians printed.
//   node --import ./sim/cli/register.js bench/inspector-page.ts serve [NODES]
//   node --import ./sim/cli/register.js bench/inspector-page.ts run SCENARIO VIRTUAL_MS
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUiRun } from '../sim/cli/run-ui.ts';
import { startServer } from '../sim/cli/serve.ts';
import { loadScenario } from '../sim/scenario/load.ts';
import { launchChromium } from '../tests/helpers/browser.ts';
import { freePort } from '../tests/helpers/real-time.ts';

const [mode = 'serve', ...rest] = process.argv.slice(2);
const TRIES = 3;
const dir = mkdtempSync(join(tmpdir(), 'orchsim-inspector-bench-'));
const startMs = performance.now();
let target: { url: string; health: (i: number) => string; stop(): Promise<void> };
if (mode === 'run') {
  const [file, to] = rest;
  const ui = await startUiRun(await loadScenario(file!), {}, async () => {}, () => {});
  await ui.timeline.act({ action: 'run', to: Number(to) });
  const names = ui.timeline.run.cluster.nodes.map((n) => n.name);
  target = { url: ui.inspector.url, health: (i) => names[names.length - 1 - i]!, stop: () => ui.close() };
  console.log(`${file} at ${Number(to) / 1000} virtual s after ${((performance.now() - startMs) / 1000).toFixed(1)} s`);
} else {
  const nodes = Number(rest[0] ?? 5_000);
  const running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', join(dir, 'kubeconfig'), '--seed', '5', '--nodes', String(nodes), '--ui'], 'serve', () => {});
  target = { url: running.inspector!.url, health: (i) => `node-${nodes - 1 - i}`, stop: () => running.stop() };
  console.log(`${nodes} nodes up in ${((performance.now() - startMs) / 1000).toFixed(1)} s`);
}
const browser = await launchChromium();
const origin = new URL(target.url).origin;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: [string, number[]][] = [['overview', []], ['actor list, every actor', []], ['scroll, p95 frame', []], ['one actor', []]];
let actors = 0;
try {
  for (let i = 0; i < TRIES; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    let t = performance.now();
    await page.goto(target.url);
    await page.waitForSelector('[data-testid=headline] .card');
    rows[0]![1].push(performance.now() - t);

    t = performance.now();
    await page.goto(`${origin}/#/actors`);
    await page.waitForFunction(() => / actors$/.test((globalThis as any).document.querySelector('.filters .muted')?.textContent ?? ''), undefined, { timeout: 120_000 });
    rows[1]![1].push(performance.now() - t);
    actors = Number((await page.textContent('.filters .muted'))!.replace(/\D/g, ''));
    // Scrolls the whole list in 120 frames, each a jump of a 120th of it, and keeps each frame's time.
    const frames = await page.evaluate(() => new Promise<number[]>((resolve) => {
      const g = globalThis as any;
      const list = g.document.querySelector('[data-testid=actor-list]');
      const stepPx = (list.scrollHeight - list.clientHeight) / 120;
      const times: number[] = [];
      let last = g.performance.now();
      const frame = (n: number) => g.requestAnimationFrame(() => {
        const now = g.performance.now();
        if (n > 0) times.push(now - last);
        last = now;
        if (n === 120) return resolve(times);
        list.scrollTop = stepPx * (n + 1);
        frame(n + 1);
      });
      frame(0);
    }));
    rows[2]![1].push([...frames].sort((a, b) => a - b)[Math.floor(frames.length * 0.95)]!);

    t = performance.now();
    await page.goto(`${origin}/#/actor/node-health%2F${target.health(i)}`);
    await page.waitForSelector('[data-testid=statechart] g.state.active.atomic');
    rows[3]![1].push(performance.now() - t);
    await page.close();
  }
} finally {
  await browser.close();
  await target.stop();
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${actors.toLocaleString('en')} actors; ms from navigation, median of ${TRIES} (min to max):`);
for (const [what, ms] of rows) console.log(`  ${what.padEnd(26)} ${median(ms).toFixed(0).padStart(6)}  (${Math.min(...ms).toFixed(0)} to ${Math.max(...ms).toFixed(0)})`);
process.exit(0);
