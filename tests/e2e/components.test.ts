// The four components as separate processes, as a user starts them: `orchsim apiserver --bus`
// on a real nats-server, two `orchsim nodeagent`s (one with maxPods 2 from its --config file),
// `orchsim scheduler` and `orchsim controller-manager --node-monitor-grace-period=5s`. Each does
// its job, and the options change what they do: the node with maxPods 2 runs two of four pods
// pinned to it, and a killed node goes Unknown after about 5 s instead of the default 40 s.
// Then each stops on SIGTERM and exits 0, the controller manager releasing its Lease.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../actors/api/resources.ts';
import type { KObject } from '../../actors/api/types.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { busKubeconfig, fastAgentConfig, freePort, getInsecure, start, until, type Proc } from '../helpers/component-processes.ts';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const LEASES = lookupResource('coordination.k8s.io', 'v1', 'leases')!;

const ready = (node: KObject) => ((node.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready')?.status;
const pinnedPod = (name: string): KObject => ({
  metadata: { name, namespace: 'default' },
  spec: { nodeSelector: { 'kubernetes.io/hostname': 'node-a' }, containers: [{ name: 'c', image: 'registry.example/app:1', resources: { requests: { cpu: '10m', memory: '16Mi' } } }] },
});

let nats: NatsServer;
const procs: Proc[] = [];

test.before(async () => {
  nats = await startNatsServer();
});

test.after(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await nats.stop();
});

test('apiserver, nodeagents, scheduler and controller-manager as processes: each does its job, their options shape it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-components-'));
  const kubeconfig = await busKubeconfig(dir, nats.url);
  // Leases renewed every second and status every second, so a 5 s grace period is safe.
  const agentPort = await freePort();
  const configA = await fastAgentConfig(dir, 'a', { maxPods: 2, port: agentPort });
  const configB = await fastAgentConfig(dir, 'b');

  procs.push(start('apiserver', ['apiserver', `--bus=${nats.url}`, `--secure-port=${await freePort()}`, '--bind-address=127.0.0.1', `--cert-dir=${join(dir, 'certs')}`, '--seed=1']));
  await until('the API server', async () => (procs[0]!.lines.some((l) => l.includes('ready at')) ? true : undefined), procs);
  procs.push(start('node-a', ['nodeagent', `--orchconfig=${kubeconfig}`, '--hostname-override=node-a', `--config=${configA}`, `--cert-dir=${join(dir, 'pki')}`, '--node-labels=topology.kubernetes.io/zone=z1']));
  procs.push(start('node-b', ['nodeagent', `--orchconfig=${kubeconfig}`, '--hostname-override=node-b', `--config=${configB}`, '--node-labels=topology.kubernetes.io/zone=z2']));
  const [schedulerPort, cmPort] = [await freePort(), await freePort()];
  procs.push(start('scheduler', ['scheduler', `--master=${nats.url}`, `--secure-port=${schedulerPort}`, '--bind-address=127.0.0.1']));
  const cm = start('controller-manager', ['controller-manager', `--master=${nats.url}`, '--node-monitor-grace-period=5s', '--node-monitor-period=1s', `--secure-port=${cmPort}`, '--bind-address=127.0.0.1']);
  procs.push(cm);

  const bus = await NatsBus.connect({ servers: nats.url, name: 'components-test' });
  const client = new ApiClient(bus, 'components-test');
  try {
    await until('both nodes Ready', async () => {
      const nodes = (await client.list(NODES, undefined)).items;
      return nodes.length === 2 && nodes.every((n) => ready(n) === 'True') ? nodes : undefined;
    }, procs);
    const nodeA = await client.get(NODES, undefined, 'node-a');
    assert.is((nodeA.status as { allocatable: Record<string, string> }).allocatable.pods, '2', 'maxPods from the --config file');
    assert.is(nodeA.metadata.labels?.['topology.kubernetes.io/zone'], 'z1');

    // The scheduler binds what fits node-a; its agent runs them; the rest wait, unschedulable.
    for (let i = 0; i < 4; i++) await client.create(PODS, pinnedPod(`pinned-${i}`));
    const pods = await until('two pods running on node-a and two unschedulable', async () => {
      const items = (await client.list(PODS, 'default')).items;
      const running = items.filter((p) => (p.status as { phase?: string }).phase === 'Running');
      const waiting = items.filter((p) => ((p.status as { conditions?: { type: string; status: string; reason?: string }[] }).conditions ?? [])
        .some((c) => c.type === 'PodScheduled' && c.status === 'False' && c.reason === 'Unschedulable'));
      return running.length === 2 && waiting.length === 2 ? { running, waiting } : undefined;
    }, procs);
    assert.ok(pods.running.every((p) => (p.spec as { nodeName?: string }).nodeName === 'node-a'));

    // Each serves its health and its metrics over HTTPS on its secure port.
    const scheduler = await getInsecure(`https://127.0.0.1:${schedulerPort}`, '/metrics');
    assert.match(scheduler.body, /scheduler_schedule_attempts_total\{result="scheduled",profile="default-scheduler"\} 2/);
    assert.match(scheduler.body, /leader_election_master_status\{name="orch-scheduler"\} 1/);
    const manager = await getInsecure(`https://127.0.0.1:${cmPort}`, '/metrics');
    assert.match(manager.body, /leader_election_master_status\{name="orch-controller-manager"\} 1/);
    assert.match(manager.body, /workqueue_adds_total\{name="replicaset"\}/);
    assert.equal(await getInsecure(`https://127.0.0.1:${cmPort}`, '/healthz'), { status: 200, body: 'ok' });
    const agent = await getInsecure(`https://127.0.0.1:${agentPort}`, '/metrics');
    assert.match(agent.body, /nodeagent_running_pods 2/);

    // A node that dies goes Unknown after the controller manager's grace period: 5 s here, 40 s by default.
    const b = procs[2]!;
    b.child.kill('SIGKILL');
    const killedAt = performance.now();
    await until('node-b Unknown', async () => (ready(await client.get(NODES, undefined, 'node-b')) === 'Unknown' ? true : undefined), procs, 20_000);
    const tookMs = performance.now() - killedAt;
    assert.ok(tookMs < 15_000, `node-b went Unknown ${Math.round(tookMs)} ms after it died: sooner than the default grace period of 40 s allows`);
    assert.is(ready(await client.get(NODES, undefined, 'node-a')), 'True', 'the live node stays Ready');

    // SIGTERM: the controller manager stops, releasing its Lease; then every other component exits 0 too.
    assert.ok(cm.lines.some((l) => /leads orch-controller-manager/.test(l)), cm.lines.join('\n'));
    cm.child.kill('SIGTERM');
    assert.is(await cm.exited, 0);
    const lease = await client.get(LEASES, 'orch-system', 'orch-controller-manager');
    assert.not.ok((lease.spec as { holderIdentity?: string }).holderIdentity, `released: ${JSON.stringify(lease.spec)}`);
    for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGTERM');
    const codes = await Promise.all(procs.filter((p) => p !== b && p !== cm).map(async (p) => [p.name, await p.exited] as const));
    assert.equal(codes.filter(([, code]) => code !== 0), [], 'every component exits 0 on SIGTERM');
  } finally {
    await bus.close();
  }
});

test.run();
