import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { barChart, lineChart } from '../../../sim/report/charts.ts';

const count = (text: string, needle: string) => text.split(needle).length - 1;
const finite = (svg: string) => !/NaN|Infinity/.test(svg);
/** The texts of a chart's group (`y-axis`, `x-axis`, `legend`), in order. */
const groupTexts = (svg: string, group: string) => [...(new RegExp(`<g class="${group}">(.*?)</g>`).exec(svg)?.[1] ?? '').matchAll(/>([^<>]+)<\/t(?:ext|span)>/g)].map((m) => m[1]);
const ZONE_STATES = ['Initial', 'Normal', 'PartialDisruption', 'FullDisruption'];

test('an empty series draws an empty frame that says so', () => {
  const svg = lineChart({ title: 'empty', tMs: [], series: [{ label: 'a', values: [] }] });
  assert.ok(svg.startsWith('<svg'));
  assert.ok(svg.includes('No samples'));
  assert.ok(finite(svg));
  assert.is(count(svg, '<polyline'), 0);
});

test('a single sample is drawn as a dot, since a one-point line is invisible', () => {
  const svg = lineChart({ title: 'one', tMs: [10_000], series: [{ label: 'a', values: [7] }] });
  assert.is(count(svg, '<circle'), 1);
  assert.is(count(svg, '<polyline'), 0);
  assert.ok(finite(svg));
});

test('all-zero data still gets a value axis from 0 to 1', () => {
  const svg = lineChart({ title: 'zeros', tMs: [0, 1000, 2000], series: [{ label: 'a', values: [0, 0, 0] }] });
  assert.ok(svg.includes('>0</text>'));
  assert.ok(svg.includes('>1</text>'));
  assert.ok(finite(svg));
});

test('huge values get compact tick labels', () => {
  const svg = lineChart({ title: 'huge', tMs: [0, 1000], series: [{ label: 'a', values: [1.5e9, 3.4e9] }] });
  assert.ok(svg.includes('>3.5G</text>'));
  assert.ok(svg.includes('>500M</text>'));
  assert.not.ok(svg.includes('3500000000'));
});

test('missing values break the line in two', () => {
  const svg = lineChart({ title: 'gap', tMs: [0, 1, 2, 3, 4].map((s) => s * 1000), series: [{ label: 'a', values: [1, 2, Number.NaN, 4, 5] }] });
  assert.is(count(svg, '<polyline'), 2);
  assert.ok(finite(svg));
});

test('the time axis reads as m:ss and h:mm:ss', () => {
  const short = lineChart({ title: 't', tMs: [0, 60_000, 120_000], series: [{ label: 'a', values: [1, 2, 3] }] });
  assert.ok(short.includes('>1:00</text>'));
  const long = lineChart({ title: 't', tMs: [0, 7_200_000], series: [{ label: 'a', values: [1, 2] }] });
  assert.ok(long.includes('>1:00:00</text>'));
});

test('markers inside the time range are drawn with their label; those outside are not', () => {
  const svg = lineChart({
    title: 'm',
    tMs: [0, 10_000, 20_000],
    series: [{ label: 'a', values: [1, 2, 3] }],
    markers: [{ atMs: 5_000, untilMs: 15_000, label: 'crash <n1>' }, { atMs: 99_000, label: 'late' }],
  });
  assert.is(count(svg, 'class="marker"'), 1);
  assert.ok(svg.includes('<title>crash &lt;n1&gt;</title>'));
  assert.not.ok(svg.includes('late'));
});

test('a categorical value axis names each category once, at a tick of its own', () => {
  const svg = lineChart({ title: 'zones', tMs: [0, 1000, 2000], series: [{ label: 'z', values: [1, 2, 3] }], yCategories: ZONE_STATES });
  assert.equal(groupTexts(svg, 'y-axis'), ZONE_STATES);
  assert.ok(svg.includes('z: FullDisruption'), 'tooltips name the state too');
});

test('the value labels get a margin as wide as the widest of them', () => {
  const svg = lineChart({ title: 'zones', tMs: [0, 1000], series: [{ label: 'z', values: [1, 2] }], yCategories: ZONE_STATES });
  // Right-aligned at x: "PartialDisruption" is 91.4 px wide in DejaVu Sans at 11 px, as Chromium measures it.
  const x = Number(/<g class="y-axis">.*?<text x="([\d.]+)"/.exec(svg)![1]);
  assert.ok(x >= 92, `labels end at ${x}`);
});

test('a legend label is never cut short: one wider than the plot wraps onto more lines', () => {
  const long = 'a series label far longer than forty characters, which the legend used to cut short with an ellipsis, and now wraps';
  const svg = lineChart({ title: 'l', tMs: [0, 1000], series: [{ label: long, values: [1, 2] }, { label: 'short', values: [2, 1] }] });
  const legend = groupTexts(svg, 'legend');
  assert.ok(legend.length >= 3, legend.join(' | '));
  assert.is(legend.slice(0, -1).join(' '), long);
  assert.is(legend.at(-1), 'short');
  assert.not.ok(svg.includes('…'));
});

