// report.html, plan.html and compare.html as a user opens them, in headless Chromium 1400 and 1920
// px wide: the report of a real zone-outage run, the page of a small plan and of a plan over a
// node group's max (its targets against cost per day), and the comparison of two seeds of the
// outage. Read from the DOM, not the markup:
// no chart text (axis, legend or fault label) reaches past its chart or overlaps another drawn the
// same way, no axis or legend names a thing twice, no table cell is narrower than its longest word
// or hides part of its content, and the page never scrolls sideways. The zone-state chart names
// each state once, the taint rate fills a scale of its own, and every time chart labels the
// partition beside its line. Full-page screenshots go to out/report-pages/.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { runScenario } from '../../sim/run.ts';
import { loadScenario } from '../../sim/scenario/load.ts';
import { writeReport } from '../../sim/report/write.ts';
import { launchChromium, localPage, outputDir } from '../helpers/browser.ts';
import { chartProblems, tableProblems } from '../helpers/page-problems.ts';
import { spareZone } from '../helpers/spare-zone.ts';
import { oneGroup } from '../helpers/group-plan.ts';
import { compareReports } from '../../sim/report/compare.ts';
import { renderComparisonHtml } from '../../sim/report/compare-html.ts';

// The functions given to the page run there; this project is type-checked without the DOM's types.

const run = promisify(execFile);
const CLI = fileURLToPath(new URL('../../sim/cli/orchsim.js', import.meta.url));
const ZONE_OUTAGE = fileURLToPath(new URL('../../sim/scenarios/zone-outage.yaml', import.meta.url));
const WIDTHS = [1400, 1920];

// With every target set, so that the candidate table has all its columns.
const PLAN_SCENARIO = spareZone('{ pendingAtEnd: 0, readyAtEnd: true, schedulingLatencyP99: 1m, podStartupP99: 1m, cpuUtilisationMax: 1 }');

const out = outputDir('report-pages');
const dir = mkdtempSync(join(tmpdir(), 'orchsim-report-pages-'));
const html = { report: '', plan: '', groupPlan: '', compare: '' };
let browser: Browser;

test.before(async () => {
  writeFileSync(join(dir, 'spare-zone.yaml'), PLAN_SCENARIO);
  // The plan runs in a process of its own while the zone outage runs in this one.
  writeFileSync(join(dir, 'groups.yaml'), oneGroup('{ pendingAtEnd: 0, podStartupP99: 2m }'));
  const plan = Promise.all([run('node', [CLI, 'plan', join(dir, 'spare-zone.yaml'), '--workers', '1', '--out', dir]),
    run('node', [CLI, 'plan', join(dir, 'groups.yaml'), '--workers', '1', '--out', join(dir, 'groups')])]);
  const { report } = await runScenario(await loadScenario(ZONE_OUTAGE));
  html.report = readFileSync((await writeReport(dir, report)).html, 'utf8');
  // Another seed of the same outage, to compare with: the same shape, other nodes and times.
  const other = await runScenario(await loadScenario(ZONE_OUTAGE), { seed: 2 });
  html.compare = renderComparisonHtml(compareReports(report, other.report, { a: 'zone-outage seed 1', b: 'zone-outage seed 2' }));
  await plan;
  html.plan = readFileSync(join(dir, 'plan.html'), 'utf8');
  html.groupPlan = readFileSync(join(dir, 'groups', 'plan.html'), 'utf8');
  browser = await launchChromium();
});

