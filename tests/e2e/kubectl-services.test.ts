// `orchsim serve` with real kubectl (and @kubernetes/client-node), as on a real cluster: a
// Deployment exposed by a Service gets a cluster IP from the range and Endpoints and
// EndpointSlices listing its ready pods; a NodePort
// Service gets a node port; the kubernetes Service, the four system namespaces and a new
// namespace's default ServiceAccount are there; kubectl describe node shows the node's Lease; and
// a Node created through the API with orchsim.io/simulated: "true" becomes Ready and runs a pod.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import * as k8s from '@kubernetes/client-node';
import { startServer, type Running } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl as run } from '../helpers/real-time.ts';

type Rec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const dir = mkdtempSync(join(tmpdir(), 'orchsim-services-'));
const kubeconfig = join(dir, 'kubeconfig');
const kubectl = (args: string[]) => run(kubeconfig, ['--cache-dir', join(dir, 'kube-cache'), ...args]);
const json = async (args: string[]): Promise<Rec> => {
  const r = await kubectl([...args, '-o', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Rec;
};
let running: Running;

/** kubectl create -f - with `obj` on its standard input. */
function create(obj: Rec): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('kubectl', ['--kubeconfig', kubeconfig, '--cache-dir', join(dir, 'kube-cache'), 'create', '-f', '-'], { timeout: 60_000 },
      (e, _stdout, stderr) => resolve({ code: e ? 1 : 0, stderr }));
    child.stdin!.end(JSON.stringify(obj));
  });
}

test.before(async () => {
  running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '11', '--nodes', '2', '--speed', '5'], 'serve', () => {});
});

