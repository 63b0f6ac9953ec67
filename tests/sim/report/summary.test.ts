import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { renderSummary } from '../../../sim/report/summary.ts';
import { emptyReport, sampleReport } from './sample-report.ts';

test('the summary names the run and its key figures, one labelled line each', () => {
  const text = renderSummary(sampleReport());
  const line = (label: string) => text.split('\n').find((l) => l.startsWith(label)) ?? '';
  assert.match(line('scenario'), /two-zones \(Two zones, one node crash at 0:20\.\)/);
  assert.match(line('seed'), /\b4242\b/);
  assert.match(line('virtual time'), /1m \(1:00\)/);
  assert.match(line('nodes'), /\b6\b/);
  assert.match(line('pods'), /120 created, 110 scheduled/);
  assert.ok(text.includes('97 running, 8 succeeded, 3 failed'));
  assert.ok(text.includes('10 pending, 2 deleted, 1 evicted'));
  assert.match(line('scheduling'), /2\.75 pods\/s/);
  assert.ok(text.includes('latency p50 35ms  p90 420ms  p99 2.5s  max 7.3s  (110 pods)'));
  assert.ok(text.includes('131 attempts, 21 unschedulable, 4 preemptions'));
  assert.match(line('pod startup'), /p50 1\.8s  p90 3\.2s  p99 9\.1s  max 12s/);
  assert.match(line('faults'), /0:20  node-crash on zone-a-node-1, recovered at 0:45/);
  assert.match(line('events'), /1,234 \(20\.6 per virtual second\)/);
  assert.match(line('api requests'), /5,678,901 \(94\.6k per virtual second\)/);
  assert.not.ok(text.endsWith('\n'), 'console.log adds the newline');
});

test('labels sit in a 16-character column and values start after it', () => {
  const lines = renderSummary(sampleReport()).trimEnd().split('\n');
  assert.ok(lines.length >= 15);
  for (const l of lines) {
    assert.match(l.slice(0, 16), /^([a-z][a-z ]*[a-z] +| {16})$/, `label column: ${JSON.stringify(l)}`);
    assert.ok(l.length > 16 && /^[a-z]/.test(l) === (l.slice(0, 16).trim() !== ''), `value: ${JSON.stringify(l)}`);
  }
  assert.ok(lines.filter((l) => /^[a-z]/.test(l)).every((l) => l[16] !== ' '), 'first value line starts at column 16');
});

test('unschedulable reasons show the top five by count, then how many more', () => {
  const r = sampleReport();
  r.unschedulable = { a: 1, b: 9, c: 3, d: 7, e: 5, f: 2, g: 30 };
  const lines = renderSummary(r).split('\n');
  const at = lines.findIndex((l) => l.startsWith('unschedulable'));
  assert.equal(lines.slice(at, at + 6).map((l) => l.slice(16)), ['30  g', ' 9  b', ' 7  d', ' 5  e', ' 3  c', '+2 more reasons (3 pods)']);
});

test('wall figures appear only when given', () => {
  assert.not.ok(renderSummary(sampleReport()).includes('wall time'));
  const text = renderSummary(sampleReport(), { wallMs: 2000, peakRssBytes: 300 * 1024 * 1024 });
  assert.match(text, /wall time +2s \(30 virtual s per wall s\)/);
  assert.match(text, /peak memory +300\.0 MiB RSS/);
});

test('control characters in names cannot break the block or the terminal', () => {
  const r = sampleReport();
  r.scenario.name = 'evil\n\u001b[31mred';
  const text = renderSummary(r);
  assert.not.ok(text.includes('\u001b'));
  assert.ok(text.split('\n')[0]!.startsWith('scenario        evil [31mred'));
});

test('an empty run says none instead of printing zeros as percentiles', () => {
  const text = renderSummary(emptyReport());
  assert.match(text, /pod startup +none measured/);
  assert.match(text, /unschedulable +none/);
  assert.match(text, /faults +none/);
  assert.not.match(text, /NaN|Infinity|undefined/);
});

test('a report of a cluster that breathes adds its usage peaks per zone and pool and each autoscaled Deployment\'s replica range', () => {
  const r = sampleReport();
  const GIB = 1024 ** 3;
  const resources = (used: number[], requested: number[]) => ({
    cpuUsed: used, cpuRequested: requested, cpuAllocatable: [8, 8, 12, 12, 8],
    memoryUsed: used.map((c) => c * GIB), memoryRequested: requested.map((c) => c * GIB), memoryAllocatable: [32, 32, 48, 48, 32].map((g) => g * GIB),
  });
  r.series.usage = { perZone: { 'zone-a': resources([1, 2.5, 6, 4, 1], [2, 3, 7, 5, 2]) }, perPool: { general: resources([0.5, 1, 3, 2, 0.5], [1, 1, 3, 3, 1]) } };
  r.series.deployments = { 'default/web': { autoscaler: 'default/web', minReplicas: 2, maxReplicas: 10, targetCPUUtilization: 60,
    desired: [null, 3, 6, 9, 4], ready: [null, 2, 3, 9, 4], cpuUtilization: [null, null, 95, 70, 40] } };
  const lines = renderSummary(r).split('\n');
  const at = lines.findIndex((l) => l.startsWith('usage peaks'));
  assert.equal(lines.slice(at, at + 2).map((l) => l.slice(16)), [
    'zone zone-a: CPU used 6, requested 7 of 12 cores; memory used 6.0 GiB, requested 7.0 GiB of 48.0 GiB',
    'pool general: CPU used 3, requested 3 of 12 cores; memory used 3.0 GiB, requested 3.0 GiB of 48.0 GiB',
  ]);
  assert.match(lines.find((l) => l.startsWith('replicas')) ?? '', /^replicas +default\/web \(2\.\.10\): desired 3 to 9, ready 2 to 9, CPU use up to 95% \(target 60%\)$/);
  assert.not.match(renderSummary(sampleReport()), /usage peaks|^replicas/m);
});

test.run();
