// Series found once by their label values must show on /metrics exactly as prom-client's own inc
// and observe would: the same lines, whatever the mix of the two, and after a reset.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CounterSeries, HistogramSeries } from '../../../actors/api/metric-series.ts';
import { Counter, exposition, Histogram, newRegistry } from '../../../actors/api/metrics.ts';

const LABELS = ['verb', 'code'] as const;
const OBSERVATIONS: [string, string, number][] = [
  ['GET', '200', 0.001], ['GET', '200', 0.03], ['POST', '201', 0.2], ['GET', '404', 7], ['POST', '201', 0.005], ['GET', '200', 99],
];

function metrics() {
  const registry = newRegistry();
  const counter = new Counter({ name: 'requests_total', help: 'h', labelNames: LABELS, registers: [registry] });
  const histogram = new Histogram({ name: 'duration_seconds', help: 'h', labelNames: LABELS, buckets: [0.005, 0.025, 0.1, 1, 5], registers: [registry] });
  return { registry, counter, histogram };
}

test('series found by label values expose what inc and observe expose', async () => {
  const plain = metrics();
  for (const [verb, code, v] of OBSERVATIONS) {
    plain.counter.inc({ verb, code });
    plain.histogram.observe({ verb, code }, v);
  }
  const fast = metrics();
  const requests = new CounterSeries(fast.counter, LABELS);
  const durations = new HistogramSeries(fast.histogram, LABELS);
  OBSERVATIONS.forEach(([verb, code, v], i) => {
    // Mixed with the library's own calls: both add to the same series.
    if (i % 3 === 0) fast.counter.inc({ verb, code });
    else requests.inc([verb, code]);
    if (i % 2 === 0) fast.histogram.observe({ verb, code }, v);
    else durations.observe([verb, code], v);
  });
  const want = (await exposition(plain.registry)).body;
  assert.is((await exposition(fast.registry)).body, want);
  assert.match(want, 'duration_seconds_bucket{le="+Inf",verb="GET",code="200"} 3');
});

test('a histogram without labels has its one series', async () => {
  const plain = newRegistry();
  const fast = newRegistry();
  const a = new Histogram({ name: 'attempts', help: 'h', buckets: [1, 2, 4], registers: [plain] });
  const b = new Histogram({ name: 'attempts', help: 'h', buckets: [1, 2, 4], registers: [fast] });
  const series = new HistogramSeries(b, []);
  for (const v of [1, 3, 3, 9]) {
    a.observe(v);
    series.observe([], v);
  }
  assert.is((await exposition(fast)).body, (await exposition(plain)).body);
});

test('a reset drops the series found so far; later ones start from zero', async () => {
  const m = metrics();
  const requests = new CounterSeries(m.counter, LABELS);
  requests.inc(['GET', '200'], 5);
  m.counter.reset();
  requests.inc(['GET', '200']);
  assert.match((await exposition(m.registry)).body, 'requests_total{verb="GET",code="200"} 1');
});

test('an observation that is not a finite number is refused, as prom-client refuses it', () => {
  const durations = new HistogramSeries(metrics().histogram, LABELS);
  assert.throws(() => durations.observe(['GET', '200'], Number.NaN), /not a valid number/);
});

test.run();
