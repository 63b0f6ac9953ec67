// PriorityClasses, ResourceQuotas and LimitRanges through the kubectl on PATH against `orchsim
// serve` (API server, controller manager with the resource quota controller, a simulated node):
// kubectl's typed create commands (Protobuf bodies), the admission plugins' refusals with the real
// messages, and what `get` and `describe` show.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../sim/cli/serve.ts';
import { eventually, freePort, kubectl } from '../helpers/real-time.ts';

const pod = (name: string, namespace: string, spec: Record<string, unknown> = {}, resources: Record<string, unknown> = {}) => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace }, spec: { containers: [{ name: 'app', image: 'nginx:1.27', resources }], ...spec },
});

test('kubectl creates priority classes and quotas, the server refuses what they forbid, and get and describe show them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-policy-'));
  const kubeconfig = join(dir, 'kubeconfig');
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '5', '--nodes', '1', '--zones', 'east', '--speed', '5'], 'serve', () => {});
  const k = (args: string[]) => kubectl(kubeconfig, [...args, '--cache-dir', join(dir, 'cache')]);
  const ok = async (args: string[]) => {
    const r = await k(args);
    assert.is(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const file = (name: string, obj: object) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(obj));
    return path;
  };
  try {
    // PriorityClasses: kubectl create sends Protobuf; the system classes are there from the start.
    assert.is(await ok(['create', 'priorityclass', 'high', '--value=1000', '--global-default=false', '--description=for urgent work']),
      'priorityclass.scheduling.k8s.io/high created\n');
    const classes = (await ok(['get', 'priorityclasses'])).trim().split('\n').map((l) => l.split(/\s+/));
    assert.equal(classes[0], ['NAME', 'VALUE', 'GLOBAL-DEFAULT', 'AGE', 'PREEMPTIONPOLICY']);
    assert.equal(classes.slice(1).map((c) => [c[0], c[1], c[2], c[4]]), [
      ['high', '1000', 'false', 'PreemptLowerPriority'],
      ['system-cluster-critical', '2000000000', 'false', 'PreemptLowerPriority'],
      ['system-node-critical', '2000001000', 'false', 'PreemptLowerPriority'],
    ]);
    const unknown = await k(['create', '-f', file('unknown.json', pod('stray', 'default', { priorityClassName: 'gold' }))]);
    assert.is(unknown.code, 1);
    assert.match(unknown.stderr, 'pods "stray" is forbidden: no PriorityClass with name gold was found');
    await ok(['create', '-f', file('urgent.json', pod('urgent', 'default', { priorityClassName: 'high' }))]);
    assert.is(await ok(['get', 'pod', 'urgent', '-o', 'jsonpath={.spec.priority} {.spec.preemptionPolicy}']), '1000 PreemptLowerPriority');

    // A quota: counted by the controller, then enforced by admission.
    await ok(['create', 'namespace', 'team']);
    assert.is(await ok(['create', 'quota', 'q', '--hard=cpu=2,pods=2', '-n', 'team']), 'resourcequota/q created\n');
    await eventually('the quota counted', async () => ((await k(['get', 'quota', 'q', '-n', 'team', '-o', 'jsonpath={.status.used.pods}'])).stdout === '0' ? true : undefined));
    await ok(['create', '-f', file('p1.json', pod('p1', 'team', {}, { requests: { cpu: '500m' } }))]);
    await ok(['create', '-f', file('p2.json', pod('p2', 'team', {}, { requests: { cpu: '1' } }))]);
    const over = await k(['create', '-f', file('p3.json', pod('p3', 'team', {}, { requests: { cpu: '100m' } }))]);
    assert.is(over.code, 1);
    assert.match(over.stderr, 'pods "p3" is forbidden: exceeded quota: q, requested: pods=1, used: pods=2, limited: pods=2');
    const unstated = await k(['create', '-f', file('p4.json', pod('p4', 'team'))]);
    assert.match(unstated.stderr, 'pods "p4" is forbidden: failed quota: q: must specify cpu for: app');
    const table = (await ok(['get', 'quota', '-n', 'team'])).trim().split('\n');
    assert.equal(table[0]!.split(/\s{2,}/), ['NAME', 'AGE', 'REQUEST', 'LIMIT']);
    assert.match(table[1]!, /^q\s+\S+\s+cpu: 1500m\/2, pods: 2\/2\s*$/);
    const described = await ok(['describe', 'quota', 'q', '-n', 'team']);
    assert.match(described, /Name:\s+q\n/);
    assert.match(described, /Resource\s+Used\s+Hard\n/);
    assert.match(described, /\ncpu\s+1500m\s+2\n/);
    assert.match(described, /\npods\s+2\s+2\n/);

    // A LimitRange: its defaults fill a pod's containers.
    await ok(['create', 'namespace', 'limited']);
    await ok(['create', '-f', file('limits.json', { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'limited' },
      spec: { limits: [{ type: 'Container', default: { cpu: '300m', memory: '128Mi' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } }] } })]);
    await ok(['create', '-f', file('plain.json', pod('plain', 'limited'))]);
    assert.is(await ok(['get', 'pod', 'plain', '-n', 'limited', '-o', 'jsonpath={.spec.containers[0].resources}']),
      '{"limits":{"cpu":"300m","memory":"128Mi"},"requests":{"cpu":"100m","memory":"128Mi"}}');
    const big = await k(['create', '-f', file('big.json', pod('big', 'limited', {}, { limits: { cpu: '2' } }))]);
    assert.match(big.stderr, 'pods "big" is forbidden: maximum cpu usage per Container is 1, but limit is 2');
    const limits = await ok(['describe', 'limitrange', 'limits', '-n', 'limited']);
    assert.match(limits, /Type\s+Resource\s+Min\s+Max\s+Default Request\s+Default Limit\s+Max Limit\/Request Ratio\n/);
    assert.match(limits, /\nContainer\s+cpu\s+-\s+1\s+100m\s+300m\s+-\n/);
    assert.match(limits, /\nContainer\s+memory\s+-\s+-\s+128Mi\s+128Mi\s+-\n/);
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
