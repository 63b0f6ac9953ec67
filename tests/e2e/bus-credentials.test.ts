// The bus is authorized too (issue 21), as a user sets it up: `orchsim credentials` writes the
// files, nats-server runs with its configuration, and each component runs with its own kubeconfig
// against `orchsim apiserver --token-auth-file tokens.csv --authorization-mode RBAC,Node`. A NATS
// client without credentials cannot connect, so reads nothing; node n1's NATS user is refused
// every subject that is not its own; the cluster still does its work (n1 registers and turns
// Ready, a Deployment's pods are scheduled and run, each controller as its own service account
// under --use-service-account-credentials); and n1's credentials read neither another
// node's pods nor a Secret its pods do not use, but do read the one they use.
import { execFile } from 'node:child_process';
import { appendFile, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parse } from 'yaml';
import { lookupResource } from '../../actors/api/resources.ts';
import { StatusError } from '../../actors/api/status.ts';
import type { KObject } from '../../actors/api/types.ts';
import { ApiClient } from '../../actors/client/client.ts';
import { CredentialedBus } from '../../actors/client/credentials.ts';
import { BusAuthorizationError, type BusPermissionError } from '../../transport/bus.ts';
import { NatsBus } from '../../transport/nats-bus.ts';
import { CLI, fastAgentConfig, freePort, start, until, type Proc } from '../helpers/component-processes.ts';
import { checkNatsConfig, startNatsServer, type NatsServer } from '../helpers/nats-server.ts';
import { eventually } from '../helpers/real-time.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const SECRETS = lookupResource('', 'v1', 'secrets')!;
const ADMIN_TOKEN = 'e2e-admin-token-not-a-secret';

let dir: string;
let nats: NatsServer;
let apiPort: number;
const procs: Proc[] = [];
const buses: NatsBus[] = [];

interface KubeUser { username: string; password: string; token?: string }
const userOf = async (component: string): Promise<KubeUser> =>
  (parse(await readFile(join(dir, `${component}.kubeconfig`), 'utf8')) as { users: { user: KubeUser }[] }).users[0]!.user;

/** A NATS connection as a component's user, its refusals collected. */
async function connectAs(component: string): Promise<{ bus: NatsBus; refused: BusPermissionError[] }> {
  const { username, password } = await userOf(component);
  const refused: BusPermissionError[] = [];
  const bus = await NatsBus.connect({ servers: nats.url, user: username, pass: password, inboxPrefix: `_INBOX_${username}`, onPermissionError: (e) => refused.push(e) });
  buses.push(bus);
  return { bus, refused };
}

/** The administrator, over HTTPS with its token (it has no NATS user): status and body. */
async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }> {
  const ca = await readFile(join(dir, 'certs', 'apiserver.crt'), 'utf8');
  const data = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((done, fail) => {
    request({ host: '127.0.0.1', port: apiPort, path, method, ca,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(data ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d)).on('end', () => done({ status: res.statusCode ?? 0, body: text }));
    }).on('error', fail).end(data);
  });
}

async function created(path: string, body: unknown): Promise<void> {
  const r = await admin('POST', path, body);
  assert.is(r.status, 201, `POST ${path}: ${r.body}`);
}

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'orchsim-bus-credentials-'));
  const port = await freePort();
  await promisify(execFile)('node', [CLI, 'credentials', '--out', join(dir), '--bus', `nats://127.0.0.1:${port}`, '--nodes', 'n1,n2']);
  // A person's token beside the components': the administrator who sets the cluster up.
  await appendFile(join(dir, 'tokens.csv'), `${ADMIN_TOKEN},e2e-admin,e2e-admin,"system:masters"\n`);
  nats = await startNatsServer({ port, config: join(dir, 'nats-server.conf') });
});

test.after(async () => {
  for (const b of buses) await b.close();
  for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await nats?.stop();
});

test('nats-server accepts the configuration orchsim credentials wrote', () => {
  const check = checkNatsConfig(join(dir, 'nats-server.conf'));
  assert.ok(check.valid, check.output);
});

