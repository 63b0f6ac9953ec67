// report.html of a cluster that breathes (helpers/breathing-scenario.ts), as a user opens it in
// headless Chromium: usage beside requests per zone and per pool, the autoscaled Deployment's
// replicas and measured use, the node group's nodes and cost. Read from the DOM: each chart is
// there and drawn (a line in each legend entry's colour), its legend names what the report has,
// and the value each sample's tooltip gives is the report's own; no chart text overlaps or
// escapes, no table cell hides anything. Screenshots go to out/report-breathing-page/.
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { runScenario } from '../../sim/run.ts';
import { renderReportHtml } from '../../sim/report/html.ts';
import { formatCost, formatCount } from '../../sim/report/format.ts';
import type { Report } from '../../sim/report/types.ts';
import { launchChromium, localPage, outputDir } from '../helpers/browser.ts';
import { chartProblems, tableProblems } from '../helpers/page-problems.ts';
import { breathingScenario } from '../helpers/breathing-scenario.ts';

const out = outputDir('report-breathing-page');
const GIB = 1024 ** 3;
let report: Report;
let html = '';
let browser: Browser;

test.before(async () => {
  report = (await runScenario(breathingScenario())).report;
  html = renderReportHtml(report);
  browser = await launchChromium();
});

test.after(async () => {
  await browser?.close();
});

async function open(width = 1400): Promise<Page> {
  const { page, offMachine, errors } = await localPage(browser, { width, height: 900 });
  await page.setContent(html, { waitUntil: 'load', timeout: 30_000 });
  assert.equal(offMachine, [], 'no request for anything');
  assert.equal(errors, [], 'no error in the page');
  return page;
}

interface Drawn {
  legend: string[];
  /** Per legend entry, whether a line or dot of its colour is drawn. */
  drawn: boolean[];
  /** Each hover column's tooltip, its time line left out. */
  tooltips: string[][];
}

/** The chart titled `title` as the page shows it (undefined: no such chart). */
async function chart(page: Page, title: string): Promise<Drawn | undefined> {
  return page.evaluate((t) => {
    const doc = (globalThis as any).document;
    const svg = [...doc.querySelectorAll('svg.chart')].find((s: any) => s.getAttribute('aria-label') === t) as any;
    if (!svg) return undefined;
    const entries = [...svg.querySelectorAll('g.legend text')] as any[];
    const colours = new Set([...svg.querySelectorAll('polyline, circle')].map((p: any) => p.getAttribute('stroke') ?? p.getAttribute('fill')));
    return {
      legend: entries.map((e) => e.textContent),
      drawn: entries.map((e) => colours.has(e.previousElementSibling.getAttribute('stroke'))),
      tooltips: [...svg.querySelectorAll('rect.hover title')].map((x: any) => x.textContent.split('\n').slice(1)),
    };
  }, title);
}

/** The tooltips a chart of these lines must give: one per sample, each line's value as its axis formats it. */
const expectedTooltips = (lines: [string, readonly (number | null)[]][], format: (v: number) => string) =>
  report.series.tMs.map((_, i) => lines.map(([label, values]) => `${label}: ${format(values[i] ?? Number.NaN)}`));

for (const width of [1400, 1920]) {
  test(`at ${width} px the new charts' text is whole, inside its chart and clear of the others, and every table cell shows all it holds`, async () => {
    const page = await open(width);
    await page.screenshot({ path: join(out, `report-${width}.png`), fullPage: true });
    assert.equal(await page.evaluate(chartProblems), []);
    assert.equal(await page.evaluate(tableProblems), []);
    await page.close();
  });
}

test('usage beside requests: a CPU and a memory chart for each zone and each pool, drawn, with the report\'s value at every sample', async () => {
  const page = await open();
  const usage = report.series.usage!;
  const groups = [...Object.entries(usage.perZone).map(([z, s]) => [`zone ${z}`, s] as const), ...Object.entries(usage.perPool).map(([p, s]) => [`pool ${p}`, s] as const)];
  assert.is(groups.length, 4);
  for (const [what, s] of groups) {
    const cpu = await chart(page, `CPU in ${what} (cores)`);
    assert.ok(cpu, `a CPU chart for ${what}`);
    assert.equal(cpu!.legend, ['allocatable', 'requested', 'used']);
    assert.equal(cpu!.drawn, [true, true, true], `${what}: every line drawn`);
    assert.equal(cpu!.tooltips, expectedTooltips([['allocatable', s.cpuAllocatable], ['requested', s.cpuRequested], ['used', s.cpuUsed]], formatCount), what);
    const memory = await chart(page, `Memory in ${what}`);
    assert.ok(memory, `a memory chart for ${what}`);
    assert.equal(memory!.legend, ['allocatable', 'requested', 'used']);
    const gib = (v: readonly number[]) => v.map((b) => b / GIB);
    assert.equal(memory!.tooltips, expectedTooltips([['allocatable', gib(s.memoryAllocatable)], ['requested', gib(s.memoryRequested)], ['used', gib(s.memoryUsed)]],
      (v) => `${formatCount(v)} GiB`), what);
  }
  await page.close();
});

test('the autoscaled Deployment: its desired and Ready replicas under its maximum, and its measured CPU use against the target, as the report has them', async () => {
  const page = await open();
  const web = report.series.deployments!['default/web']!;
  const replicas = await chart(page, 'Replicas of default/web');
  assert.ok(replicas);
  assert.equal(replicas!.legend, ['desired', 'ready', 'max 10']);
  assert.equal(replicas!.drawn, [true, true, true]);
  const max = web.desired.map(() => 10);
  assert.equal(replicas!.tooltips, expectedTooltips([['desired', web.desired], ['ready', web.ready], ['max 10', max]], formatCount));
  const use = await chart(page, 'CPU use of default/web\'s pods (its autoscaler\'s measure)');
  assert.ok(use);
  assert.equal(use!.legend, ['average use / request', 'target 50%']);
  assert.equal(use!.drawn, [true, true]);
  const percent = (v: number) => (Number.isFinite(v) ? `${formatCount(v)}%` : '–');
  assert.equal(use!.tooltips, expectedTooltips([['average use / request', web.cpuUtilization], ['target 50%', web.cpuUtilization.map(() => 50)]], percent));
  assert.ok(use!.tooltips.some((t) => t[0] === 'average use / request: 90%'), 'the step is on the chart');
  await page.close();
});

test('the node group: its nodes over time and its cost so far, as the report has them', async () => {
  const page = await open();
  const g = report.series.nodeGroups!.ondemand!;
  const nodes = await chart(page, 'Nodes per node group');
  assert.ok(nodes);
  assert.equal(nodes!.legend, ['ondemand']);
  assert.equal(nodes!.tooltips, expectedTooltips([['ondemand', g.nodes]], formatCount));
  const cost = await chart(page, 'Node group cost so far');
  assert.ok(cost);
  assert.equal(cost!.legend, ['ondemand'], 'one group: no total line');
  assert.equal(cost!.drawn, [true]);
  assert.equal(cost!.tooltips, expectedTooltips([['ondemand', g.cost!]], formatCost));
  await page.close();
});

test.run();
