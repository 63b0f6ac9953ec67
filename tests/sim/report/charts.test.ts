import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { barChart, lineChart } from '../../../sim/report/charts.ts';

const count = (text: string, needle: string) => text.split(needle).length - 1;
const finite = (svg: string) => !/NaN|Infinity/.test(svg);

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

test.run();
