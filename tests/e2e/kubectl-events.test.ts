// kubectl describe and kubectl events against `orchsim serve`: a Deployment created with kubectl
// rolls out, and the events its controllers, the scheduler and the node agent recorded on the
// way show where a real cluster shows them (describe lists them by field selector on the
// involved object; events lists the namespace's).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl as run } from '../helpers/real-time.ts';

/** The rows of the Events section of `kubectl describe` output: `[type, reason, from, message]`. */
function describedEvents(out: string): string[][] {
  const at = out.indexOf('\nEvents:');
  assert.ok(at >= 0, `no Events section in:\n${out}`);
  const rows = out.slice(at).split('\n').slice(4).filter((l) => l.trim() !== '');
  return rows.map((l) => {
    const [type, reason, ...rest] = l.trim().split(/\s{2,}/);
    return [type!, reason!, rest.at(-2)!, rest.at(-1)!];
  });
}

test('kubectl describe shows the events of a Deployment, its ReplicaSet and its pod, and kubectl events lists them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-events-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const kubectl = (args: string[]) => run(kubeconfig, ['--cache-dir', join(dir, 'cache'), ...args]);
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '3', '--nodes', '1'], 'serve', () => {});
  try {
    const created = await kubectl(['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=1']);
    assert.is(created.code, 0, created.stderr);
    const pod = await eventually('the pod Running', async () => {
      const r = await kubectl(['get', 'pods', '-l', 'app=web', '-o', 'json']);
      const p = (JSON.parse(r.stdout).items as { metadata: { name: string }; spec: { nodeName: string }; status: { phase: string } }[])[0];
      return p?.status.phase === 'Running' ? p : undefined;
    });
    const name = pod.metadata.name;
    const set = name.replace(/-[^-]+$/, '');
    // Events are written behind the work they record: wait until the last of the pod's is there.
    const podEvents = await eventually('the pod\'s events', async () => {
      const rows = describedEvents((await kubectl(['describe', 'pod', name])).stdout);
      return rows.some((r) => r[1] === 'Started') ? rows : undefined;
    });
    // kubectl sorts by lastTimestamp (the scheduler's events have none: first), and events of one second in no set order.
    const [scheduled, ...kubelet] = podEvents;
    assert.equal(scheduled, ['Normal', 'Scheduled', 'default-scheduler', `Successfully assigned default/${name} to ${pod.spec.nodeName}`]);
    const pulled = kubelet.find((r) => r[1] === 'Pulled')![3]!;
    assert.match(pulled, /^Successfully pulled image "nginx:1\.27" in [\d.]+m?s \([\d.]+m?s including waiting\)\. Image size: \d+ bytes\.$/);
    assert.equal(kubelet.map((r) => r.join(' ')).sort(), [
      'Normal Created kubelet Created container: nginx', `Normal Pulled kubelet ${pulled}`, 'Normal Pulling kubelet Pulling image "nginx:1.27"',
      'Normal Started kubelet Started container nginx',
    ]);

    const deployment = describedEvents((await kubectl(['describe', 'deployment', 'web'])).stdout);
    assert.equal(deployment, [['Normal', 'ScalingReplicaSet', 'deployment-controller', `Scaled up replica set ${set} from 0 to 1`]]);
    const replicaSet = describedEvents((await kubectl(['describe', 'replicaset', set])).stdout);
    assert.equal(replicaSet, [['Normal', 'SuccessfulCreate', 'replicaset-controller', `Created pod: ${name}`]]);

    const listed = await kubectl(['events']);
    assert.is(listed.code, 0, listed.stderr);
    const lines = listed.stdout.trim().split('\n');
    assert.match(lines[0]!, /^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    for (const [reason, object] of [['ScalingReplicaSet', `Deployment/web`], ['SuccessfulCreate', `ReplicaSet/${set}`], ['Scheduled', `Pod/${name}`],
      ['Started', `Pod/${name}`], ['Starting', `Node/${pod.spec.nodeName}`], ['RegisteredNode', `Node/${pod.spec.nodeName}`]])
      assert.ok(lines.some((l) => new RegExp(`\\sNormal\\s+${reason}\\s+${object}\\s`).test(l)), `${reason} on ${object} in:\n${listed.stdout}`);
    const forPod = await kubectl(['events', '--for', `pod/${name}`]);
    assert.is(forPod.code, 0, forPod.stderr);
    assert.equal(forPod.stdout.trim().split('\n').slice(1).map((l) => l.split(/\s{2,}/)[2]).sort(),
      ['Created', 'Pulled', 'Pulling', 'Scheduled', 'Started'], forPod.stdout);

    const describedNode = (await kubectl(['describe', 'node', pod.spec.nodeName])).stdout;
    const node = describedEvents(describedNode);
    assert.ok(node.some(([, reason, from]) => reason === 'Starting' && from === 'kubelet'), JSON.stringify(node));
    assert.ok(node.some(([, reason, from]) => reason === 'RegisteredNode' && from === 'node-controller'), 'the controller\'s event, under the node\'s uid, is found too');
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
