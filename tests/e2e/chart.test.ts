// A realistic application as Helm renders it (`chart/crds.yaml`, then `chart/rendered.yaml`),
// applied with the real kubectl to `orchsim serve --nodes 3` running twenty times faster than
// the wall clock: a CRD and custom objects of it, a namespace with its ServiceAccount, Role,
// RoleBinding, ConfigMap, Secret, LimitRange and ResourceQuota, a Deployment behind a Service with
// an HPA and a PDB, a StatefulSet behind a headless Service, a DaemonSet, a CronJob, a Job, a
// PriorityClass and a ValidatingWebhookConfiguration calling a webhook this test runs. Each test
// checks what a real cluster would show once the application has settled; the last drains a node.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isReady } from '../../actors/api/fields.ts';
import { startServer } from '../../sim/cli/serve.ts';
import { answer } from '../helpers/admission-webhooks.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.ts';

type Running = Awaited<ReturnType<typeof startServer>>;
interface Ctx { dir: string; running: Running; webhook: WebhookServer; applied: string }
/** Objects as kubectl prints them in JSON. */
type Obj = { metadata: any; spec?: any; status?: any };

const chart = suite<Ctx>('chart');
const here = new URL('chart/', import.meta.url);
const MAX_WIDGET = 10;

let k: (args: string[], timeoutMs?: number) => ReturnType<typeof kubectl>;
/** kubectl that must succeed; its output. */
async function ok(args: string[]): Promise<string> {
  const r = await k(args);
  assert.is(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}
const json = async (args: string[]): Promise<any> => JSON.parse(await ok([...args, '-o', 'json']));
const items = async (args: string[]): Promise<Obj[]> => (await json(args)).items;
const webPods = async () => (await items(['get', 'pods', '-n', 'shop', '-l', 'app.kubernetes.io/name=web']))
  .filter((p) => !p.metadata.deletionTimestamp && isReady(p));

chart.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'orchsim-chart-'));
  const kubeconfig = join(ctx.dir, 'kubeconfig');
  ctx.webhook = await startWebhookServer();
  // The shop's policy: no widget bigger than MAX_WIDGET.
  ctx.webhook.answer((review) => {
    const size = review.body.request.object?.spec?.size;
    return answer(review, size > MAX_WIDGET
      ? { allowed: false, status: { code: 403, message: `a widget of size ${size} is over the shop's limit of ${MAX_WIDGET}` } }
      : { allowed: true });
  });
  ctx.running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(ctx.dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '22', '--nodes', '3', '--speed', '20'], 'serve', () => {});
  k = (args, timeoutMs) => kubectl(kubeconfig, ['--cache-dir', join(ctx.dir, 'cache'), ...args], timeoutMs);
  await eventually('three nodes Ready', async () => ((await items(['get', 'nodes'])).filter((n) => isReady(n)).length === 3 ? true : undefined));

  // As Helm does: the CRDs first, established, then the templates.
  assert.is(await ok(['apply', '-f', new URL('crds.yaml', here).pathname]), 'customresourcedefinition.apiextensions.k8s.io/widgets.shop.example.com created\n');
  await ok(['wait', '--for=condition=Established', 'crd/widgets.shop.example.com', '--timeout=30s']);
  const rendered = readFileSync(new URL('rendered.yaml', here), 'utf8')
    .replace('WEBHOOK_URL', `${ctx.webhook.url}/validate`).replace('WEBHOOK_CA_BUNDLE', Buffer.from(ctx.webhook.caPem).toString('base64'));
  writeFileSync(join(ctx.dir, 'rendered.yaml'), rendered);
  ctx.applied = await ok(['apply', '-f', join(ctx.dir, 'rendered.yaml')]);

  await eventually('the application settled', async () => {
    const web = await json(['get', 'deployment', 'web', '-n', 'shop']);
    const db = await json(['get', 'statefulset', 'db', '-n', 'shop']);
    const agent = await json(['get', 'daemonset', 'agent', '-n', 'shop']);
    return web.status.availableReplicas === 3 && db.status.readyReplicas === 2 && agent.status.numberReady === 3 ? true : undefined;
  }, 90_000);
});

