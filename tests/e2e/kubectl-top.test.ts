// `kubectl top` under `orchsim serve --speed`: the metrics server it installs scrapes the node
// agents, so `kubectl top nodes` and `kubectl top pods` print what the pods' usage annotations
// (else their requests) say, a pod's quantity shared among its containers by their requests and
// CPU above a limit throttled to it; the percentages are of each node's allocatable, read back.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseQuantity } from '../../actors/api/quantity.ts';
import { CPU_USAGE, MEMORY_USAGE } from '../../actors/nodeagent/pod-usage.ts';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';

const pod = (name: string, namespace: string, node: string, annotations: Record<string, string>, containers: { name: string; requests: Record<string, string>; limits?: Record<string, string> }[]) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, annotations },
  spec: { nodeSelector: { 'kubernetes.io/hostname': node },
    containers: containers.map((c) => ({ name: c.name, image: 'nginx:1.27', resources: { requests: c.requests, ...(c.limits ? { limits: c.limits } : {}) } })) },
});

// duo: 800m and 800Mi for the pod, shared 1:3 by its containers' requests.
// capped: asks 2 cores with a limit of 1 (throttled to 1); no memory annotation, so its request.
// plain: no annotations, so its requests.
const PODS = [
  pod('duo', 'default', 'node-0', { [CPU_USAGE]: '800m', [MEMORY_USAGE]: '800Mi' },
    [{ name: 'a', requests: { cpu: '100m', memory: '100Mi' } }, { name: 'b', requests: { cpu: '300m', memory: '300Mi' } }]),
  pod('capped', 'default', 'node-0', { [CPU_USAGE]: '2' }, [{ name: 'main', requests: { cpu: '500m', memory: '256Mi' }, limits: { cpu: '1' } }]),
  pod('plain', 'other', 'node-1', {}, [{ name: 'main', requests: { cpu: '250m', memory: '64Mi' } }]),
];

/** Each container's expected use in millicores and bytes, from the annotations and requests as the usage rules read them. */
function expected(): Map<string, { name: string; cpuMilli: number; memoryBytes: number; node: string; namespace: string }[]> {
  const out = new Map<string, { name: string; cpuMilli: number; memoryBytes: number; node: string; namespace: string }[]>();
  for (const p of PODS) {
    const shares = (resource: 'cpu' | 'memory', annotation: string) => {
      const requests = p.spec.containers.map((c) => parseQuantity(c.resources.requests[resource] ?? 0));
      const total = requests.reduce((a, b) => a + b, 0);
      const given = p.metadata.annotations[annotation];
      return requests.map((r) => (given === undefined ? r : parseQuantity(given) * (r / total)));
    };
    const cpu = shares('cpu', CPU_USAGE), memory = shares('memory', MEMORY_USAGE);
    out.set(p.metadata.name, p.spec.containers.map((c, i) => {
      const limit = (c.resources as { limits?: Record<string, string> }).limits?.cpu;
      const cores = limit === undefined ? cpu[i]! : Math.min(parseQuantity(limit), cpu[i]!);
      return { name: c.name, cpuMilli: Math.round(cores * 1000), memoryBytes: memory[i]!, node: p.spec.nodeSelector['kubernetes.io/hostname'], namespace: p.metadata.namespace };
    }));
  }
  return out;
}

const MI = 1024 * 1024;
const rows = (stdout: string) => stdout.trim().split('\n').map((l) => l.trim().split(/\s+/));