test('each fault is labelled beside its line: a label that would collide takes the next row, one near the right edge reads leftwards', () => {
  const svg = lineChart({
    title: 'f',
    tMs: [0, 30_000, 60_000],
    series: [{ label: 'a', values: [1, 2, 3] }],
    markers: [
      { atMs: 10_000, label: 'nodeCrash pool-01', detail: 'nodeCrash at 0:10: pool-01' },
      { atMs: 11_000, label: 'nodeCrash pool-02' },
      { atMs: 59_000, label: 'zonePartition pool-03, pool-04 +10 more' },
    ],
  });
  const labels = [...svg.matchAll(/<text class="fault-label" x="([\d.]+)" y="([\d.]+)"( text-anchor="end")?[^>]*>([^<]*)<\/text>/g)]
    .map((m) => ({ x: Number(m[1]), y: Number(m[2]), end: m[3] !== undefined, text: m[4] }));
  assert.equal(labels.map((l) => l.text), ['nodeCrash pool-01', 'nodeCrash pool-02', 'zonePartition pool-03, pool-04 +10 more']);
  assert.ok(labels[1]!.y > labels[0]!.y, 'a second later, the second label goes a row down');
  assert.ok(labels[2]!.end && labels[2]!.y === labels[0]!.y, 'the last reads leftwards from its line, back in the first row');
  assert.ok(svg.includes('<title>nodeCrash at 0:10: pool-01</title>'), 'the tooltip tells the detail');
  assert.ok(svg.includes('<title>nodeCrash pool-02</title>'), 'or the label when there is none');
  const frameTop = Number(/<line x1="([\d.]+)" y1="([\d.]+)" x2="\1" y2="[\d.]+" stroke="#888"\/>/.exec(svg)![2]);
  assert.ok(labels.every((l) => l.y < frameTop), 'labels sit above the plot');
});

test('an axis of whole things (nodes) has no tick between two', () => {
  const svg = lineChart({ title: 'n', tMs: [11, 12, 13], series: [{ label: 'a', values: [4, 0, 0] }], xFormat: (n) => `${n} nodes`, xIntegers: true });
  assert.equal(groupTexts(svg, 'x-axis'), ['11 nodes', '12 nodes', '13 nodes']);
});

test('x labels too wide to stand side by side are shown at every second tick, and every tick keeps its grid line', () => {
  const svg = lineChart({ title: 'n', tMs: [1_000_000, 1_000_007], series: [{ label: 'a', values: [1, 2] }], xFormat: (n) => `${n.toLocaleString('en')} nodes`, xIntegers: true });
  assert.is(count(svg, 'stroke="#f0f2f4"'), 8);
  assert.equal(groupTexts(svg, 'x-axis'), ['1,000,000 nodes', '1,000,002 nodes', '1,000,004 nodes', '1,000,006 nodes']);
});

test('a long series keeps a bounded number of points and hover columns', () => {
  const n = 100_000;
  const tMs = Array.from({ length: n }, (_, i) => i * 1000);
  const values = tMs.map((_, i) => (i * 7919) % 101);
  const svg = lineChart({ title: 'long', tMs, series: [{ label: 'a', values }] });
  const points = /points="([^"]*)"/.exec(svg)![1]!.split(' ').length;
  assert.ok(points <= 4 * 600, `${points} points`);
  assert.ok(count(svg, 'class="hover"') <= 240);
  assert.ok(svg.length < 200_000, `${svg.length} characters`);
});

test('series past the palette repeat its colours dashed, and each has a legend entry', () => {
  const series = Array.from({ length: 12 }, (_, i) => ({ label: `zone-${i}`, values: [i, i + 1] }));
  const svg = lineChart({ title: 'many', tMs: [0, 1000], series });
  for (let i = 0; i < 12; i++) assert.ok(svg.includes(`>zone-${i}</text>`));
  assert.is(count(svg, 'stroke-dasharray="6 3"'), 4); // two legend swatches, two lines
});

test('bar charts label every bucket, tooltip the exact count, and survive no data', () => {
  const svg = barChart({ title: 'b', labels: ['≤10ms', '≤1s', '>1s'], values: [3_400_000, 0, 5] });
  assert.ok(svg.includes('>≤10ms</text>'));
  assert.ok(svg.includes('<title>≤10ms: 3,400,000 (100.0%)</title>'));
  assert.ok(svg.includes('>3.4M</text>'));
  const empty = barChart({ title: 'b', labels: [], values: [] });
  assert.ok(empty.includes('No data'));
  const zeros = barChart({ title: 'b', labels: ['a', 'b'], values: [0, 0] });
  assert.ok(finite(zeros) && finite(empty));
});

test('bar labels too wide to stand side by side tilt, whole, with room below the plot for the longest', () => {
  const labels = Array.from({ length: 12 }, (_, i) => `${i} s or less, the bucket of pods that waited longest`);
  const svg = barChart({ title: 'b', labels, values: labels.map((_, i) => i) });
  assert.equal(groupTexts(svg, 'x-axis'), labels);
  assert.is(count(svg, 'rotate(-40 '), 12);
  // The plot ends at 190; a tilted label reaches down sin 40° of its length, over 6 px a character here.
  const height = Number(/viewBox="0 0 640 ([\d.]+)"/.exec(svg)![1]);
  assert.ok(height >= 190 + Math.sin((40 * Math.PI) / 180) * 6 * labels[11]!.length, `${height}`);
});

test.run();