chart.after(async (ctx) => {
  await ctx.running?.stop();
  await ctx.webhook?.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

chart('every object of the rendered chart is created, in the order of the file', ({ applied }) => {
  assert.equal(applied.trim().split('\n'), [
    'namespace/shop created',
    'priorityclass.scheduling.k8s.io/shop-critical created',
    'serviceaccount/shop created',
    'role.rbac.authorization.k8s.io/shop-reader created',
    'rolebinding.rbac.authorization.k8s.io/shop-reader created',
    'configmap/shop-config created',
    'secret/shop-db created',
    'limitrange/shop-defaults created',
    'resourcequota/shop-quota created',
    'service/web created',
    'service/db created',
    'deployment.apps/web created',
    'horizontalpodautoscaler.autoscaling/web created',
    'poddisruptionbudget.policy/web created',
    'statefulset.apps/db created',
    'daemonset.apps/agent created',
    'cronjob.batch/report created',
    'job.batch/migrate created',
    'validatingwebhookconfiguration.admissionregistration.k8s.io/shop-widget-policy created',
    'widget.shop.example.com/basket created',
    'widget.shop.example.com/checkout created',
  ]);
});

chart('the custom objects are defaulted, printed with their columns, listed by category, and their status written through /status', async () => {
  const table = (await ok(['get', 'widgets', '-n', 'shop'])).split('\n');
  assert.match(table[0]!, /^NAME\s+SIZE\s+COLOR\s+AGE$/);
  assert.match(table[1]!, /^basket\s+5\s+green\s+\d+s$/);
  assert.match(table[2]!, /^checkout\s+8\s+blue\s+\d+s$/);
  assert.match(await ok(['get', 'shop', '-n', 'shop', '-o', 'name']), /^widget\.shop\.example\.com\/basket\nwidget\.shop\.example\.com\/checkout\n$/);
  await ok(['patch', 'wg', 'basket', '-n', 'shop', '--subresource=status', '--type=merge', '-p', '{"status":{"phase":"Stocked"},"spec":{"size":7}}']);
  const basket = await json(['get', 'widget', 'basket', '-n', 'shop']);
  assert.equal([basket.status.phase, basket.spec.size], ['Stocked', 5], 'the status subresource writes the status alone');
});

chart('the webhook was asked about each widget and refuses one over the limit; the schema refuses one out of bounds before it is asked', async ({ webhook, dir }) => {
  const asked = webhook.received.map((r) => r.body.request);
  assert.equal(asked.map((r) => [r.operation, r.namespace, r.name, `${r.kind.group}/${r.kind.version}/${r.kind.kind}`]), [
    ['CREATE', 'shop', 'basket', 'shop.example.com/v1/Widget'],
    ['CREATE', 'shop', 'checkout', 'shop.example.com/v1/Widget'],
  ]);
  const widget = (name: string, size: number) => {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify({ apiVersion: 'shop.example.com/v1', kind: 'Widget', metadata: { name, namespace: 'shop' }, spec: { size } }));
    return file;
  };
  const big = await k(['apply', '-f', widget('big', 50)]);
  assert.is(big.code, 1);
  assert.match(big.stderr, `admission webhook "widgets.shop.example.com" denied the request: a widget of size 50 is over the shop's limit of ${MAX_WIDGET}`);
  const huge = await k(['apply', '-f', widget('huge', 500)]);
  assert.is(huge.code, 1);
  assert.match(huge.stderr, 'spec.size: Invalid value: 500: spec.size in body should be less than or equal to 100');
  assert.is(webhook.received.length, 3, 'the out-of-bounds widget never reached the webhook');
  assert.match((await k(['get', 'widget', 'big', '-n', 'shop'])).stderr, 'widgets.shop.example.com "big" not found');
});

chart('the Deployment\'s pods carry the priority, the ServiceAccount and the LimitRange\'s defaults', async () => {
  const pods = await webPods();
  assert.is(pods.length, 3);
  for (const p of pods) {
    assert.equal([p.spec.priorityClassName, p.spec.priority, p.spec.serviceAccountName], ['shop-critical', 100000, 'shop']);
    assert.equal(p.spec.containers[0].resources, { requests: { cpu: '250m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  }
  const db = await json(['get', 'pod', 'db-0', '-n', 'shop']);
  assert.equal(db.spec.containers[0].resources, { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  assert.is(db.metadata.annotations['kubernetes.io/limit-ranger'], 'LimitRanger plugin set: cpu, memory request for container postgres; cpu, memory limit for container postgres');
  const agent = (await items(['get', 'pods', '-n', 'shop', '-l', 'app.kubernetes.io/name=agent']))[0]!;
  assert.is(agent.spec.priority, 0, 'no class named and no global default: priority 0');
});

chart('the ServiceAccount has the Role\'s rights and no more; the namespace has its default ServiceAccount', async () => {
  const as = ['--as=system:serviceaccount:shop:shop', '-n', 'shop'];
  assert.equal([(await k(['auth', 'can-i', 'list', 'pods', ...as])).stdout, (await k(['auth', 'can-i', 'get', 'configmaps', ...as])).stdout], ['yes\n', 'yes\n']);
  const del = await k(['auth', 'can-i', 'delete', 'pods', ...as]);
  assert.equal([del.code, del.stdout], [1, 'no\n']);
  assert.ok(await json(['get', 'serviceaccount', 'default', '-n', 'shop']));
});

chart('the Services have addresses and the Endpoints list the ready pods', async () => {
  const web = await json(['get', 'service', 'web', '-n', 'shop']);
  assert.match(web.spec.clusterIP, /^10\.(9[6-9]|10\d|11[01])\.\d+\.\d+$/, 'from 10.96.0.0/12');
  const ready = async () => (await webPods()).map((p) => p.status.podIP).sort();
  const endpoints = await eventually('the web Endpoints listing the three ready pods', async () => {
    const e = await json(['get', 'endpoints', 'web', '-n', 'shop']);
    const ips = (e.subsets?.[0]?.addresses ?? []).map((a: { ip: string }) => a.ip).sort();
    return ips.length === 3 && JSON.stringify(ips) === JSON.stringify(await ready()) ? e : undefined;
  });
  assert.equal(endpoints.subsets[0].ports, [{ name: 'http', port: 8080, protocol: 'TCP' }], 'the named target port resolved to the container\'s');
  const slices = await items(['get', 'endpointslices', '-n', 'shop', '-l', 'kubernetes.io/service-name=web']);
  assert.equal(slices.flatMap((s: any) => s.endpoints.filter((e: any) => e.conditions.ready).flatMap((e: any) => e.addresses)).sort(), await ready());
  const db = await json(['get', 'endpoints', 'db', '-n', 'shop']);
  assert.equal(db.subsets[0].addresses.map((a: { hostname: string }) => a.hostname).sort(), ['db-0', 'db-1'], 'the headless Service names its StatefulSet\'s pods');
});

chart('the Job completes its two completions one at a time', async () => {
  await ok(['wait', '--for=condition=complete', 'job/migrate', '-n', 'shop', '--timeout=60s']);
  const job = await json(['get', 'job', 'migrate', '-n', 'shop']);
  assert.equal([job.status.succeeded, job.status.failed ?? 0], [2, 0]);
  const pods = (await items(['get', 'pods', '-n', 'shop', '-l', 'job-name=migrate'])).sort((a, b) => a.status.startTime.localeCompare(b.status.startTime));
  assert.equal(pods.map((p) => p.status.phase), ['Succeeded', 'Succeeded']);
  const finished = Date.parse(pods[0]!.status.containerStatuses[0].state.terminated.finishedAt);
  assert.ok(Date.parse(pods[1]!.metadata.creationTimestamp!) >= finished - 1000, 'parallelism 1: the second pod made after the first finished');
});

chart('the CronJob makes a Job each minute of the cluster\'s clock and keeps the last two that succeeded', async () => {
  // A success more than three minutes and ten seconds after the CronJob was made is its fourth run's.
  const cron = await eventually('four runs of the CronJob', async () => {
    const c = await json(['get', 'cronjob', 'report', '-n', 'shop']);
    const made = Date.parse(c.metadata.creationTimestamp);
    return c.status.lastSuccessfulTime && Date.parse(c.status.lastSuccessfulTime) >= made + 190_000 ? c : undefined;
  }, 60_000);
  const last = Date.parse(cron.status.lastScheduleTime);
  assert.is(last % 60_000, 0, 'on a whole minute');
  const succeeded = await eventually('the history trimmed to two', async () => {
    const js = (await items(['get', 'jobs', '-n', 'shop'])).filter((j) => j.metadata.ownerReferences?.[0]?.name === 'report' && j.status.succeeded === 1);
    return js.length === 2 ? js : undefined;
  });
  const minutes = succeeded.map((j) => Number(j.metadata.name.slice('report-'.length))).sort();
  assert.is(minutes[1]! - minutes[0]!, 1, 'the last two runs, a minute apart');
  for (const j of succeeded) {
    const scheduled = Number(j.metadata.name.slice('report-'.length)) * 60_000;
    assert.is(j.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'], new Date(scheduled).toISOString().replace('.000Z', 'Z'));
    const made = Date.parse(j.metadata.creationTimestamp!) - scheduled;
    assert.ok(made >= 0 && made < 10_000, `${j.metadata.name} made on its minute (${made} ms after)`);
  }
});

chart('the quota counts what the namespace uses; the HPA measures its pods and holds the Deployment at its minimum', async () => {
  await eventually('the quota\'s pods matching the pods that count', async () => {
    const live = (await items(['get', 'pods', '-n', 'shop'])).filter((p) => !['Succeeded', 'Failed'].includes(p.status.phase));
    const quota = await json(['get', 'resourcequota', 'shop-quota', '-n', 'shop']);
    return quota.status.used?.pods === String(live.length) && quota.status.used.services === '2' ? quota : undefined;
  });
  // Each web pod uses 100m of its 250m request: 40% against the target's 70%, which wants
  // ceil(3 x 40 / 70) = 2 replicas; once the 5-minute downscale window no longer holds the first
  // recommendation (the 3 there were), the minimum of 3 is what limits it.
  const limitedBy = (h: any) => h.status?.conditions?.find((c: { type: string }) => c.type === 'ScalingLimited');
  const hpa = await eventually('the HPA held at its minimum', async () => {
    const h = await json(['get', 'hpa', 'web', '-n', 'shop']);
    return limitedBy(h)?.reason === 'TooFewReplicas' ? h : undefined;
  }, 60_000);
  assert.equal([hpa.status.currentReplicas, hpa.status.desiredReplicas, hpa.status.currentMetrics[0].resource.current.averageUtilization], [3, 3, 40]);
  assert.is(limitedBy(hpa).status, 'True');
  const table = (await ok(['get', 'hpa', '-n', 'shop'])).split('\n');
  assert.match(table[0]!, /^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/);
  assert.match(table[1]!, /^web\s+Deployment\/web\s+cpu: 40%\/70%\s+3\s+6\s+3\s+\S+$/);
  assert.is((await json(['get', 'deployment', 'web', '-n', 'shop'])).spec.replicas, 3);
});

chart('kubectl describe shows the Events the components wrote', async () => {
  const pod = (await webPods())[0]!.metadata.name;
  const described = {
    deployment: await ok(['describe', 'deployment', 'web', '-n', 'shop']),
    pod: await ok(['describe', 'pod', pod, '-n', 'shop']),
    statefulset: await ok(['describe', 'statefulset', 'db', '-n', 'shop']),
    daemonset: await ok(['describe', 'daemonset', 'agent', '-n', 'shop']),
    job: await ok(['describe', 'job', 'migrate', '-n', 'shop']),
    cronjob: await ok(['describe', 'cronjob', 'report', '-n', 'shop']),
  };
  assert.match(described.deployment, /ScalingReplicaSet\s+\S+\s+deployment-controller\s+Scaled up replica set web-[a-z0-9]+ from 0 to 3/);
  for (const reason of ['Scheduled', 'Pulling', 'Pulled', 'Created', 'Started']) assert.match(described.pod, new RegExp(`Normal\\s+${reason}\\s`), reason);
  assert.match(described.pod, new RegExp(`Scheduled\\s+\\S+\\s+default-scheduler\\s+Successfully assigned shop/${pod} to `));
  assert.match(described.statefulset, /SuccessfulCreate\s+\S+\s+statefulset-controller\s+create Pod db-1 in StatefulSet db successful/);
  assert.match(described.daemonset, /SuccessfulCreate\s+\S+\s+daemonset-controller\s+Created pod: agent-[a-z0-9]{5}/);
  assert.match(described.job, /SuccessfulCreate\s+\S+\s+job-controller\s+Created pod: migrate-[a-z0-9]{5}/);
  assert.match(described.job, /Completed\s+\S+\s+job-controller\s+Job completed/);
  assert.match(described.cronjob, /SuccessfulCreate\s+\S+\s+cronjob-controller\s+Created job report-\d+/);
  assert.match(await ok(['events', '-n', 'shop', '--for', 'job/migrate']), /Normal\s+Completed\s+Job\/migrate\s+Job completed/);
});

chart('a drain of the node with the most web pods honours the budget and finishes', async ({ running }) => {
  await eventually('the budget allowing one', async () => {
    const pdb = await json(['get', 'pdb', 'web', '-n', 'shop']);
    return pdb.status?.disruptionsAllowed === 1 && pdb.status.currentHealthy === 3 ? true : undefined;
  });
  let fewestReady = Infinity;
  running.server.store.onChange((change) => {
    if (!change.key.includes('/pods/shop/')) return;
    void running.server.store.list('/registry/core/pods/shop/').then(({ items: pods }) => {
      fewestReady = Math.min(fewestReady, pods.filter((p) => p.metadata.labels?.['app.kubernetes.io/name'] === 'web' && !p.metadata.deletionTimestamp && isReady(p)).length);
    });
  });
  const perNode = new Map<string, number>();
  for (const p of await webPods()) perNode.set(p.spec.nodeName, (perNode.get(p.spec.nodeName) ?? 0) + 1);
  const [node] = [...perNode].sort((a, b) => b[1] - a[1])[0]!;
  const drained = await k(['drain', node, '--ignore-daemonsets', '--delete-emptydir-data', '--timeout=120s'], 150_000);
  assert.is(drained.code, 0, drained.stderr);
  assert.match(drained.stdout, `node/${node} drained`);
  const back = await eventually('three web pods Ready again', async () => {
    const pods = await webPods();
    return pods.length === 3 ? pods : undefined;
  }, 60_000);
  assert.not.ok(back.some((p) => p.spec.nodeName === node), 'no web pod left on the drained node');
  assert.ok(fewestReady >= 2, `the budget held: fewest Ready ${fewestReady}`);
});

chart.run();
