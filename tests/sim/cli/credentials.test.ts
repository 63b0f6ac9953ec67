// `orchsim credentials` as a user runs it: a new directory, owner-only, with a nats-server
// configuration nats-server itself accepts, the components' token file the API server reads, and a
// kubeconfig per component; every secret fresh from one run to the next; bad input stops it with
// a message naming what was wrong, before anything is written.
import { createPrivateKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { OptionError } from '../../../actors/api/options/table.ts';
import { parseTokenFile } from '../../../actors/apiserver/auth/authenticator.ts';
import { credentialsCommand } from '../../../sim/cli/credentials.ts';
import { checkNatsConfig } from '../../helpers/nats-server.ts';

const BUS = 'nats://127.0.0.1:4222';
const NODES = ['n1', 'n2.example.com'];
const FILES = ['apiserver.kubeconfig', 'controller-manager.kubeconfig', 'nats-server.conf', 'node-n1.kubeconfig', 'node-n2.example.com.kubeconfig', 'scheduler.kubeconfig', 'service-account.key', 'tokens.csv'];

interface KubeUser { username: string; password: string; token?: string }
const kubeconfigOf = (dir: string, user: string) =>
  parse(readFileSync(join(dir, `${user}.kubeconfig`), 'utf8')) as { clusters: { cluster: { server: string } }[]; users: { user: KubeUser }[] };

function scratch(): { root: string; out: string } {
  const root = mkdtempSync(join(tmpdir(), 'orchsim-credentials-'));
  return { root, out: join(root, 'creds') };
}

const run = (...argv: string[]) => credentialsCommand(argv, () => {});

test('it writes the configuration, the token file and a kubeconfig per component, owner-only', () => {
  const { root, out } = scratch();
  try {
    assert.is(run('--out', out, '--bus', BUS, '--nodes', NODES.join(',')), 0);
    assert.equal(readdirSync(out).sort(), FILES);
    assert.is(statSync(out).mode & 0o777, 0o700);
    for (const f of FILES) assert.is(statSync(join(out, f)).mode & 0o777, 0o600, f);

    const check = checkNatsConfig(join(out, 'nats-server.conf'));
    assert.ok(check.valid, check.output);
    const key = createPrivateKey(readFileSync(join(out, 'service-account.key')));
    assert.equal([key.asymmetricKeyType, key.asymmetricKeyDetails?.modulusLength], ['rsa', 2048], 'a signing key for service-account tokens');

    const tokens = parseTokenFile(readFileSync(join(out, 'tokens.csv'), 'utf8'));
    const users = [...tokens.values()].map((u) => `${u.username} ${u.groups.join(',')}`).sort();
    assert.equal(users, ['system:kube-controller-manager system:authenticated', 'system:kube-scheduler system:authenticated',
      'system:node:n1 system:nodes,system:authenticated', 'system:node:n2.example.com system:nodes,system:authenticated']);

    const n1 = kubeconfigOf(out, 'node-n1');
    assert.is(n1.clusters[0]!.cluster.server, BUS);
    assert.is(n1.users[0]!.user.username, 'node-n1');
    assert.is(tokens.get(n1.users[0]!.user.token!)?.username, 'system:node:n1', 'its token is the node\'s');
    const conf = readFileSync(join(out, 'nats-server.conf'), 'utf8');
    assert.ok(conf.includes(`user: "node-n1", password: "${n1.users[0]!.user.password}"`), 'its NATS password is the one the server knows');
    const api = kubeconfigOf(out, 'apiserver').users[0]!.user;
    assert.equal([api.username, api.token], ['apiserver', undefined], 'the API server has a NATS user and no API token');
    // The dotted node's subjects and inbox are escaped as subject tokens: no other user's pattern reaches them.
    assert.ok(conf.includes('"orch.w.core.pods.n.n2%2Eexample%2Ecom"') && conf.includes('"_INBOX_node-n2%2Eexample%2Ecom.>"'), conf);
    assert.ok(conf.includes('listen: "127.0.0.1:4222"'));
    // Secrets' subjects (their metadata) are the controller manager's alone, beside the API server.
    const denies = (user: string) => conf.split('user: ').find((u) => u.startsWith(`"${user}"`))!.includes('"orch.w.core.secrets.>"');
    assert.equal(['scheduler', 'controller-manager', 'node-n1'].map(denies), [true, false, true]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('every run makes fresh secrets', () => {
  const [a, b] = [scratch(), scratch()];
  try {
    for (const s of [a, b]) run('--out', s.out, '--bus', BUS, '--nodes', 'n1');
    const secrets = (s: { out: string }) => ['apiserver', 'scheduler', 'controller-manager', 'node-n1'].flatMap((u) => {
      const { password, token } = kubeconfigOf(s.out, u).users[0]!.user;
      return token ? [password, token] : [password];
    });
    const all = [...secrets(a), ...secrets(b)];
    assert.is(new Set(all).size, all.length, 'no secret repeats, within a run or across runs');
    assert.ok(all.every((x) => x.length >= 43), 'each is 32 random bytes');
  } finally {
    for (const s of [a, b]) rmSync(s.root, { recursive: true, force: true });
  }
});

test('bad input says what was wrong and writes nothing', () => {
  const { root, out } = scratch();
  try {
    const busy = join(root, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    const file = join(root, 'file');
    writeFileSync(file, '');
    const cases: [string[], RegExp][] = [
      [['--bus', BUS, '--nodes', 'n1'], /^--out is required/],
      [['--out', out, '--nodes', 'n1'], /^--bus is required/],
      [['--out', out, '--bus', BUS], /^--nodes is required/],
      [['--out', out, '--bus', 'http://127.0.0.1:4222', '--nodes', 'n1'], /--bus: must be nats:\/\/HOST:PORT/],
      [['--out', out, '--bus', BUS, '--nodes', 'n1,Node_2'], /node "Node_2" is not a valid node name: a lowercase RFC 1123 subdomain/],
      [['--out', out, '--bus', BUS, '--nodes', 'n1,n1'], /node "n1" is named twice/],
      [['--out', busy, '--bus', BUS, '--nodes', 'n1'], /already holds notes\.txt: credentials are written into a new or empty directory/],
      [['--out', file, '--bus', BUS, '--nodes', 'n1'], /is a file: give a new or empty directory/],
    ];
    for (const [argv, says] of cases) {
      const e = (() => { try { run(...argv); } catch (x) { return x; } })();
      assert.instance(e, OptionError, argv.join(' '));
      assert.match((e as Error).message, says);
    }
    assert.equal(readdirSync(root).sort(), ['busy', 'file'], 'nothing was written');
    assert.equal(readdirSync(busy), ['notes.txt']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
