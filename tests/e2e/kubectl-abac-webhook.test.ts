// kubectl (the one on PATH) against the real HTTPS server authorizing with ABAC, then with a
// Webhook: the documentation's policy file lets its users do what it says and nothing more, and
// `auth can-i` answers from it; a real HTTPS webhook receives the SubjectAccessReviews of kubectl's
// requests, and its allow and deny are what kubectl sees.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestServer, type TestServer } from '../helpers/api-server.ts';
import { startWebhookServer, type WebhookServer } from '../helpers/webhook-server.ts';

const policy = (spec: object) => JSON.stringify({ apiVersion: 'abac.authorization.kubernetes.io/v1beta1', kind: 'Policy', spec });
const token = () => randomBytes(16).toString('hex');
const person = (username: string) => ({ username, groups: ['system:authenticated'] });

type AbacCtx = { s: TestServer; alice: string; bob: string };
const abac = suite<AbacCtx>('kubectl under ABAC');

abac.before(async (ctx) => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-abac-e2e-'));
  const file = join(dir, 'policy.jsonl');
  writeFileSync(file, [
    '# The documentation\'s examples, with a namespace name one can create.',
    policy({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*' }),
    policy({ user: 'bob', namespace: 'project-caribou', resource: 'pods', readonly: true }),
    '',
    '# kubectl discovers resources at /api and /apis, and asks access and rules reviews for can-i.',
    policy({ group: 'system:authenticated', readonly: true, nonResourcePath: '*' }),
    policy({ group: 'system:authenticated', namespace: '*', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }),
    policy({ group: 'system:authenticated', namespace: '*', apiGroup: 'authorization.k8s.io', resource: 'selfsubjectrulesreviews' }),
  ].join('\n'));
  ctx.alice = token();
  ctx.bob = token();
  ctx.s = await startTestServer({ authorizationMode: ['ABAC'], authorizationPolicyFile: file,
    tokens: new Map([[ctx.alice, person('alice')], [ctx.bob, person('bob')]]) });
});
abac.after(async (ctx) => {
  await ctx.s.stop();
});

abac('alice does anything anywhere; bob only reads pods in project-caribou', async (ctx) => {
  const as = (t: string, args: string[]) => ctx.s.kubectl([`--token=${t}`, ...args]);
  const created = await as(ctx.alice, ['create', 'namespace', 'project-caribou']);
  assert.is(created.code, 0, created.stderr);
  assert.is((await as(ctx.alice, ['-n', 'project-caribou', 'run', 'web', '--image=nginx:1.27'])).code, 0);
  const pods = await as(ctx.bob, ['-n', 'project-caribou', 'get', 'pods', '-o', 'name']);
  assert.is(pods.code, 0, pods.stderr);
  assert.is(pods.stdout.trim(), 'pod/web');
  const del = await as(ctx.bob, ['-n', 'project-caribou', 'delete', 'pod', 'web']);
  assert.is(del.code, 1);
  assert.match(del.stderr, 'Error from server (Forbidden): pods "web" is forbidden: User "bob" cannot delete resource "pods" in API group "" in the namespace "project-caribou": No policy matched.');
  assert.match((await as(ctx.bob, ['-n', 'default', 'get', 'pods'])).stderr, 'User "bob" cannot list resource "pods" in API group "" in the namespace "default"');
});

abac('auth can-i answers from the policy file', async (ctx) => {
  const canI = async (t: string, args: string[]) => (await ctx.s.kubectl([`--token=${t}`, 'auth', 'can-i', ...args])).stdout.trim();
  assert.is(await canI(ctx.bob, ['-n', 'project-caribou', 'watch', 'pods']), 'yes');
  // kubectl shows the reason of a refusal after the answer.
  assert.is(await canI(ctx.bob, ['-n', 'project-caribou', 'create', 'pods']), 'no - No policy matched.');
  assert.is(await canI(ctx.bob, ['-n', 'project-caribou', 'get', 'secrets']), 'no - No policy matched.');
  assert.is(await canI(ctx.alice, ['delete', 'nodes']), 'yes');
  assert.is(await canI(ctx.alice, ['get', '/healthz']), 'yes');
  const list = await ctx.s.kubectl([`--token=${ctx.bob}`, '-n', 'project-caribou', 'auth', 'can-i', '--list']);
  assert.is(list.code, 0, list.stderr);
  assert.match(list.stdout, /^pods\s+\[\]\s+\[\]\s+\[get list watch\]$/m);
});

type HookCtx = { s: TestServer; hook: WebhookServer; carol: string; mallory: string };
const webhook = suite<HookCtx>('kubectl under a Webhook');

webhook.before(async (ctx) => {
  ctx.hook = await startWebhookServer();
  // The service's policy: authenticated users discover and ask reviews; carol reads pods; mallory is refused outright.
  ctx.hook.answer(({ body }) => {
    const { user, nonResourceAttributes: path, resourceAttributes: res } = body.spec;
    if (user === 'mallory') return { status: { allowed: false, denied: true, reason: 'mallory is banned' } };
    if (path?.verb === 'get' || res?.resource === 'selfsubjectaccessreviews') return { status: { allowed: true } };
    if (user === 'carol' && res?.resource === 'pods' && ['get', 'list', 'watch'].includes(res.verb)) return { status: { allowed: true, reason: 'carol reads pods' } };
    return { status: { allowed: false } };
  });
  ctx.carol = token();
  ctx.mallory = token();
  ctx.s = await startTestServer({ authorizationMode: ['Webhook'], authorizationWebhookConfigFile: ctx.hook.kubeconfig(), authorizationWebhookVersion: 'v1',
    tokens: new Map([[ctx.carol, person('carol')], [ctx.mallory, person('mallory')]]) });
});
webhook.after(async (ctx) => {
  await ctx.s.stop();
  await ctx.hook.close();
});

webhook('kubectl\'s requests reach the webhook as SubjectAccessReviews, and its answers decide', async (ctx) => {
  const pods = await ctx.s.kubectl([`--token=${ctx.carol}`, '-n', 'default', 'get', 'pods']);
  assert.is(pods.code, 0, pods.stderr);
  const list = ctx.hook.received.find((r) => r.body.spec.resourceAttributes?.resource === 'pods');
  assert.ok(list, 'the list was reviewed');
  assert.equal(list.body.apiVersion, 'authorization.k8s.io/v1');
  assert.equal(list.body.spec.user, 'carol');
  assert.equal(list.body.spec.groups, ['system:authenticated']);
  assert.equal(list.body.spec.resourceAttributes, { namespace: 'default', verb: 'list', version: 'v1', resource: 'pods' });
  assert.ok(ctx.hook.received.some((r) => r.body.spec.nonResourceAttributes?.path === '/api'), 'discovery is reviewed as a path');
  const create = await ctx.s.kubectl([`--token=${ctx.carol}`, '-n', 'default', 'create', 'configmap', 'c']);
  assert.is(create.code, 1);
  assert.match(create.stderr, 'configmaps is forbidden: User "carol" cannot create resource "configmaps" in API group "" in the namespace "default"');
  const banned = await ctx.s.kubectl([`--token=${ctx.mallory}`, 'get', '--raw', '/version']);
  assert.is(banned.code, 1);
  assert.match(banned.stderr, 'forbidden: User "mallory" cannot get path "/version": mallory is banned');
});

webhook('auth can-i asks the webhook', async (ctx) => {
  const canI = async (args: string[]) => (await ctx.s.kubectl([`--token=${ctx.carol}`, 'auth', 'can-i', ...args])).stdout.trim();
  assert.is(await canI(['-n', 'default', 'watch', 'pods']), 'yes');
  assert.is(await canI(['-n', 'default', 'delete', 'pods']), 'no');
  assert.ok(ctx.hook.received.some((r) => r.body.spec.user === 'carol' && r.body.spec.resourceAttributes?.verb === 'delete'), 'the review was asked of the webhook');
});

abac.run();
webhook.run();
