// A workload's `usage:` model: checked when the scenario loads, each broken rule reported at its
// field, and written into every pod of the workload as its `orchsim.io/usage` annotation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseScenario, ScenarioError } from '../../../sim/scenario/load.ts';
import { workloadController, workloadPod } from '../../../sim/workload.ts';
import { curveFor, USAGE_MODEL, type UsageCurve } from '../../../actors/nodeagent/usage-model.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCENARIOS = join(import.meta.dirname, '../../../sim/scenarios');
const HOUR = 3_600_000;
const DAY0 = Date.UTC(2026, 0, 1);

const BASE = 'duration: 30m\nnodePools: [{ name: general, count: 2 }]\nworkloads:\n  - name: web\n    count: 3\n    requests: { cpu: 100m, memory: 128Mi }\n';
const parse = (extra: string) => parseScenario(BASE + extra, { name: 'scenario', dir: '.' });

function errorOf(extra: string): ScenarioError {
  try {
    parse(extra);
  } catch (e) {
    if (e instanceof ScenarioError) return e;
    throw e;
  }
  throw new Error(`parsed without error: ${extra}`);
}

test('a workload\'s usage model is kept and written into each pod as its usage annotation', () => {
  const s = parse('    usage:\n      cpu: { kind: daily, trough: 0.2, peak: 0.9, peakHour: 14, noise: 0.1 }\n      memory: { kind: constant, quantity: 200Mi }\n');
  const w = s.workloads[0]!;
  const model = { cpu: { kind: 'daily', trough: 0.2, peak: 0.9, peakHour: 14, noise: 0.1 }, memory: { kind: 'constant', quantity: '200Mi' } };
  assert.equal(w.usage, model);
  assert.equal(JSON.parse(workloadPod(w, 1).metadata.annotations![USAGE_MODEL]!), model);
  const controlled = parseScenario(BASE + '    controller: Deployment\n    usage: { cpu: { kind: uniform, min: 0.1, max: 0.5 } }\n', { name: 'scenario', dir: '.' }).workloads[0]!;
  const template = (workloadController(controlled).spec as { template: { metadata: { annotations: Record<string, string> } } }).template;
  assert.equal(JSON.parse(template.metadata.annotations[USAGE_MODEL]!), { cpu: { kind: 'uniform', min: 0.1, max: 0.5 } });
  assert.is(workloadPod(parse('').workloads[0]!, 0).metadata.annotations, undefined, 'no model, no annotation');
});

test('a step\'s at is a duration after the run\'s start, written into the pods as the instant of the run\'s clock', () => {
  const w = parse('    usage: { cpu: { kind: step, before: 0.5, after: 0.9, at: 10m } }\n').workloads[0]!;
  assert.equal(w.usage, { cpu: { kind: 'step', before: 0.5, after: 0.9, at: '2026-01-01T00:10:00.000Z' } });
  assert.equal(JSON.parse(workloadPod(w, 0).metadata.annotations![USAGE_MODEL]!), w.usage);
});

test('a usage model breaking a rule is refused at its field with the rule', () => {
  const cases: [string, string][] = [
    ['    usage: { cpu: { kind: daily, trough: 0.2, peak: 0.9, peakHour: 25 } }\n',
      'scenario.yaml: workloads[0].usage.cpu.peakHour: must be an hour of the day from 0 to below 24 (UTC), got 25'],
    ['    usage: { gpu: { kind: constant, fraction: 1 } }\n', 'scenario.yaml: workloads[0].usage.gpu: unknown resource; allowed: cpu, memory, or spread'],
    ['    usage: { memory: { kind: uniform, min: 0.9, max: 0.1 } }\n', 'scenario.yaml: workloads[0].usage.memory.max: must not be below min (0.9), got 0.1'],
    ['    usage: { cpu: { kind: step, before: 0.5, after: 0.9, at: 30m } }\n',
      'scenario.yaml: workloads[0].usage.cpu.at: must be a duration after the run\'s start and before its end (duration 30m0s), got "30m"'],
    ['    usage: { cpu: { kind: step, before: 0.5, after: 0.9, at: soon } }\n', 'scenario.yaml: workloads[0].usage.cpu.at: must be a Go duration such as 300ms, 30s, 5m or 1h30m, got "soon"'],
    ['    usage: busy\n', 'scenario.yaml: workloads[0].usage: must be a mapping of cpu and/or memory to a curve, such as { cpu: { kind: constant, fraction: 0.5 } }'],
  ];
  for (const [extra, message] of cases) assert.is(errorOf(extra).message, message);
});


test('spread: N names the workload\'s own group, and a count that is not a whole number of pods is refused at its field', () => {
  const w = parse('    usage: { cpu: { kind: constant, fraction: 0.5 }, spread: 4 }\n').workloads[0]!;
  assert.equal(w.usage, { cpu: { kind: 'constant', fraction: 0.5 }, spread: { group: 'default/web', replicas: 4 } });
  assert.equal(JSON.parse(workloadPod(w, 0).metadata.annotations![USAGE_MODEL]!).spread, { group: 'default/web', replicas: 4 });
  for (const bad of ['0', '2.5', '"many"'])
    assert.match(errorOf(`    usage: { cpu: { kind: constant, fraction: 0.5 }, spread: ${bad} }\n`).message, 'workloads[0].usage.spread: must be a whole number of pods');
});

