// The LimitRanger admission plugin and the LimitRange kind, against the in-process server: a
// LimitRange's defaults fill what containers leave out, and its min, max and ratio bounds refuse
// pods with the real messages.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Reply } from '../../../helpers/in-process-server.ts';

const LIMITS = '/api/v1/namespaces/default/limitranges';
const PODS = '/api/v1/namespaces/default/pods';

const limitRange = (name: string, limits: unknown[]) => ({ apiVersion: 'v1', kind: 'LimitRange', metadata: { name }, spec: { limits } });
type Resources = { requests?: Record<string, string>; limits?: Record<string, string> };
const pod = (name: string, containers: [string, Resources][], init: [string, Resources][] = []) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name },
  spec: {
    containers: containers.map(([n, resources]) => ({ name: n, image: 'nginx:1.27', resources })),
    ...(init.length ? { initContainers: init.map(([n, resources]) => ({ name: n, image: 'busybox:1.36', resources })) } : {}),
  },
});

function forbidden(r: Reply): string {
  assert.is(r.status, 403, r.text);
  return r.json.message;
}

async function serverWith(...ranges: ReturnType<typeof limitRange>[]) {
  const h = await startServer();
  for (const lr of ranges) {
    const r = await h.post(LIMITS, lr);
    assert.is(r.status, 201, r.text);
  }
  return h;
}

