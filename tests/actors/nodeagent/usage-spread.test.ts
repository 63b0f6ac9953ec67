// A usage model's spread: each pod of a group uses the curve times replicas over the Ready pods
// the load balancer counts now; with nobody counting, the curve as written.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSpread, spreadCurve } from '../../../actors/nodeagent/usage-spread.ts';
import { checkUsageModel, UsageModelError } from '../../../actors/nodeagent/usage-model.ts';
import { PodUse } from '../../../actors/nodeagent/pod-usage.ts';
import type { Pod } from '../../../actors/api/model/core.ts';

const curve = { of: 'fraction' as const, at: (t: number) => (t < 1000 ? 0.5 : 1), max: 1 };

test('a spread curve scales by replicas over the Ready pods, and applies as written while no count is known', () => {
  let ready: number | undefined;
  const c = spreadCurve(curve, { group: 'default/web', replicas: 4 }, { readyPods: () => ready });
  assert.is(c.at(0), 0.5, 'no count yet: as written');
  ready = 8;
  assert.is(c.at(0), 0.25);
  assert.is(c.at(2000), 0.5);
  ready = 0;
  assert.is(c.at(2000), 4, 'no Ready pod: one takes it all');
  assert.is(c.max, 4, 'the bound is the whole load on one pod');
});

test('a pod whose model spreads its load uses its share of it, in cores of its containers', () => {
  const pod = {
    metadata: { name: 'web-1', namespace: 'default', uid: 'u1', annotations: { 'orchsim.io/usage': JSON.stringify({ cpu: { kind: 'constant', fraction: 0.9 }, spread: { group: 'default/web', replicas: 4 } }) } },
    spec: { containers: [{ name: 'a', resources: { requests: { cpu: '1' } } }] },
  } as unknown as Pod;
  assert.is(new PodUse(pod).cpuAt(0, 0), 0.9, 'no shares given: as written');
  assert.ok(Math.abs(new PodUse(pod, { readyPods: () => 6 }).cpuAt(0, 0) - 0.6) < 1e-12, '0.9 x 4 / 6');
});

test('a spread breaking a rule is refused at its field', () => {
  const ruleOf = (spread: unknown) => {
    try {
      checkUsageModel({ cpu: { kind: 'constant', fraction: 1 }, spread });
    } catch (e) {
      if (e instanceof UsageModelError) return e.message;
      throw e;
    }
    return 'accepted';
  };
  assert.match(ruleOf({ group: 'web', replicas: 2 }), 'spread.group: must be namespace/workload');
  assert.match(ruleOf({ group: 'default/web', replicas: 0 }), 'spread.replicas: must be a whole number');
  assert.match(ruleOf({ group: 'default/web', replicas: 2, weight: 1 }), 'spread.weight: unknown field');
  assert.equal(checkSpread({ group: 'default/web', replicas: 2 }, 'spread'), { group: 'default/web', replicas: 2 });
});

test.run();
