// The inspector's page under `orchsim serve --ui`, in headless Chromium: the overview counts the
// nodes Ready, the actor list finds a node by search, its health machine's statechart shows its
// state, and stopping the node's agent from the page takes that machine to Unknown in the drawing.
// The page asks nothing of any address off the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { startServer, type Running } from '../../sim/cli/serve.ts';
import { launchChromium, localPage, outputDir } from '../helpers/browser.ts';
import { freePort } from '../helpers/real-time.ts';

// The functions given to the page run there; this project is type-checked without the DOM's types.

const out = outputDir('inspector-serve');
const dir = mkdtempSync(join(tmpdir(), 'orchsim-inspector-page-'));
let running: Running;
let browser: Browser;

test.before(async () => {
  // Ten times real time: the 40 s grace period before a silent node is Unknown takes 4 s.
  running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', join(dir, 'kubeconfig'), '--seed', '11', '--nodes', '3', '--speed', '10', '--ui'], 'serve', () => {});
  browser = await launchChromium();
});

test.after(async () => {
  await browser?.close();
  await running?.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('find a node, open its health machine, stop its agent from the page, and see the machine reach Unknown', async () => {
  const { page, offMachine, errors } = await localPage(browser);
  await page.goto(running.inspector!.url);
  assert.not.match(page.url(), /token=/, 'the token leaves the address once the cookie is set');
  await page.waitForSelector('[data-testid=time]:text("t = ")');
  assert.is(await page.isVisible('.timebar'), false, 'under serve, no control moves time');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid=headline]')?.textContent?.includes('3 of 3nodes Ready'), undefined,
    { timeout: 30_000 });
  await page.screenshot({ path: join(out, 'overview.png') });

  await page.click('nav a[href="#/actors"]');
  await page.fill('input[type=search]', 'node-1');
  await page.waitForFunction(() => [...(globalThis as any).document.querySelectorAll('.row')].map((r: any) => r.dataset.id).sort().join() === 'node-health/node-1,node/node-1');
  await page.click('.row[data-id="node-health/node-1"]');
  await page.waitForSelector('[data-testid=statechart] svg g.state.active[data-state="Ready.Heard"]');
  const states = await page.$$eval('[data-testid=statechart] g.state', (gs) => gs.map((g) => g.getAttribute('data-state')!).sort());
  assert.ok(['Ready', 'Ready.Heard', 'NotReady', 'Unknown', 'Unknown.Silent'].every((s) => states.includes(s)), states.join());
  const labels = await page.$$eval('[data-testid=statechart] .edge text', (ts) => ts.map((t) => t.textContent));
  // The delay is what is left of the 40 s grace when the state was entered, which on the wall
  // clock depends on when the last heartbeat came: some seconds in (0, 40].
  const grace = labels.map((l) => /^after graceLeftMs \((\d+(?:\.\d+)?) s\)$/.exec(l ?? '')?.[1]).find((v) => v !== undefined);
  assert.ok(grace !== undefined && Number(grace) > 0 && Number(grace) <= 40, `a delay labelled with its duration: ${labels.join(' | ')}`);
  await page.screenshot({ path: join(out, 'node-health-ready.png'), fullPage: true });

  await page.click('[data-testid=node-control] button');
  await page.waitForSelector('[data-testid=node-control] button:text("Start node-1\'s agent")');
  await page.waitForSelector('[data-testid=statechart][data-state^="Unknown"]', { timeout: 30_000 });
  assert.is(await page.$eval('[data-testid=statechart] g.state.active.atomic', (g) => g.getAttribute('data-state')), 'Unknown.Silent');
  assert.match(await page.textContent('[data-testid=actor-state]') ?? '', /^Unknown/);
  await page.screenshot({ path: join(out, 'node-health-unknown.png'), fullPage: true });

  assert.equal(offMachine, [], 'no request leaves the machine');
  assert.equal(errors, [], 'no error in the page');
});

test.run();