test.after(async () => {
  await running.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('a Deployment exposed by a Service gets a cluster IP, and its Endpoints and EndpointSlices list the three ready pods', async () => {
  assert.is((await kubectl(['create', 'deployment', 'web', '--image=nginx', '--replicas=3'])).code, 0);
  const exposed = await kubectl(['expose', 'deployment', 'web', '--port=80']);
  assert.is(exposed.code, 0, exposed.stderr);
  const svc = await kubectl(['get', 'svc', 'web']);
  assert.match(svc.stdout, /^NAME\s+TYPE\s+CLUSTER-IP\s+EXTERNAL-IP\s+PORT\(S\)\s+AGE\nweb\s+ClusterIP\s+10\.(9[6-9]|10\d|11[01])\.\d+\.\d+\s+<none>\s+80\/TCP\s+/);
  const ready = await eventually('the three pods Ready', async () => {
    const pods = (await json(['get', 'pods', '-l', 'app=web'])).items as Rec[];
    const ips = pods.filter((p) => p.status.conditions?.some((c: Rec) => c.type === 'Ready' && c.status === 'True')).map((p) => p.status.podIP as string);
    return ips.length === 3 ? ips.sort() : undefined;
  }, 60_000);
  const endpoints = await eventually('the Endpoints list them', async () => {
    const ep = await json(['get', 'endpoints', 'web']);
    const ips = (ep.subsets?.[0]?.addresses ?? []).map((a: Rec) => a.ip).sort();
    return JSON.stringify(ips) === JSON.stringify(ready) ? ep : undefined;
  });
  assert.equal(endpoints.subsets[0].ports, [{ port: 80, protocol: 'TCP' }]);
  const table = await kubectl(['get', 'endpoints', 'web']);
  assert.match(table.stdout, /^NAME\s+ENDPOINTS\s+AGE\nweb\s+(\d+\.\d+\.\d+\.\d+:80,){2}\d+\.\d+\.\d+\.\d+:80\s+/);
  const slices = await eventually('the EndpointSlices list them', async () => {
    const items = (await json(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web'])).items as Rec[];
    const ips = items.flatMap((s) => (s.endpoints ?? []).filter((e: Rec) => e.conditions.ready).map((e: Rec) => e.addresses[0])).sort();
    return JSON.stringify(ips) === JSON.stringify(ready) ? items : undefined;
  });
  assert.is(slices[0].metadata.labels['endpointslice.kubernetes.io/managed-by'], 'endpointslice-controller.k8s.io');
  const sliceTable = await kubectl(['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web']);
  assert.match(sliceTable.stdout, /^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE\nweb-\w{5}\s+IPv4\s+80\s+[\d.,]+\s+/);
});

test('@kubernetes/client-node reads the same: DiscoveryV1Api lists the Service\'s EndpointSlices, CoreV1Api its Endpoints', async () => {
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(kubeconfig);
  const slices = await kc.makeApiClient(k8s.DiscoveryV1Api).listNamespacedEndpointSlice({ namespace: 'default', labelSelector: 'kubernetes.io/service-name=web' });
  const ready = slices.items.flatMap((s) => (s.endpoints ?? []).filter((e) => e.conditions?.ready).map((e) => e.addresses[0]));
  assert.is(ready.length, 3);
  assert.is(slices.items[0]!.addressType, 'IPv4');
  const ep = await kc.makeApiClient(k8s.CoreV1Api).readNamespacedEndpoints({ name: 'web', namespace: 'default' });
  assert.equal((ep.subsets?.[0]?.addresses ?? []).map((a) => a.ip).sort(), [...ready].sort());
});

test('a NodePort Service gets a node port in 30000-32767; the kubernetes Service is in default', async () => {
  const created = await kubectl(['create', 'service', 'nodeport', 'x', '--tcp=80:8080']);
  assert.is(created.code, 0, created.stderr);
  const svc = await json(['get', 'svc', 'x']);
  const port = svc.spec.ports[0].nodePort as number;
  assert.ok(port >= 30000 && port <= 32767, `${port} is in the range`);
  assert.match((await kubectl(['get', 'svc', 'x'])).stdout, new RegExp(`x\\s+NodePort\\s+[\\d.]+\\s+<none>\\s+80:${port}/TCP`));
  const kubernetes = await kubectl(['get', 'svc', 'kubernetes']);
  assert.match(kubernetes.stdout, /kubernetes\s+ClusterIP\s+10\.96\.0\.1\s+<none>\s+443\/TCP/);
  const ep = await json(['get', 'endpoints', 'kubernetes']);
  assert.equal(ep.subsets[0].addresses, [{ ip: '127.0.0.1' }]);
});

test('kubectl get ns lists the system namespaces; a new namespace gets its default ServiceAccount and runs a pod at once', async () => {
  const names = ((await json(['get', 'ns'])).items as Rec[]).map((n) => n.metadata.name);
  for (const ns of ['default', 'kube-node-lease', 'kube-public', 'kube-system']) assert.ok(names.includes(ns), `${ns} is listed`);
  assert.is((await kubectl(['create', 'ns', 'team'])).code, 0);
  const started = await kubectl(['run', 'web', '-n', 'team', '--image=nginx']);
  assert.is(started.code, 0, `kubectl run right after create ns: ${started.stderr}`);
  const sa = await kubectl(['get', 'sa', '-n', 'team']);
  assert.match(sa.stdout, /^NAME\s+SECRETS\s+AGE\ndefault\s+0\s+/);
  assert.is((await json(['get', 'pod', 'web', '-n', 'team'])).spec.serviceAccountName, 'default');
});

test('kubectl describe node shows its Lease, and kube-node-lease lists every node\'s', async () => {
  const described = await eventually('the Lease shown', async () => {
    const r = await kubectl(['describe', 'node', 'node-0']);
    return /Lease:\s+HolderIdentity:\s+node-0\s+AcquireTime:\s+<unset>\s+RenewTime:\s+\w+/.test(r.stdout) ? r.stdout : undefined;
  });
  assert.ok(described);
  const leases = await kubectl(['get', 'leases', '-n', 'kube-node-lease']);
  assert.match(leases.stdout, /node-0\s+node-0\s+/);
  assert.match(leases.stdout, /node-1\s+node-1\s+/);
});

test('a Node created with orchsim.io/simulated: "true" is taken over: it becomes Ready, runs a pod, and its agent stops when it is deleted', async () => {
  const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'fake-1', annotations: { 'orchsim.io/simulated': 'true' }, labels: { 'topology.kubernetes.io/zone': 'zone-z' } },
    status: { capacity: { cpu: '8', memory: '32Gi', pods: '50' } } };
  const made = await create(node);
  assert.is(made.code, 0, made.stderr);
  const ready = await eventually('fake-1 Ready', async () => {
    const n = await json(['get', 'node', 'fake-1']);
    return n.status.conditions?.some((c: Rec) => c.type === 'Ready' && c.status === 'True') ? n : undefined;
  });
  assert.equal([ready.status.capacity.cpu, ready.status.capacity.pods], ['8', '50'], 'the capacity it stated');
  assert.match(ready.spec.podCIDR, /^10\.\d+\.\d+\.0\/24$/, 'given a pod range');
  const pod = await create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'on-fake' }, spec: { nodeName: 'fake-1', containers: [{ name: 'c', image: 'nginx' }] } });
  assert.is(pod.code, 0, pod.stderr);
  await eventually('the pod Running on fake-1', async () => ((await json(['get', 'pod', 'on-fake'])).status.phase === 'Running' ? true : undefined));
  assert.is((await kubectl(['delete', 'node', 'fake-1'])).code, 0);
  // Two of node-0's renewals later (20 s of the cluster's time), fake-1's agent has not registered it again.
  const renewals = new Set<string>();
  await eventually('node-0 renewing twice', async () => {
    renewals.add((await json(['get', 'lease', 'node-0', '-n', 'kube-node-lease'])).spec.renewTime);
    return renewals.size >= 3 ? true : undefined;
  });
  const gone = await kubectl(['get', 'node', 'fake-1']);
  assert.match(gone.stderr, /nodes "fake-1" not found/);
});

test.run();