test('kubectl top nodes and pods print the usage the pods\' annotations and requests give, throttled at limits, against allocatable', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-top-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '11', '--nodes', '2', '--speed', '10'], 'serve', () => {});
  try {
    assert.is((await kubectl(kubeconfig, ['create', 'namespace', 'other'])).code, 0);
    const files = PODS.map((p) => { const f = join(dir, `${p.metadata.name}.json`); writeFileSync(f, JSON.stringify(p)); return f; });
    const applied = await kubectl(kubeconfig, ['apply', ...files.flatMap((f) => ['-f', f])]);
    assert.is(applied.code, 0, applied.stderr);
    const want = expected();

    const all = await eventually('every pod with metrics', async () => {
      const r = await kubectl(kubeconfig, ['top', 'pods', '-A', '--no-headers']);
      return r.code === 0 && rows(r.stdout).length === PODS.length ? r.stdout : undefined;
    }, 60_000);
    const byPod = new Map(rows(all).map(([ns, name, cpu, memory]) => [`${ns}/${name}`, [cpu, memory]]));
    for (const [name, containers] of want) {
      const ns = containers[0]!.namespace;
      const cpuMilli = containers.reduce((a, c) => a + c.cpuMilli, 0);
      const memoryBytes = containers.reduce((a, c) => a + c.memoryBytes, 0);
      assert.equal(byPod.get(`${ns}/${name}`), [`${cpuMilli}m`, `${Math.floor(memoryBytes / MI)}Mi`], `${ns}/${name}`);
    }

    const headed = await kubectl(kubeconfig, ['top', 'pods']);
    assert.equal(rows(headed.stdout)[0], ['NAME', 'CPU(cores)', 'MEMORY(bytes)']);
    assert.equal(rows(headed.stdout).slice(1).map((r) => r[0]).sort(), ['capped', 'duo'], 'the default namespace only');

    const containers = await kubectl(kubeconfig, ['top', 'pod', 'duo', '--containers', '--no-headers']);
    assert.is(containers.code, 0, containers.stderr);
    assert.equal(rows(containers.stdout).sort(), want.get('duo')!.map((c) => ['duo', c.name, `${c.cpuMilli}m`, `${Math.floor(c.memoryBytes / MI)}Mi`]).sort());

    const nodes = JSON.parse((await kubectl(kubeconfig, ['get', 'nodes', '-o', 'json'])).stdout).items as { metadata: { name: string }; status: { allocatable: Record<string, string> } }[];
    const top = await kubectl(kubeconfig, ['top', 'nodes']);
    assert.is(top.code, 0, top.stderr);
    const [header, ...lines] = rows(top.stdout);
    assert.equal(header, ['NAME', 'CPU(cores)', 'CPU(%)', 'MEMORY(bytes)', 'MEMORY(%)']);
    const printed = new Map(lines.map(([name, ...rest]) => [name, rest]));
    for (const n of nodes) {
      const on = [...want.values()].flat().filter((c) => c.node === n.metadata.name);
      const cpuMilli = on.reduce((a, c) => a + c.cpuMilli, 0);
      const memoryBytes = on.reduce((a, c) => a + c.memoryBytes, 0);
      // kubectl's own arithmetic: the milli-values' ratio, truncated.
      const percent = (milli: number, allocatable: string) => `${Math.trunc((milli / (parseQuantity(allocatable) * 1000)) * 100)}%`;
      assert.equal(printed.get(n.metadata.name), [`${cpuMilli}m`, percent(cpuMilli, n.status.allocatable.cpu!),
        `${Math.floor(memoryBytes / MI)}Mi`, percent(memoryBytes * 1000, n.status.allocatable.memory!)], n.metadata.name);
    }

    // Who may view a namespace may see its metrics (the view role aggregates the metrics reader), and no other namespace's.
    assert.is((await kubectl(kubeconfig, ['create', 'rolebinding', 'jane-view', '--clusterrole=view', '--user=jane'])).code, 0);
    const jane = await kubectl(kubeconfig, ['top', 'pods', '--as=jane', '--no-headers']);
    assert.equal(rows(jane.stdout).map((r) => r[0]).sort(), ['capped', 'duo'], jane.stderr);
    const elsewhere = await kubectl(kubeconfig, ['top', 'pods', '-n', 'other', '--as=jane']);
    assert.match(elsewhere.stderr, /pods\.metrics\.k8s\.io is forbidden: User "jane" cannot list resource "pods" in API group "metrics\.k8s\.io" in the namespace "other"/);

    const missing = await kubectl(kubeconfig, ['top', 'node', 'nowhere']);
    assert.match(missing.stderr, /nodemetrics\.metrics\.k8s\.io "nowhere" not found/);
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
