// A workload's `usage:` model: checked when the scenario loads, each broken rule reported at its
// field, and written into every pod of the workload as its `orchsim.io/usage` annotation.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseScenario, ScenarioError } from '../../../sim/scenario/load.ts';
import { workloadController, workloadPod } from '../../../sim/workload.ts';
import { USAGE_MODEL } from '../../../actors/nodeagent/usage-model.ts';

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

test.run();
