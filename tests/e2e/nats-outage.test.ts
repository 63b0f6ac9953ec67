// A NATS server outage under components that run as processes: the nats-server stops for longer
// than the controller manager's renew deadline (10 s) and than the node grace period (5 s here),
// then comes back on the same port. Every component reconnects by itself; the controller manager,
// unable to renew, steps down and is elected again; its new term gives the node a fresh grace
// period, as the real controller does, so the node is not tainted and its pod keeps running.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../actors/api/resources.ts';
import type { KObject } from '../../actors/api/types.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { busKubeconfig, fastAgentConfig, freePort, start, until, type Proc } from '../helpers/component-processes.ts';
import { startNatsServer, type NatsServer } from '../helpers/nats-server.ts';

const NODES = lookupResource('', 'v1', 'nodes')!;
const PODS = lookupResource('', 'v1', 'pods')!;
const SERVICE_ACCOUNTS = lookupResource('', 'v1', 'serviceaccounts')!;
const OUTAGE_MS = 12_000;

const procs: Proc[] = [];
let nats: NatsServer | undefined;

test.after(async () => {
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await nats?.stop();
});

const condition = (o: KObject, type: string) => ((o.status as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? []).find((c) => c.type === type)?.status;
const taints = (node: KObject) => ((node.spec as { taints?: { key: string }[] } | undefined)?.taints ?? []).map((t) => t.key);

test('every component rides out a 12 s NATS outage: the leader steps down and is elected again, the node keeps its pod', async () => {
  const first = await startNatsServer();
  nats = first;
  const port = Number(new URL(first.url).port);
  const dir = await mkdtemp(join(tmpdir(), 'orchsim-outage-'));
  const kubeconfig = await busKubeconfig(dir, first.url);
  procs.push(start('apiserver', ['apiserver', `--bus=${first.url}`, `--secure-port=${await freePort()}`, '--bind-address=127.0.0.1', `--cert-dir=${join(dir, 'certs')}`, '--seed=2']));
  await until('the API server', async () => (procs[0]!.lines.some((l) => l.includes('ready at')) ? true : undefined), procs);
  procs.push(start('node-a', ['nodeagent', `--orchconfig=${kubeconfig}`, '--hostname-override=node-a', `--config=${await fastAgentConfig(dir, 'a')}`]));
  procs.push(start('scheduler', ['scheduler', `--master=${first.url}`, '--secure-port=0']));
  const cm = start('controller-manager', ['controller-manager', `--master=${first.url}`, '--node-monitor-grace-period=5s', '--node-monitor-period=1s', '--secure-port=0']);
  procs.push(cm);

  let bus = await NatsBus.connect({ servers: first.url, name: 'outage-test' });
  try {
    const client = new ApiClient(bus, 'outage-test');
    // As a user waits for a new cluster: its controller manager makes the default service account pods run as.
    await until('the default service account', async () => ((await client.get(SERVICE_ACCOUNTS, 'default', 'default').catch(() => undefined)) ? true : undefined), procs);
    await client.create(PODS, { metadata: { name: 'survivor', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'registry.example/app:1' }] } });
    await until('the pod running on node-a', async () => {
      const pod = await client.get(PODS, 'default', 'survivor');
      return (pod.status as { phase?: string }).phase === 'Running' ? pod : undefined;
    }, procs);
    const leadsBefore = cm.lines.filter((l) => /leads orch-controller-manager/.test(l)).length;
    assert.is(leadsBefore, 1);
  } finally {
    await bus.close();
  }

  await first.stop();
  await new Promise((r) => setTimeout(r, OUTAGE_MS));
  nats = await startNatsServer({ port });
  bus = await NatsBus.connect({ servers: nats.url, name: 'outage-test' });
  try {
    const client = new ApiClient(bus, 'outage-test');
    await until('the controller manager elected again', async () => (cm.lines.some((l) => /no longer leads/.test(l)) && cm.lines.filter((l) => /leads orch-controller-manager/.test(l)).length >= 2 ? true : undefined), procs, 40_000);
    // Its new term watches the node for a full grace period and more: the node stays Ready, untainted.
    await new Promise((r) => setTimeout(r, 8_000));
    const node = await client.get(NODES, undefined, 'node-a');
    assert.is(condition(node, 'Ready'), 'True', `${JSON.stringify(node.status)}\n${procs.map((p) => `--- ${p.name}\n${p.lines.slice(-12).join('\n')}`).join('\n')}`);
    assert.equal(taints(node).filter((k) => k.startsWith('node.kubernetes.io/')), []);
    const pod = await client.get(PODS, 'default', 'survivor');
    assert.is((pod.status as { phase?: string }).phase, 'Running');
    assert.is(condition(pod, 'Ready'), 'True');
    assert.is(pod.metadata.deletionTimestamp, undefined, 'not evicted');
    for (const p of procs) p.child.kill('SIGTERM');
    const codes = await Promise.all(procs.map(async (p) => [p.name, await p.exited] as const));
    assert.equal(codes.filter(([, code]) => code !== 0), [], 'every component exits 0 on SIGTERM after the outage');
  } finally {
    await bus.close();
  }
});

test.run();