test('a NATS client without credentials cannot connect, so reads no object and no event', async () => {
  const refused = await NatsBus.connect({ servers: nats.url, name: 'anonymous' }).then(() => undefined, (e: unknown) => e);
  assert.instance(refused, BusAuthorizationError);
  assert.match((refused as Error).message, /refused a connection without credentials \(authorization violation\)/);
});

test('node n1\'s NATS user may not hear another node\'s pods, every event, the change feed or another inbox, nor publish events', async () => {
  const { bus, refused } = await connectAs('node-n1');
  const denied = ['orch.w.core.pods.n.n2', 'orch.w.>', 'orch.api.changes', '_INBOX_node-n2.>', 'orch.w.core.secrets.o.default.*'];
  const subs = [...denied.map((subject) => bus.subscribe(subject, () => assert.unreachable(`a message on ${subject}`))),
    bus.subscribe('orch.w.core.pods.n.n1', () => {}), bus.subscribe('orch.w.progress', () => {})];
  bus.publish('orch.w.core.pods.o.default.forged', new Uint8Array([1]));
  const wanted = [...denied.map((s) => `subscribe ${s}`), 'publish orch.w.core.pods.o.default.forged'].sort();
  const seen = () => refused.map((e) => `${e.operation} ${e.subject}`).sort();
  await eventually('every refusal reported', async () => (seen().length >= wanted.length ? true : undefined), 5_000);
  await bus.flush(); // nothing more comes: n1's own pods and the progress subject are allowed
  assert.equal(seen(), wanted);
  assert.ok(refused.every((e) => e.user === 'node-n1' && e.message.includes('its permissions in the server\'s configuration do not allow it')));
  for (const sub of subs) sub.unsubscribe();
});

