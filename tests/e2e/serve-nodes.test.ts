// `orchsim serve --nodes N` stands in for a cluster: kubectl sees Ready nodes spread over zones,
// a pod it creates is scheduled and runs, and a Deployment rolls out, rolls over and rolls back,
// is paused and resumed, with no other tool involved; its inspection log records the machines.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';

test('kubectl sees Ready simulated nodes, a pod it runs starts, a Deployment rolls out, over and back, paused and resumed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-serve-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const port = await freePort();
  const inspectLog = join(dir, 'inspect.jsonl');
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '7', '--nodes', '2', '--zones', 'east,west', '--inspect-log', inspectLog], 'serve', () => {});
  let records: { kind: string; id: string; from?: string; to?: string }[] = [];
  try {
    const nodes = await eventually('both nodes Ready and untainted', async () => {
      const r = await kubectl(kubeconfig, ['get', 'nodes', '-o', 'json']);
      const items = JSON.parse(r.stdout).items as { metadata: { name: string; labels: Record<string, string> }; spec: { taints?: unknown[] };
        status: { conditions: { type: string; status: string }[] } }[];
      const ready = items.filter((n) => n.status.conditions.some((c) => c.type === 'Ready' && c.status === 'True') && !(n.spec.taints ?? []).length);
      return ready.length === 2 ? items : undefined;
    });
    assert.equal(nodes.map((n) => n.metadata.name).sort(), ['node-0', 'node-1']);
    assert.equal(nodes.map((n) => n.metadata.labels['topology.kubernetes.io/zone']).sort(), ['east', 'west']);
    const run = await kubectl(kubeconfig, ['run', 'web', '--image=nginx:1.27', '--restart=Never']);
    assert.is(run.code, 0, run.stderr);
    const pod = await eventually('the pod Running', async () => {
      const r = await kubectl(kubeconfig, ['get', 'pod', 'web', '-o', 'json']);
      const p = JSON.parse(r.stdout) as { spec: { nodeName?: string }; status: { phase: string; podIP?: string } };
      return p.status.phase === 'Running' ? p : undefined;
    });
    assert.ok(['node-0', 'node-1'].includes(pod.spec.nodeName!), pod.spec.nodeName);
    assert.match(pod.status.podIP ?? '', /^10\.0\.[01]\.\d+$/);
    const wide = await kubectl(kubeconfig, ['get', 'pods', '-o', 'wide']);
    assert.match(wide.stdout, /web\s+1\/1\s+Running/);
    const deleted = await kubectl(kubeconfig, ['delete', 'pod', 'web', '--wait=true', '--timeout=30s']);
    assert.is(deleted.code, 0, deleted.stderr);

    // A Deployment rolls out and rolls over as kubectl expects of a real cluster's controllers.
    assert.is((await kubectl(kubeconfig, ['create', 'deployment', 'api', '--image=nginx:1', '--replicas=3'])).code, 0);
    const first = await kubectl(kubeconfig, ['rollout', 'status', 'deployment/api', '--timeout=30s']);
    assert.match(first.stdout, /deployment "api" successfully rolled out/, first.stderr);
    assert.is((await kubectl(kubeconfig, ['set', 'image', 'deployment/api', 'nginx=nginx:2'])).code, 0);
    const second = await kubectl(kubeconfig, ['rollout', 'status', 'deployment/api', '--timeout=60s']);
    assert.match(second.stdout, /deployment "api" successfully rolled out/, second.stderr);
    const sets = JSON.parse((await kubectl(kubeconfig, ['get', 'rs', '-o', 'json'])).stdout).items as { spec: { replicas: number; template: { spec: { containers: { image: string }[] } } } }[];
    assert.equal(sets.map((rs) => `${rs.spec.template.spec.containers[0]!.image}=${rs.spec.replicas}`).sort(), ['nginx:1=0', 'nginx:2=3']);
    const undo = await kubectl(kubeconfig, ['rollout', 'undo', 'deployment/api']);
    assert.is(undo.code, 0, undo.stderr);
    const third = await kubectl(kubeconfig, ['rollout', 'status', 'deployment/api', '--timeout=60s']);
    assert.match(third.stdout, /successfully rolled out/, third.stderr);
    const back = JSON.parse((await kubectl(kubeconfig, ['get', 'deployment', 'api', '-o', 'json'])).stdout) as { spec: { template: { spec: { containers: { image: string }[] } } } };
    assert.is(back.spec.template.spec.containers[0]!.image, 'nginx:1', 'rollout undo went back to the first template');

    // Paused, a new template waits: the controller sees it (observedGeneration) and makes no set for it; resumed, it rolls out.
    const images = async () => (JSON.parse((await kubectl(kubeconfig, ['get', 'rs', '-o', 'json'])).stdout).items as { spec: { template: { spec: { containers: { image: string }[] } } } }[])
      .map((rs) => rs.spec.template.spec.containers[0]!.image).sort();
    const before = await images();
    const pause = await kubectl(kubeconfig, ['rollout', 'pause', 'deployment/api']);
    assert.is(pause.code, 0, pause.stderr);
    assert.is((await kubectl(kubeconfig, ['set', 'image', 'deployment/api', 'nginx=nginx:3'])).code, 0);
    type Deployment = { metadata: { generation: number }; status: { observedGeneration?: number; conditions?: { type: string; status: string; reason: string }[] } };
    const progressing = (d: Deployment) => d.status.conditions?.find((c) => c.type === 'Progressing');
    await eventually('the paused Deployment observed with its new template', async () => {
      const d = JSON.parse((await kubectl(kubeconfig, ['get', 'deployment', 'api', '-o', 'json'])).stdout) as Deployment;
      return d.status.observedGeneration === d.metadata.generation && progressing(d)?.reason === 'DeploymentPaused' ? d : undefined;
    });
    assert.equal(await images(), before, 'no set for the template while paused');
    const resume = await kubectl(kubeconfig, ['rollout', 'resume', 'deployment/api']);
    assert.is(resume.code, 0, resume.stderr);
    const fourth = await kubectl(kubeconfig, ['rollout', 'status', 'deployment/api', '--timeout=60s']);
    assert.match(fourth.stdout, /successfully rolled out/, fourth.stderr);
    assert.equal(await images(), [...before, 'nginx:3']);
    const resumed = JSON.parse((await kubectl(kubeconfig, ['get', 'deployment', 'api', '-o', 'json'])).stdout) as Deployment;
    assert.equal([progressing(resumed)?.status, progressing(resumed)?.reason], ['True', 'NewReplicaSetAvailable']);
  } finally {
    await running.stop();
    records = readFileSync(inspectLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    rmSync(dir, { recursive: true, force: true });
  }
  // The machines on the wall clock: the nodes, the pod kubectl ran and deleted (its object machine
  // Terminating until its node agent removed it), the controllers; every actor stopped with the server.
  const started = new Set(records.filter((r) => r.kind === 'actor').map((r) => r.id));
  for (const id of ['apiserver', 'node/node-0', 'node/node-1', 'node-health/node-0', 'scheduler/default-scheduler', 'controller/deployment-controller', 'pod/default/web'])
    assert.ok(started.has(id), id);
  assert.equal(records.filter((r) => r.id === 'object/pods/default/web' && r.kind === 'transition').map((r) => `${r.from}→${r.to}`),
    ['Live→Terminating', 'Terminating→Removed']);
  const stopped = new Set(records.filter((r) => r.kind === 'stop').map((r) => r.id));
  assert.equal([...started].filter((id) => id.startsWith('node/') && !stopped.has(id)), [], 'the nodes stopped with the server');
});

test.run();
