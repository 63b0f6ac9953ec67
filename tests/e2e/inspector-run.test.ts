// The inspector under `orchsim run sim/scenarios/quickstart.yaml --ui`, in headless Chromium: the
// run waits at 0:00; taken to 6:50 the crashed node's health machine is Unknown, at 10:00 Ready
// again, and taken back to 6:50 (the run replayed to it) Unknown once more; going between the two
// times again takes up the runs kept there. The sequence view follows the node and its health
// machine, through the replay. The page asks nothing of any address off the machine.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startUiRun, type UiRun } from '../../sim/cli/run-ui.ts';
import { loadScenario } from '../../sim/scenario/load.ts';
import { launchChromium, localPage, outputDir } from '../helpers/browser.ts';

const out = outputDir('inspector-run');
let ui: UiRun;
let browser: Browser;

test.before(async () => {
  ui = await startUiRun(await loadScenario('sim/scenarios/quickstart.yaml'), {}, async () => {}, () => {});
  browser = await launchChromium();
});

test.after(async () => {
  await browser?.close();
  await ui?.close();
});

/** Types a time into the header's "go to" box and waits for the run to be there, paused. */
async function goTo(page: Page, text: string, shown: string): Promise<void> {
  await page.fill('input[aria-label="go to virtual time"]', text);
  await page.click('.timebar button:text("Go")');
  await page.waitForSelector(`[data-testid=time]:text("${shown} of 20m00s")`, { timeout: 120_000 });
  assert.is(await page.textContent('[data-testid=time-state]'), 'paused');
}

test('to 6:50, the crashed node is Unknown; to 10:00, Ready; back to 6:50, Unknown again', async () => {
  const { page, offMachine, errors } = await localPage(browser);
  await page.goto(ui.inspector.url);
  await page.waitForSelector('[data-testid=time]:text("0s of 20m00s")');
  assert.is(await page.textContent('[data-testid=time-state]'), 'paused', 'the run waits at its start');
  await page.goto(`${new URL(ui.inspector.url).origin}/#/actor/node-health%2Fgeneral-16`);

  await goTo(page, '6:50', '6m50s');
  await page.waitForSelector('[data-testid=statechart][data-state="Unknown.Silent"]');
  assert.is(await page.$eval('[data-testid=statechart] g.state.active.atomic', (g) => g.getAttribute('data-state')), 'Unknown.Silent');
  await page.screenshot({ path: join(out, '6m50-unknown.png'), fullPage: true });

  // Follow the health machine and the node in the sequence view.
  await page.click('[data-testid=follow]');
  await page.waitForSelector('[data-testid=sequence-diagram]');
  await page.fill('input[aria-label="add an actor"]', 'node/general-16');
  await page.press('input[aria-label="add an actor"]', 'Enter');
  await page.waitForSelector('[data-testid=sequence-diagram] [data-lane="node/general-16"]');
  // The controller's pass took the silent node's Ready away: an arrow from the controller's lane.
  await page.waitForSelector('g.rec.transition[data-id="node-health/general-16"][data-event=PASS][data-sender="controller/node-lifecycle-controller"]');
  assert.ok(await page.$('[data-testid=sequence-diagram] [data-lane="controller/node-lifecycle-controller"]'), 'the sender has a lane');
  await page.goto(`${new URL(ui.inspector.url).origin}/#/actor/node-health%2Fgeneral-16`);

  await goTo(page, '10:00', '10m00s');
  await page.waitForSelector('[data-testid=statechart][data-state^="Ready."]');
  await page.screenshot({ path: join(out, '10m00-ready.png'), fullPage: true });

  await goTo(page, '6:50', '6m50s');
  await page.waitForSelector('[data-testid=statechart][data-state="Unknown.Silent"]');
  assert.is(ui.timeline.status().replays, 1, 'going back replayed the run once');
  await page.screenshot({ path: join(out, '6m50-again.png'), fullPage: true });

  // Once there and back again, each time is a kept run away: no more replays.
  await goTo(page, '10:00', '10m00s');
  await page.waitForSelector('[data-testid=statechart][data-state^="Ready."]');
  await goTo(page, '6:50', '6m50s');
  await page.waitForSelector('[data-testid=statechart][data-state="Unknown.Silent"]');
  assert.is(ui.timeline.status().replays, 1, 'back and forth between two times took up the kept runs');
  assert.equal(ui.timeline.status().checkpoints, [600_000]);

  // The replayed run was followed from its start: the node's lease renewals before its crash at 6:00 are there.
  await page.click('nav a[href="#/sequence"]');
  await page.waitForSelector('g.rec.send[data-id="node/general-16"]');
  const renewals = await page.$$eval('g.rec.send[data-id="node/general-16"]', (gs) => gs.map((g) => Number(g.getAttribute('data-t'))));
  assert.ok(renewals.some((t) => t < 360_000), `lease renewals before the crash: ${renewals.slice(0, 5)}`);
  await page.screenshot({ path: join(out, 'sequence.png') });

  assert.equal(offMachine, [], 'no request leaves the machine');
  assert.equal(errors, [], 'no error in the page');
});

test('the time API: a bad action, a time past the end, a step', async () => {
  const post = async (body: unknown) => {
    const r = await fetch(`${new URL(ui.inspector.url).origin}/inspect/api/time`, {
      method: 'POST', headers: { Authorization: `Bearer ${ui.inspector.token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: r.status, body: await r.json() as { message: string; timeMs: number; state: string } };
  };
  assert.match((await post({ action: 'jump' })).body.message, /must be \{"action": "pause" \| "step" \| "run"/);
  const past = await post({ action: 'run', to: 1_200_001 });
  assert.is(past.status, 400);
  assert.match(past.body.message, /from 0 to the run's end, 1200000/);
  const before = ui.timeline.status().timeMs;
  const stepped = await post({ action: 'step' });
  assert.is(stepped.status, 200);
  assert.ok(stepped.body.timeMs >= before && stepped.body.state === 'paused', JSON.stringify(stepped.body));
});

test.run();
