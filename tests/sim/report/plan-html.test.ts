import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Candidate, PlanResult, RunFigures } from '../../../sim/plan.ts';
import { PALETTE } from '../../../sim/report/charts.ts';
import { CSS } from '../../../sim/report/page.ts';
import { renderPlanHtml } from '../../../sim/report/plan-html.ts';

const figures = (pendingAtEnd: number): RunFigures =>
  ({ seed: 1, pendingAtEnd, readyAtEnd: pendingAtEnd === 0, schedulingLatencyP99Ms: 0, podStartupP99Ms: 2400, cpuUtilisationMax: 0.9, violations: [] });

function candidate(nodes: number, pendingAtEnd: number): Candidate {
  const pass = pendingAtEnd === 0;
  return { counts: { pool: nodes }, totalNodes: nodes, runs: [figures(pendingAtEnd)], missed: pass ? [] : ['pendingAtEnd', 'readyAtEnd'],
    missedOn: pass ? [] : ['zone-a', 'zone-b'], pass };
}

/** Three candidates of 11 to 13 nodes against every target, the smallest missing two. */
function plan(): PlanResult {
  const candidates = [candidate(11, 4), candidate(12, 0), candidate(13, 0)];
  return { scenario: 'spare-zone', targets: { pendingAtEnd: 0, readyAtEnd: true, schedulingLatencyP99Ms: 60_000, podStartupP99Ms: 60_000, cpuUtilisationMax: 1 },
    seeds: [1], members: ['zone-a', 'zone-b', 'zone-c'], minimise: 'nodes', maxima: [], candidates, frontier: [candidates[1]!], answer: candidates[1]! };
}

test('the charts of figures against cluster size tick whole nodes only', () => {
  const html = renderPlanHtml(plan());
  assert.is((html.match(/<svg/g) ?? []).length, 5);
  assert.not.match(html, /\d\.\d+ nodes</);
  assert.is((html.match(/>12 nodes<\/text>/g) ?? []).length, 5);
});

test('table cells wrap between words, never inside one; numeric headings wrap too; a table too wide scrolls in its own box', () => {
  const rule = (selector: string) => new RegExp(`(^|\\})${selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\{([^}]*)\\}`, 'm').exec(CSS)?.[2] ?? '';
  assert.match(rule('th,td'), /overflow-wrap:break-word/);
  assert.not.match(rule('.num'), /nowrap/, 'a long numeric heading may wrap');
  assert.match(rule('td.num'), /white-space:nowrap/);
  assert.match(rule('.table-scroll'), /overflow-x:auto/);
  assert.match(renderPlanHtml(plan()), /<div class="table-scroll"><table><thead>/);
});

test('a pool stays with its count, and a bound with its ≤, when a cell wraps', () => {
  const html = renderPlanHtml(plan());
  assert.ok(html.includes('<td>pool\u00a011</td>'));
  assert.ok(html.includes('p99 pod startup (≤\u00a01m)</th>'));
  assert.ok(html.includes('<td>missed pendingAtEnd, readyAtEnd losing zone-a, zone-b</td>'), 'the result as before');
});


test('two pools chosen on their own: the frontier of mixes with their cost, the cheapest marked as the answer', () => {
  const mix = (small: number, big: number, costPerDay: number, pass = true): Candidate =>
    ({ counts: { small, big }, totalNodes: small + big, costPerDay, runs: [figures(pass ? 0 : 2)], missed: pass ? [] : ['pendingAtEnd'], missedOn: [], pass });
  const candidates = [mix(1, 1, 144, false), mix(1, 2, 264), mix(3, 1, 192, false), mix(4, 1, 216)];
  const r: PlanResult = { scenario: 'two-pools', targets: { pendingAtEnd: 0 }, seeds: [1], members: [], minimise: 'cost', maxima: [],
    candidates, frontier: [candidates[1]!, candidates[3]!], answer: candidates[3]! };
  const html = renderPlanHtml(r);
  assert.ok(html.includes('The cheapest cluster that met every target on every seed: <b>5 nodes</b> (small\u00a04, big\u00a01, 216.00\u00a0a\u00a0day).'));
  const frontier = html.slice(html.indexOf('<section id="frontier">'), html.indexOf('</section>', html.indexOf('<section id="frontier">')));
  assert.equal([...frontier.matchAll(/<tr><td class="num">(\d+)<\/td><td>([^<]*)<\/td><td class="num">([\d.]+)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) => m.slice(1)),
    [['3', 'small\u00a01, big\u00a02', '264.00', ''], ['5', 'small\u00a04, big\u00a01', '216.00', 'the answer']]);
  assert.ok(html.includes('worst of 1 seed<'), 'one seed, not "1 seeds"');
  assert.not.ok(renderPlanHtml(plan()).includes('id="frontier"'), 'pools grown together: no frontier to show');
});

test('node groups: their max is named, and each target is charted against cost per day, a dot per candidate, the answer marked', () => {
  const max = (g: number, costPerDay: number, pendingAtEnd: number): Candidate =>
    ({ counts: { g }, totalNodes: g, costPerDay, runs: [figures(pendingAtEnd)], missed: pendingAtEnd ? ['pendingAtEnd'] : [], missedOn: [], pass: pendingAtEnd === 0 });
  const candidates = [max(2, 19.4, 4), max(3, 26.8, 0), max(6, 26.8, 0)];
  const r: PlanResult = { scenario: 'one-group', targets: { pendingAtEnd: 0, podStartupP99Ms: 60_000 }, seeds: [1], members: [], minimise: 'cost', maxima: ['g'],
    candidates, frontier: [candidates[1]!], answer: candidates[1]! };
  const html = renderPlanHtml(r);
  assert.ok(html.includes('The cheapest cluster that met every target on every seed: <b>3 nodes</b> (g\u00a0max\u00a03, 26.80\u00a0a\u00a0day).'));
  assert.ok(html.includes('<td>g\u00a0max\u00a02</td><td class="num">19.40</td>'), 'each candidate with its cost a day');
  const cost = html.slice(html.indexOf('<section id="cost">'), html.indexOf('</section>', html.indexOf('<section id="cost">')));
  const charts = cost.split('<svg').slice(1);
  assert.equal(charts.map((c) => /aria-label="([^"]*)"/.exec(c)?.[1]), ['Pods pending at the end against cost per day', 'p99 pod startup against cost per day']);
  for (const chart of charts) {
    const dots = (colour: string) => (chart.match(new RegExp(`<circle [^>]*fill="${colour}"`, 'g')) ?? []).length;
    assert.is(dots(PALETTE[0]!), 2, 'a dot for each candidate that passed');
    assert.is(dots(PALETTE[1]!), 1, 'and for the one that missed');
    assert.is((chart.match(/<polyline [^>]*stroke="#e15759"/g) ?? []).length, 1, 'the target across');
    assert.match(chart, /<text class="fault-label"[^>]*>the answer<\/text>/);
    assert.match(chart, />26\.00<\/text>/, 'the cost axis in money');
  }
  assert.ok(html.includes('Targets against cluster size (node groups at their max)'));
  assert.not.ok(renderPlanHtml(plan()).includes('id="cost"'), 'no costs: no cost charts');
});

test.run();