test('a component without credentials, with a wrong password or with another node\'s says so and exits', async () => {
  const wrong = join(dir, 'wrong.kubeconfig');
  await writeFile(wrong, (await readFile(join(dir, 'scheduler.kubeconfig'), 'utf8')).replace(/password: .*/, 'password: guessed'));
  const cases: [string, string[], number, RegExp][] = [
    ['no credentials', ['scheduler', `--master=${nats.url}`, '--secure-port=0'], 1,
      /refused a connection without credentials \(authorization violation\).*give the component a kubeconfig with its NATS user and password/],
    ['a wrong password', ['scheduler', `--orchconfig=${wrong}`, '--secure-port=0'], 1,
      /refused user "scheduler" \(authorization violation\).*wrong\.kubeconfig and the server's nats-server\.conf must come from the same run of orchsim credentials/],
    ['another node\'s', ['nodeagent', `--orchconfig=${join(dir, 'node-n2.kubeconfig')}`, '--hostname-override=n1'], 2,
      /its NATS user is node-n2, not this node's \(node-n1\): give node n1's kubeconfig/],
  ];
  for (const [what, argv, code, says] of cases) {
    const p = start(what, argv);
    assert.is(await p.exited, code, `${what}: ${p.lines.join('\n')}`);
    assert.match(p.lines.join('\n'), says, what);
  }
});

test('the components run with their credentials; n1\'s reach only its own pods and the Secrets they use', async () => {
  apiPort = await freePort();
  const kubeconfig = (c: string) => `--orchconfig=${join(dir, `${c}.kubeconfig`)}`;
  procs.push(start('apiserver', ['apiserver', `--bus-kubeconfig=${join(dir, 'apiserver.kubeconfig')}`, `--token-auth-file=${join(dir, 'tokens.csv')}`,
    `--service-account-issuer=https://kubernetes.default.svc.cluster.local`, `--service-account-signing-key-file=${join(dir, 'service-account.key')}`,
    '--authorization-mode=RBAC,Node', `--secure-port=${apiPort}`, '--bind-address=127.0.0.1', `--cert-dir=${join(dir, 'certs')}`, '--seed=1']));
  await until('the API server', async () => (procs[0]!.lines.some((l) => l.includes('ready at')) ? true : undefined), procs);
  procs.push(start('node-n1', ['nodeagent', kubeconfig('node-n1'), '--hostname-override=n1', `--config=${await fastAgentConfig(dir, 'n1')}`]));
  // The scheduler's connection file as its configuration names it (its --orchconfig is deprecated).
  const schedulerConfig = join(dir, 'scheduler.yaml');
  await writeFile(schedulerConfig, `apiVersion: scheduler.config.orch.io/v1\nkind: SchedulerConfiguration\nclientConnection:\n  kubeconfig: ${join(dir, 'scheduler.kubeconfig')}\n`);
  procs.push(start('scheduler', ['scheduler', `--config=${schedulerConfig}`, '--secure-port=0']));
  // Each controller as its own service account, whose token the manager gets with its own credentials.
  procs.push(start('controller-manager', ['controller-manager', kubeconfig('controller-manager'), '--use-service-account-credentials', '--secure-port=0']));

  await until('node n1 Ready', async () => {
    const r = await admin('GET', '/api/v1/nodes/n1');
    const conditions = r.status === 200 ? (JSON.parse(r.body) as KObject & { status: { conditions?: { type: string; status: string }[] } }).status.conditions : undefined;
    return conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ? true : undefined;
  }, procs);

  for (const name of ['used', 'unused'])
    await created('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name }, data: { password: Buffer.from(name).toString('base64') } });
  await created('/apis/apps/v1/namespaces/default/deployments', {
    apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' },
    spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{
      name: 'web', image: 'registry.example/web:1', resources: { requests: { cpu: '10m', memory: '16Mi' } },
      env: [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'used', key: 'password' } } }],
    }] } } },
  });
  await until('the Deployment\'s two pods Running on n1', async () => {
    const r = await admin('GET', '/api/v1/namespaces/default/pods?labelSelector=app%3Dweb');
    const pods = (JSON.parse(r.body) as { items: (KObject & { spec: { nodeName?: string }; status: { phase?: string } })[] }).items;
    return pods.length === 2 && pods.every((p) => p.spec.nodeName === 'n1' && p.status.phase === 'Running') ? true : undefined;
  }, procs);

  // The pods exist, so the replica set controller created them as its service account: the manager's own role may not.
  const accounts = JSON.parse((await admin('GET', '/api/v1/namespaces/orch-system/serviceaccounts')).body) as { items: KObject[] };
  const names = accounts.items.map((a) => a.metadata.name);
  for (const sa of ['replicaset-controller', 'deployment-controller', 'node-controller', 'generic-garbage-collector']) assert.ok(names.includes(sa), `${sa} in ${names}`);
  const review = await admin('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
    spec: { user: 'system:kube-controller-manager', resourceAttributes: { verb: 'create', resource: 'pods', namespace: 'default' } } });
  assert.is(JSON.parse(review.body).status.allowed, false, 'the manager itself may not create pods');

  // n1's credentials over NATS, as its agent uses them: its NATS user, its token on each request.
  const { bus } = await connectAs('node-n1');
  const n1 = new ApiClient(new CredentialedBus(bus, (await userOf('node-n1')).token!), 'e2e-node-n1');
  const refusal = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => (e instanceof StatusError ? e.code : e));
  assert.is(await refusal(n1.list(PODS, undefined, { fieldSelector: 'spec.nodeName=n2' })), 403, 'another node\'s pods');
  const backlog = await n1.changes({ group: '', version: 'v1', resource: 'pods', nodeName: 'n2', after: 0 });
  assert.is('status' in backlog ? backlog.status.code : 200, 403, 'another node\'s pods\' changes');
  assert.is(await refusal(n1.get(SECRETS, 'default', 'unused')), 403, 'a Secret no n1 pod uses');
  const used = await n1.get(SECRETS, 'default', 'used');
  assert.is(used.metadata.name, 'used', 'the Secret its pod uses');
  assert.is((await n1.list(PODS, undefined, { fieldSelector: 'spec.nodeName=n1' })).items.length, 2, 'its own pods');

  // The permissions fit what the components do: none of them was refused a subject.
  for (const p of procs) assert.not.ok(p.lines.some((l) => l.includes('does not let user')), `${p.name} was refused:\n${p.lines.join('\n')}`);
  for (const p of procs) p.child.kill('SIGTERM');
  const codes = await Promise.all(procs.map(async (p) => [p.name, await p.exited] as const));
  assert.equal(codes.filter(([, code]) => code !== 0), [], 'every component exits 0 on SIGTERM');
});

test.run();