test('a LimitRange\'s defaults fill each container\'s missing requests and limits, and the annotation says what was set', async () => {
  const h = await serverWith(limitRange('defaults', [{ type: 'Container', default: { cpu: '500m', memory: '256Mi' }, defaultRequest: { cpu: '250m' } }]));
  const r = await h.post(PODS, pod('web', [['app', {}], ['sidecar', { requests: { cpu: '100m' } }]]));
  assert.is(r.status, 201, r.text);
  const [app, sidecar] = r.json.spec.containers.map((c: { resources: unknown }) => c.resources);
  assert.equal(app, { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  assert.equal(sidecar, { requests: { cpu: '100m', memory: '256Mi' }, limits: { cpu: '500m', memory: '256Mi' } });
  assert.is(r.json.metadata.annotations['kubernetes.io/limit-ranger'],
    'LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app; memory request for container sidecar; cpu, memory limit for container sidecar');
  assert.is(r.json.status.qosClass, 'Burstable', 'the QoS class sees the defaulted resources');
});

test('a namespace without limit ranges leaves pods as they are', async () => {
  const h = await startServer();
  const r = await h.post(PODS, pod('bare', [['app', {}]]));
  assert.equal([r.json.spec.containers[0].resources, r.json.metadata.annotations, r.json.status.qosClass], [{}, undefined, 'BestEffort']);
});

test('a LimitRange is stored with its Container defaults filled from max and min, in canonical quantities', async () => {
  const h = await startServer();
  const r = await h.post(LIMITS, limitRange('bounds', [{ type: 'Container', max: { cpu: '2000m', memory: '1024Mi' }, min: { cpu: '100m' } },
    { type: 'Pod', max: { cpu: '4' } }]));
  assert.is(r.status, 201, r.text);
  assert.equal(r.json.spec.limits, [
    { type: 'Container', max: { cpu: '2', memory: '1Gi' }, min: { cpu: '100m' }, default: { cpu: '2', memory: '1Gi' }, defaultRequest: { cpu: '2', memory: '1Gi' } },
    { type: 'Pod', max: { cpu: '4' } },
  ]);
});

test('Container min and max refuse a pod with the real messages; several errors come together in brackets', async () => {
  const h = await serverWith(limitRange('bounds', [{ type: 'Container', max: { cpu: '1' }, min: { memory: '64Mi' } }]));
  assert.is(forbidden(await h.post(PODS, pod('big', [['app', { limits: { cpu: '2' }, requests: { memory: '128Mi' } }]]))),
    'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
  assert.is(forbidden(await h.post(PODS, pod('both', [['app', { limits: { cpu: '1500m' }, requests: { cpu: '1', memory: '32Mi' } }]]))),
    'pods "both" is forbidden: [minimum memory usage per Container is 64Mi, but request is 32Mi, maximum cpu usage per Container is 1, but limit is 1500m]');
  assert.is(forbidden(await h.post(PODS, pod('init', [['app', { requests: { memory: '64Mi' } }]], [['setup', { requests: { memory: '1Mi' } }]]))),
    'pods "init" is forbidden: minimum memory usage per Container is 64Mi, but request is 1Mi', 'init containers are Containers too');
  const fits = await h.post(PODS, pod('fits', [['app', { requests: { memory: '64Mi' } }]]));
  assert.is(fits.status, 201, fits.text);
  assert.equal(fits.json.spec.containers[0].resources.limits, { cpu: '1' }, 'the max became the default limit');
});

test('a Pod bound applies to the sum of its containers, and a limit-to-request ratio to each container', async () => {
  const h = await serverWith(limitRange('pod', [{ type: 'Pod', max: { memory: '1Gi' } }, { type: 'Container', maxLimitRequestRatio: { cpu: '2' } }]));
  assert.is(forbidden(await h.post(PODS, pod('pair', [['a', { limits: { memory: '768Mi' } }], ['b', { limits: { memory: '768Mi' } }]]))),
    'pods "pair" is forbidden: [maximum memory usage per Pod is 1Gi, but limit is 1536Mi, cpu max limit to request ratio per Container is 2, but no request is specified or request is 0]',
    'both containers lack a cpu request: the message is given once');
  assert.is(forbidden(await h.post(PODS, pod('spiky', [['a', { requests: { cpu: '100m', memory: '1Gi' }, limits: { cpu: '500m', memory: '1Gi' } }]]))),
    'pods "spiky" is forbidden: cpu max limit to request ratio per Container is 2, but provided ratio is 5.000000');
  assert.is(forbidden(await h.post(PODS, pod('nolimit', [['a', { requests: { cpu: '100m' }, limits: { memory: '1Gi' } }]]))),
    'pods "nolimit" is forbidden: cpu max limit to request ratio per Container is 2, but no limit is specified or limit is 0');
});

test('pod updates are not checked again (their containers cannot change)', async () => {
  const h = await startServer();
  const created = (await h.post(PODS, pod('old', [['app', { limits: { cpu: '3' } }]]))).json;
  await h.post(LIMITS, limitRange('late', [{ type: 'Container', max: { cpu: '1' } }]));
  const r = await h.put(`${PODS}/old`, { ...created, metadata: { ...created.metadata, labels: { later: 'yes' } } });
  assert.is(r.status, 200, r.text);
});

test('LimitRange validation: bounds in order, Pod items without defaults, known types, one item per type', async () => {
  const h = await startServer();
  const r = await h.post(LIMITS, limitRange('bad', [
    { type: 'Container', min: { cpu: '2' }, max: { cpu: '1' }, default: { cpu: '1' }, defaultRequest: { cpu: '1' } },
    { type: 'Pod', default: { cpu: '1' } },
    { type: 'Pod', max: { gpu: '1' } },
    { type: 'Volume' },
  ]));
  assert.is(r.status, 422, r.text);
  assert.equal(r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), [
    'spec.limits[0].min[cpu]: Invalid value: "2": min value 2 is greater than max value 1',
    'spec.limits[0].defaultRequest[cpu]: Invalid value: "1": min value 2 is greater than default request value 1',
    'spec.limits[0].default[cpu]: Invalid value: "2": min value 2 is greater than default value 1',
    "spec.limits[1].default: Forbidden: may not be specified when `type` is 'Pod'",
    'spec.limits[2].type: Duplicate value: "Pod"',
    'spec.limits[2].max[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified',
    'spec.limits[2].max[gpu]: Invalid value: "gpu": must be a standard resource for containers',
    'spec.limits[3].type: Invalid value: "Volume": must be a standard limit type or fully qualified',
  ]);
});

test.run();
