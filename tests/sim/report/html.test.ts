import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderReportHtml } from '../../../sim/report/html.ts';
import { emptyReport, sampleReport } from './sample-report.ts';

const count = (text: string, needle: string) => text.split(needle).length - 1;
/** The markup of the chart titled `title`. */
const chart = (html: string, title: string) => {
  const at = html.indexOf(`aria-label="${title}"`);
  assert.ok(at > 0, title);
  return html.slice(at, html.indexOf('</svg>', at));
};
/** The texts of a chart's group (`y-axis`, `x-axis`, `legend`), in order. */
const groupTexts = (svg: string, group: string) => [...(new RegExp(`<g class="${group}">(.*?)</g>`).exec(svg)?.[1] ?? '').matchAll(/>([^<>]+)<\/text>/g)].map((m) => m[1]);

test('the page is self-contained: no external scripts, stylesheets, fonts or images', () => {
  const html = renderReportHtml(sampleReport());
  assert.ok(html.startsWith('<!doctype html>'));
  assert.not.match(html, /<script[^>]*\ssrc\s*=/i);
  assert.not.match(html, /<link\b/i);
  assert.not.match(html, /\b(src|href)\s*=\s*["']?\s*(https?:)?\/\//i);
  assert.not.match(html, /@import|url\(/i);
  assert.ok(html.includes('<style>'));
});

test('every chart is an inline svg: five over time, two histograms, three by zone, three of the control plane', () => {
  const html = renderReportHtml(sampleReport());
  assert.is(count(html, '<svg'), 13);
  assert.is(count(html, '</svg>'), 13);
  for (const title of ['Pods by phase', 'Nodes ready', 'Pods scheduled per second', 'Events and API requests per second',
    'CPU and memory requested / allocatable', 'Scheduling latency (creation to binding)', 'Nodes ready by zone',
    'Pods running by zone', 'CPU requested / allocatable by zone', 'NoExecute taints set per second',
    'Pods deleted for NoExecute taints per second', 'Zone states (node lifecycle controller)']) {
    assert.ok(html.includes(`aria-label="${title}"`), title);
  }
  // Both zones appear in the zone charts' legends.
  assert.is(count(html, '>zone-a</text>'), 3);
  assert.is(count(html, '>zone-b</text>'), 3);
});

test('the header and summary carry the run identity and key figures', () => {
  const html = renderReportHtml(sampleReport());
  assert.ok(html.includes('orchsim run: two-zones'));
  assert.ok(html.includes('Two zones, one node crash at 0:20.'));
  assert.ok(html.includes('>4242<'));
  assert.ok(html.includes('a'.repeat(64)));
  assert.ok(html.includes('1m (1:00)'));
  assert.ok(html.includes('5,678,901'));
  assert.ok(html.includes('2.75 pods/s'));
  assert.ok(html.includes('>2.5s<')); // scheduling latency p99
  assert.ok(html.includes('>9.1s<')); // pod startup p99
});

test('a hostile scenario name and reason are escaped everywhere', () => {
  const r = sampleReport();
  r.scenario.name = '<script>alert(1)</script>';
  r.scenario.description = '"><img src=x onerror=alert(2)>';
  r.unschedulable = { '<b>bold</b> & co': 3 };
  r.faults[0]!.targets = ['"quoted" node'];
  r.faults[0]!.kind = '<i>crash</i>';
  const html = renderReportHtml(r);
  assert.not.ok(html.includes('<script'));
  assert.not.ok(html.includes('<img'));
  assert.not.ok(html.includes('<b>bold'));
  assert.not.ok(html.includes('<i>crash'));
  assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(html.includes('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;'));
  assert.ok(html.includes('&lt;b&gt;bold&lt;/b&gt; &amp; co'));
  assert.ok(html.includes('&quot;quoted&quot; node'));
});

test('empty series, empty histograms and no zones render without NaN or Infinity', () => {
  const r = emptyReport();
  const html = renderReportHtml(r);
  assert.not.match(html, /NaN|Infinity|undefined/);
  assert.ok(html.includes('No samples'));
  assert.ok(html.includes('No data'));
  assert.ok(html.includes('No faults.'));
  r.zones = [];
  r.series.perZone = {};
  const noZones = renderReportHtml(r);
  assert.ok(noZones.includes('No zones.'));
  assert.not.match(noZones, /NaN|Infinity|undefined/);
});

test('a single sample, all-zero data and huge values render with finite coordinates', () => {
  const r = sampleReport();
  const one = <T>(xs: T[]) => xs.slice(0, 1);
  const s = r.series;
  r.series = { ...s, tMs: one(s.tMs), podsPending: [0], podsRunning: [0], podsSucceeded: [0], podsFailed: [0], nodesReady: [0],
    eventsPerSec: [9.9e12], apiRequestsPerSec: [3.4e6], scheduledPerSec: [0], cpuUtilisation: [0], memoryUtilisation: [0],
    perZone: { 'zone-a': { nodesReady: [0], podsRunning: [0], cpuUtilisation: [0] } } };
  const html = renderReportHtml(r);
  assert.not.match(html, /NaN|Infinity|undefined/);
  assert.ok(html.includes('>10T</text>'));
  assert.not.ok(html.includes('9900000000000'));
});

test('faults appear in a table and as labelled markers on each time chart', () => {
  const r = sampleReport();
  r.faults.push({ kind: 'zone-outage', atMs: 30_000, targets: Array.from({ length: 12 }, (_, i) => `zone-b-node-${i}`) });
  const html = renderReportHtml(r);
  assert.match(html, /<td>node-crash<\/td><td class="num">0:20<\/td><td title="zone-a-node-1">zone-a-node-1<\/td><td class="num">0:45<\/td><td class="num">25s<\/td>/);
  assert.ok(html.includes('zone-b-node-0, zone-b-node-1, zone-b-node-2, zone-b-node-3, zone-b-node-4 +7 more'));
  // Two faults on each of the eleven time charts, each labelled with its kind and first targets.
  assert.is(count(html, 'class="marker"'), 22);
  assert.is(count(html, 'fill="#c0392b">node-crash zone-a-node-1</text>'), 11);
  assert.is(count(html, 'fill="#c0392b">zone-outage zone-b-node-0, zone-b-node-1 +10 more</text>'), 11);
  assert.ok(html.includes('<title>node-crash at 0:20: zone-a-node-1, recovered at 0:45</title>'), 'the tooltip tells the rest');
});

test('the zone-state chart names each state once, at a tick of its own', () => {
  const svg = chart(renderReportHtml(sampleReport()), 'Zone states (node lifecycle controller)');
  assert.equal(groupTexts(svg, 'y-axis'), ['Initial', 'Normal', 'PartialDisruption', 'FullDisruption']);
});

test('taints and evictions are drawn on charts of their own, each scaled to its own rate', () => {
  const html = renderReportHtml(sampleReport());
  const taints = chart(html, 'NoExecute taints set per second');
  const evictions = chart(html, 'Pods deleted for NoExecute taints per second');
  assert.equal(groupTexts(taints, 'legend'), ['taints/s']);
  assert.equal(groupTexts(evictions, 'legend'), ['evictions/s']);
  assert.is(groupTexts(taints, 'y-axis').at(-1), '0.1', 'the taint rate peaks at 0.1/s and its axis tops there');
  assert.is(groupTexts(evictions, 'y-axis').at(-1), '0.5');
});

test('the control plane: leaders term by term, and each failover with its time without a leader', () => {
  const html = renderReportHtml(sampleReport());
  assert.match(html, /<td>orch-controller-manager<\/td><td>controller-manager-1<\/td><td class="num">0:48<\/td><td class="num">end<\/td>/);
  assert.match(html, /<td>controller-manager-0 → controller-manager-1<\/td><td class="num">0:30<\/td><td class="num">17.5s<\/td>/);
  assert.ok(html.includes('>r:zone-a</text>'), 'zone states by zone key');
  assert.match(html, /<td>default\/web<\/td><td class="num">50<\/td><td class="num">0:21<\/td><td class="num">3.5s<\/td>/);
  assert.match(html, /<td class="num">0:50<\/td><td class="num">still short<\/td>/);
});

test('unschedulable reasons are listed by count, largest first, as each pod\'s binding constraint', () => {
  const html = renderReportHtml(sampleReport());
  const cpu = html.indexOf('<td>Insufficient cpu</td>');
  const taint = html.indexOf('<td>node(s) had untolerated taint</td>');
  assert.ok(cpu > 0 && taint > cpu);
  assert.ok(html.includes('<td class="num">81.0%</td>'));
  assert.ok(html.includes('among the nodes their own selector, affinity and tolerations allow, the reason that ruled out the most'));
  assert.not.ok(html.includes('first reason'));
});

test('pods still pending are listed with the scheduler\'s last message and the plugins that ruled nodes out', () => {
  const html = renderReportHtml(sampleReport());
  const at = html.indexOf('<td>default/huge-0</td>');
  assert.ok(at > 0);
  const row = html.slice(at, html.indexOf('</tr>', at));
  assert.ok(row.includes('0/6 nodes are available: 6 Insufficient cpu.'), row);
  assert.ok(row.includes('NodeResourcesFit: 6'), row);
  assert.ok(renderReportHtml({ ...sampleReport(), pending: [] }).includes('No pod was waiting for a node at the end of the run.'));
});

test('with the request-time model, a card says where each request\'s time went; without it, none', () => {
  const r = sampleReport();
  r.requestTime = { requests: 1_234, networkMs: 1, queueMs: { p50: 0, p90: 1, p99: 3, max: 9, count: 1_234 }, serviceMs: { p50: 2, p90: 6, p99: 11, max: 40, count: 1_234 } };
  const html = renderReportHtml(r);
  assert.ok(html.includes('<h3>Request time (each API request)</h3>'));
  assert.match(html, /<th>Network, each way<\/th><td class="num">1ms<\/td>/);
  assert.match(html, /<th>Served p50 \/ p99<\/th><td class="num">2ms \/ 11ms<\/td>/);
  assert.not.ok(renderReportHtml(sampleReport()).includes('Request time'));
});

test('the same report renders to the same string', () => {
  assert.is(renderReportHtml(sampleReport()), renderReportHtml(sampleReport()));
  const changed = sampleReport();
  changed.seed = 1;
  assert.is.not(renderReportHtml(changed), renderReportHtml(sampleReport()));
});

test.run();
