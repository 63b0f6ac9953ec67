// `kubectl annotate --overwrite` on the running pods of an autoscaled Deployment under `orchsim
// serve --speed`: the pods use what their annotation says from that instant, so the autoscaler
// made by `kubectl autoscale` scales the Deployment up by the real rule (ceil(replicas × use /
// target)), and, once the use is lowered, down only after its behavior's stabilisation window.
// The template's pods use nothing, so the pods the scale-up adds leave the average on target.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CPU_USAGE } from '../../actors/nodeagent/pod-usage.ts';
import { eventually } from '../helpers/real-time.ts';
import { servedCluster } from '../helpers/served-kubectl.ts';

const REQUEST_MILLI = 200;
const TARGET_PERCENT = 50;
const DOWN_WINDOW_S = 180;
const SYNC_PERIOD_S = 15;

const deployment = {
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' }, annotations: { [CPU_USAGE]: '0' } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: `${REQUEST_MILLI}m`, memory: '64Mi' } } }] } } },
};

interface Hpa { status: { currentReplicas?: number; desiredReplicas?: number; lastScaleTime?: string;
  conditions?: { type: string; status: string; reason: string }[];
  currentMetrics?: { resource?: { current: { averageUtilization?: number } } }[] } }

const utilization = (h: Hpa) => h.status.currentMetrics?.[0]?.resource?.current.averageUtilization;
const reasonOf = (h: Hpa, type: string) => h.status.conditions?.find((c) => c.type === type)?.reason;

test('annotating running pods with more CPU scales their Deployment up by the autoscaler\'s rule, and with less brings it down only after the stabilisation window', async () => {
  const { dir, k, tryK, stop } = await servedCluster('annotate');
  const hpa = async () => JSON.parse(await k('get', 'hpa', 'web', '-o', 'json')) as Hpa;
  const rescales = async () => (JSON.parse(await k('get', 'events', '--field-selector', 'reason=SuccessfulRescale', '-o', 'json')).items as { message: string }[])
    .map((e) => e.message);
  const now = async (name: string) => Date.parse(JSON.parse(await k('create', 'configmap', name, '-o', 'json')).metadata.creationTimestamp);
  try {
    const file = join(dir, 'web.json');
    writeFileSync(file, JSON.stringify(deployment));
    await k('apply', '-f', file);
    await eventually('both pods with metrics', async () => {
      const r = await tryK('top', 'pods', '-l', 'app=web', '--no-headers');
      return r.code === 0 && r.stdout.trim().split('\n').length === 2 ? true : undefined;
    }, 60_000);
    assert.is(await k('autoscale', 'deployment', 'web', `--cpu-percent=${TARGET_PERCENT}`, '--min=2', '--max=10'), 'horizontalpodautoscaler.autoscaling/web autoscaled\n');
    await k('patch', 'hpa', 'web', '--type=merge', '-p', JSON.stringify({ spec: { behavior: { scaleDown: { stabilizationWindowSeconds: DOWN_WINDOW_S } } } }));
    const idle = await eventually('the autoscaler\'s first look at idle pods', async () => {
      const h = await hpa();
      return utilization(h) === 0 ? h : undefined;
    }, 60_000);
    assert.equal([idle.status.currentReplicas, idle.status.desiredReplicas], [2, 2], 'idle, yet at minReplicas');

    // 250m of 200m is 125%, 2.5 times the target: ceil(2 × 2.5) = 5, within the behavior's scale-up
    // rate (the larger of +100% and +4 pods a period) and maxReplicas. The 3 new pods use nothing,
    // so 5 pods average 100m: the target, nothing more to do.
    await k('annotate', 'pods', '-l', 'app=web', `${CPU_USAGE}=250m`, '--overwrite');
    const expectedUp = Math.ceil(2 * ((250 / REQUEST_MILLI) * 100) / TARGET_PERCENT);
    const up = await eventually('the Deployment scaled up, its pods on target', async () => {
      const h = await hpa();
      return h.status.currentReplicas === expectedUp && utilization(h) === TARGET_PERCENT ? h : undefined;
    }, 90_000);
    assert.is(up.status.desiredReplicas, expectedUp);
    assert.equal(await rescales(), [`New size: ${expectedUp}; reason: cpu resource utilization (percentage of request) above target`]);
    assert.is(JSON.parse(await k('get', 'deployment', 'web', '-o', 'json')).spec.replicas, expectedUp);

    // 20m of 200m is 10%: one fifth of the target wants 1 pod, minReplicas keeps 2. The window holds
    // the highest recommendation of its last 180 s, so the Deployment stays until the recommendations
    // made before the use fell have aged out.
    const lowered = await now('before-lowering');
    await k('annotate', 'pods', '-l', 'app=web', `${CPU_USAGE}=20m`, '--overwrite');
    const held = await eventually('the lower use seen, the scale-down held by the window', async () => {
      const h = await hpa();
      return utilization(h) === 10 ? h : undefined;
    }, 60_000);
    assert.is(held.status.currentReplicas, expectedUp);
    assert.is(reasonOf(held, 'AbleToScale'), 'ScaleDownStabilized');
    const down = await eventually('the Deployment scaled down to minReplicas', async () => {
      const h = await hpa();
      return h.status.currentReplicas === 2 ? h : undefined;
    }, 90_000);
    // The last recommendation of 5 came from a sync at most a period before the use fell.
    const downAt = Date.parse(down.status.lastScaleTime!);
    assert.ok(downAt >= lowered + (DOWN_WINDOW_S - SYNC_PERIOD_S) * 1000, `scaled down ${(downAt - lowered) / 1000} s after the use fell`);
    assert.equal((await rescales()).at(-1), 'New size: 2; reason: All metrics below target');
    assert.is((await rescales()).length, 2);
  } finally {
    await stop();
  }
});

test.run();
