// The horizontal pod autoscaler under `orchsim serve --speed`: `kubectl autoscale` on a Deployment
// whose pods use exactly the target keeps it as it is and says so in its status; once its
// template's pods use three times the target, the autoscaler scales it up, by at most twice (or 4)
// at a time, to its maxReplicas, with a SuccessfulRescale Event for each step in the real words.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CPU_USAGE } from '../../actors/nodeagent/pod-usage.ts';
import { eventually } from '../helpers/real-time.ts';
import { servedCluster } from '../helpers/served-kubectl.ts';

const deployment = (cpuUsage: string) => ({
  apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' },
  spec: { replicas: 2, selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' }, annotations: { [CPU_USAGE]: cpuUsage } },
      spec: { containers: [{ name: 'main', image: 'nginx:1.27', resources: { requests: { cpu: '200m', memory: '64Mi' } } }] } } },
});

interface Condition { type: string; status: string; reason: string; message: string }
interface Hpa { status: { currentReplicas?: number; desiredReplicas?: number; lastScaleTime?: string; conditions?: Condition[];
  currentMetrics?: { type: string; resource?: { name: string; current: { averageUtilization?: number; averageValue?: string } } }[] } }

const conditions = (hpa: Hpa) => Object.fromEntries((hpa.status.conditions ?? []).map((c) => [c.type, [c.status, c.reason]]));

test('an autoscaler keeps a Deployment at its target use, then scales it up step by step to maxReplicas when its pods use more', async () => {
  const { dir, k, tryK, stop } = await servedCluster('hpa');
  const hpa = async () => JSON.parse(await k('get', 'hpa', 'web', '-o', 'json')) as Hpa;
  const rescales = async () => (JSON.parse(await k('get', 'events', '-o', 'json')).items as { reason: string; message: string; involvedObject: { kind: string; name: string }; source?: { component?: string } }[])
    .filter((e) => e.reason === 'SuccessfulRescale' && e.involvedObject.kind === 'HorizontalPodAutoscaler' && e.involvedObject.name === 'web');
  try {
    const file = join(dir, 'web.json');
    writeFileSync(file, JSON.stringify(deployment('100m')));
    await k('apply', '-f', file);
    await eventually('both pods with metrics', async () => {
      const r = await tryK('top', 'pods', '-l', 'app=web', '--no-headers');
      return r.code === 0 && r.stdout.trim().split('\n').length === 2 ? true : undefined;
    }, 60_000);
    assert.is(await k('autoscale', 'deployment', 'web', '--cpu-percent=50', '--min=1', '--max=5'), 'horizontalpodautoscaler.autoscaling/web autoscaled\n');

    // 100m of 200m is the 50% asked for: a ratio of 1.0, nothing to do.
    const steady = await eventually('the autoscaler\'s first look', async () => {
      const h = await hpa();
      return h.status.currentMetrics?.[0]?.resource?.current.averageUtilization !== undefined && conditions(h).ScalingLimited ? h : undefined;
    }, 60_000);
    assert.equal(steady.status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50, averageValue: '100m' } } }]);
    assert.equal([steady.status.currentReplicas, steady.status.desiredReplicas, steady.status.lastScaleTime], [2, 2, undefined]);
    assert.equal(conditions(steady), { AbleToScale: ['True', 'ReadyForNewScale'], ScalingActive: ['True', 'ValidMetricFound'], ScalingLimited: ['False', 'DesiredWithinRange'] });
    assert.equal((steady.status.conditions ?? []).find((c) => c.type === 'ScalingActive')!.message,
      'the HPA was able to successfully calculate a replica count from cpu resource utilization (percentage of request)');
    assert.equal(await rescales(), []);

    // 300m of 200m: 150%, three times the target. 2 pods want 6, at most 4 from 2; then 5 is maxReplicas.
    writeFileSync(file, JSON.stringify(deployment('300m')));
    await k('apply', '-f', file);
    const scaled = await eventually('the Deployment at maxReplicas, every pod at 150%', async () => {
      const h = await hpa();
      return h.status.currentReplicas === 5 && h.status.currentMetrics?.[0]?.resource?.current.averageUtilization === 150 ? h : undefined;
    }, 90_000);
    assert.is(scaled.status.desiredReplicas, 5);
    assert.ok(scaled.status.lastScaleTime, 'the time of its last rescale');
    assert.equal(conditions(scaled), { AbleToScale: ['True', 'ReadyForNewScale'], ScalingActive: ['True', 'ValidMetricFound'], ScalingLimited: ['True', 'TooManyReplicas'] });
    assert.is(JSON.parse(await k('get', 'deployment', 'web', '-o', 'json')).spec.replicas, 5);
    const events = await rescales();
    const sizes = events.map((e) => Number(/^New size: (\d+); reason: cpu resource utilization \(percentage of request\) above target$/.exec(e.message)?.[1]));
    assert.ok(sizes.length >= 2 && sizes.every((n) => n > 0), events.map((e) => e.message).join('\n'));
    assert.is(sizes.at(-1), 5);
    let from = 2;
    for (const size of sizes) {
      assert.ok(size > from && size <= Math.max(2 * from, 4), `from ${from} to ${size}: more than the scale-up limit`);
      from = size;
    }
    assert.equal([...new Set(events.map((e) => e.source?.component))], ['horizontal-pod-autoscaler']);
  } finally {
    await stop();
  }
});

test.run();