test('a series is read from its CSV beside the scenario: each column a curve of the points, written into the pods', () => {
  const s = parseScenario(BASE + '    usage: { kind: series, file: load/web-day.csv, interpolation: linear, repeat: true }\n', { name: 'scenario', dir: SCENARIOS });
  const w = s.workloads[0]!;
  const cpu = w.usage!.cpu as Extract<UsageCurve, { kind: 'series' }>;
  assert.equal([cpu.kind, cpu.start, cpu.interpolation, cpu.repeat, cpu.points.length], ['series', '2026-01-01T00:00:00.000Z', 'linear', true, 24]);
  assert.equal(cpu.points.slice(0, 2), [[0, 0.15], [HOUR, 0.12]]);
  assert.equal((w.usage!.memory as typeof cpu).points[20], [20 * HOUR, 0.85]);
  assert.equal(JSON.parse(workloadPod(w, 0).metadata.annotations![USAGE_MODEL]!), w.usage);
  // Linear: halfway between 00:00 (0.15) and 01:00 (0.12); the next day repeats; after 23:00 (0.30) toward midnight's 0.15.
  const c = curveFor(cpu, 1);
  assert.ok(Math.abs(c.at(DAY0 + HOUR / 2) - 0.135) < 1e-12);
  assert.is(c.at(DAY0 + 24 * HOUR + 20 * HOUR), 1);
  assert.ok(Math.abs(c.at(DAY0 + 23.5 * HOUR) - 0.225) < 1e-12);
  assert.is(c.max, 1);
});

function csvError(csv: string, usage = '{ kind: series, file: load.csv }'): string {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-series-'));
  writeFileSync(join(dir, 'load.csv'), csv);
  try {
    parseScenario(BASE + `    usage: ${usage}\n`, { name: 'scenario', dir });
  } catch (e) {
    if (e instanceof ScenarioError) return e.message;
    throw e;
  }
  throw new Error(`parsed without error: ${csv}`);
}

test('a series file breaking a rule is refused naming the file, the line and the column', () => {
  assert.is(csvError('time,cpu\n0,0.5\n10m,lots\n'), 'load.csv: line 3: column 2 (cpu): must be a fraction of the request from 0 to 100, got "lots"');
  assert.is(csvError('time,cpu\n10m,0.5\n5m,0.6\n'), 'load.csv: line 3: column 1 (time): must be after the row before\'s (600s), got "5m"');
  assert.is(csvError('time,cpu\nsoon,0.5\n'), 'load.csv: line 2: column 1 (time): must be a duration such as 1h30m or seconds from the start such as 5400, got "soon"');
  assert.is(csvError('time,disk\n0,1\n'), 'load.csv: line 1: column 2: must be cpu or memory, each at most once, got "disk"');
  assert.is(csvError('cpu,time\n'), 'load.csv: line 1: column 1: the header\'s first column must be time, got "cpu"');
  assert.is(csvError('time,cpu,memory\n0,0.5\n'), 'load.csv: line 2: has 2 columns; the header has 3 (time,cpu,memory)');
  assert.is(csvError('time,cpu\n'), 'load.csv: line 1: has a header and no rows: a series needs at least one row');
  assert.is(csvError('time,cpu\n25h,0.5\n', '{ kind: series, file: load.csv, repeat: true }'),
    'load.csv: line 2: column 1 (time): must be within the first day (below 24h) when the series repeats, got "25h"');
  assert.match(csvError('', '{ kind: series, file: missing.csv }'), /^scenario\.yaml: workloads\[0\]\.usage\.file: cannot read the series file \(ENOENT/);
  assert.is(csvError('time,cpu\n0,1\n', '{ kind: series, file: load.csv, factor: { kind: uniform, min: 0.9, max: 0.5 } }'),
    'scenario.yaml: workloads[0].usage.factor.max: must not be below min (0.9), got 0.5');
});

test('a series steps between its points unless linear, holds its ends when it does not repeat, and a factor scales it per pod', () => {
  const points: [number, number][] = [[HOUR, 0.2], [3 * HOUR, 0.6]];
  const series = (extra: object = {}) => ({ kind: 'series', start: '2026-01-01T00:00:00Z', points, ...extra }) as UsageCurve;
  const step = curveFor(series(), 1);
  assert.equal([0, 1, 2, 3, 30].map((h) => step.at(DAY0 + h * HOUR)), [0.2, 0.2, 0.2, 0.6, 0.6]);
  const linear = curveFor(series({ interpolation: 'linear' }), 1);
  assert.equal([0, 2, 30].map((h) => Math.round(linear.at(DAY0 + h * HOUR) * 1e12) / 1e12), [0.2, 0.4, 0.6]);
  const looped = curveFor(series({ repeat: true }), 1);
  assert.is(looped.at(DAY0 + 25 * HOUR), 0.2, 'the next day, as the first');
  const scaled = (seed: number) => curveFor(series({ factor: { kind: 'uniform', min: 0.5, max: 1.5 } }), seed);
  const factors = [1, 2, 3].map((seed) => scaled(seed).at(DAY0 + 3 * HOUR) / 0.6);
  assert.ok(factors.every((f) => f >= 0.5 && f < 1.5) && new Set(factors).size === 3, `${factors}`);
  assert.is(scaled(2).at(DAY0 + 3 * HOUR), scaled(2).at(DAY0 + 30 * HOUR), 'a pod keeps its factor');
  assert.is(scaled(2).max, scaled(2).at(DAY0 + 3 * HOUR));
});

test.run();