test.after(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The page in a window `width` px wide; it asks nothing of any address (it is self-contained). */
async function open(name: keyof typeof html, width: number): Promise<Page> {
  const { page, offMachine, errors } = await localPage(browser, { width, height: 900 });
  await page.setContent(html[name], { waitUntil: 'load', timeout: 30_000 });
  assert.equal(offMachine, [], 'no request for anything');
  assert.equal(errors, [], 'no error in the page');
  return page;
}

for (const width of WIDTHS) {
  test(`report.html at ${width} px: every chart's text is whole, inside its chart and clear of the others; every table cell shows all it holds`, async () => {
    const page = await open('report', width);
    await page.screenshot({ path: join(out, `report-${width}.png`), fullPage: true });
    assert.equal(await page.evaluate(chartProblems), []);
    assert.equal(await page.evaluate(tableProblems), []);
    await page.close();
  });

  test(`compare.html at ${width} px: the rows that differ are highlighted, and every cell shows all it holds`, async () => {
    const page = await open('compare', width);
    await page.screenshot({ path: join(out, `compare-${width}.png`), fullPage: true });
    const changed = await page.$$eval('tr.changed', (rows) => rows.map((r: any) => (globalThis as any).getComputedStyle(r.cells[1]).backgroundColor));
    assert.ok(changed.length >= 3, `${changed.length} rows differ`);
    assert.ok(changed.every((c) => c !== 'rgba(0, 0, 0, 0)' && c !== 'rgb(255, 255, 255)'), `highlighted: ${[...new Set(changed)].join(', ')}`);
    assert.equal(await page.evaluate(tableProblems), []);
    await page.close();
  });

  test(`plan.html at ${width} px: every candidate cell is as wide as its longest word and hides nothing; the charts' text is whole`, async () => {
    const page = await open('plan', width);
    await page.screenshot({ path: join(out, `plan-${width}.png`), fullPage: true });
    assert.ok(await page.$$eval('#candidates tbody tr', (rows) => rows.length) >= 2, 'the plan ran candidates');
    assert.equal(await page.evaluate(tableProblems), []);
    assert.equal(await page.evaluate(chartProblems), []);
    await page.close();
  });

  test(`plan.html of node groups at ${width} px: each target against cost per day, a dot per candidate, whole text and cells`, async () => {
    const page = await open('groupPlan', width);
    await page.screenshot({ path: join(out, `plan-groups-${width}.png`), fullPage: true });
    const charts = await page.$$eval('#cost svg.chart', (svgs) => svgs.map((svg: any) => ({
      title: svg.getAttribute('aria-label'),
      dots: svg.querySelectorAll('circle').length,
      answer: [...svg.querySelectorAll('text.fault-label')].map((t: any) => t.textContent),
    })));
    const candidates = await page.$$eval('#candidates tbody tr', (rows) => rows.length);
    assert.equal(charts.map((c) => c.title), ['Pods pending at the end against cost per day', 'p99 pod startup against cost per day']);
    for (const c of charts) {
      assert.is(c.dots, candidates, `${c.title}: a dot per candidate`);
      assert.equal(c.answer, ['the answer']);
    }
    assert.equal(await page.evaluate(tableProblems), []);
    assert.equal(await page.evaluate(chartProblems), []);
    await page.close();
  });
}

test('the zone-state chart names PartialDisruption and FullDisruption once each, as whole labels', async () => {
  const page = await open('report', 1400);
  const texts = await page.$$eval('svg.chart[aria-label^="Zone states"] text', (ts) => ts.map((t) => t.textContent));
  for (const state of ['Normal', 'PartialDisruption', 'FullDisruption'])
    assert.is(texts.filter((t) => t === state).length, 1, `${state} in ${texts.join(' | ')}`);
  assert.ok(!texts.some((t) => /isruption/.test(t ?? '') && !['PartialDisruption', 'FullDisruption'].includes(t!)), texts.join(' | '));
  await page.close();
});

test('the taint rate is drawn on a scale of its own, where its line has a visible height', async () => {
  const page = await open('report', 1400);
  const found = await page.evaluate(() => {
    const doc = (globalThis as any).document;
    for (const svg of doc.querySelectorAll('svg.chart') as any[]) {
      const legend = [...svg.querySelectorAll('g.legend text')].map((t: any) => t.textContent);
      if (!legend.includes('taints/s')) continue;
      const swatch = [...svg.querySelectorAll('g.legend text')].find((t: any) => t.textContent === 'taints/s').previousElementSibling;
      const lines = [...svg.querySelectorAll('polyline')].filter((p: any) => p.getAttribute('stroke') === swatch.getAttribute('stroke'));
      const boxes = lines.map((p: any) => p.getBoundingClientRect());
      const top = Math.min(...boxes.map((b: any) => b.top));
      const bottom = Math.max(...boxes.map((b: any) => b.bottom));
      return { legend, lineHeight: bottom - top, chartHeight: svg.getBoundingClientRect().height };
    }
    return undefined;
  });
  assert.ok(found, 'a chart with the taint rate');
  assert.ok(found!.lineHeight >= 0.25 * found!.chartHeight, `the line spans ${found!.lineHeight.toFixed(1)} px of a ${found!.chartHeight.toFixed(1)} px chart`);
  assert.not.ok(found!.legend.includes('evictions/s'), `the taint rate shares its scale with ${found!.legend.join(', ')}`);
  await page.close();
});

test('every chart over virtual time labels the partition beside its line, whole', async () => {
  const page = await open('report', 1400);
  const charts = await page.$$eval('#time svg.chart, #zones svg.chart, #control-plane svg.chart', (svgs) => svgs.map((svg: any) => {
    const line = svg.querySelector('g.marker line[stroke-dasharray]');
    const x = line?.getBoundingClientRect().left;
    const labels = [...svg.querySelectorAll('text')].filter((t: any) => t.textContent.startsWith('zonePartition'))
      .map((t: any) => ({ text: t.textContent, left: t.getBoundingClientRect().left, right: t.getBoundingClientRect().right }));
    return { chart: svg.getAttribute('aria-label'), x, labels };
  }));
  assert.ok(charts.length >= 9, `${charts.length} time charts`);
  for (const c of charts) {
    assert.is(c.labels.length, 1, `${c.chart}: ${JSON.stringify(c.labels)}`);
    const label = c.labels[0]!;
    assert.is(label.text, 'zonePartition zone-b', c.chart);
    assert.ok(c.x !== undefined && Math.min(Math.abs(label.left - c.x), Math.abs(label.right - c.x)) < 8, `${c.chart}: the label ${label.left}-${label.right} beside the line at ${c.x}`);
  }
  await page.close();
});

test.run();
