// The Webhook mode against a real HTTPS webhook on a loopback port: the SubjectAccessReview it
// receives (v1 and v1beta1), its allow, deny and no-opinion answers, the cache on the server's
// clock (a repeat within the TTL never reaches the webhook, one after it does), and every way it
// can fail giving no opinion with an evaluation error, so the next mode decides.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { authorizerFor, type Answer, type AuthorizationAttributes, type Decision } from '../../../../actors/apiserver/auth/authorizer.ts';
import { WebhookAuthorizer, type ReviewVersion } from '../../../../actors/apiserver/auth/webhook-authorizer.ts';
import { readWebhookConfig } from '../../../../actors/apiserver/auth/webhook-config.ts';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../../helpers/in-process-server.ts';
import { freePort } from '../../../helpers/real-time.ts';
import { manualClock, type ManualClock } from '../../../helpers/manual-clock.ts';
import { startWebhookServer, type WebhookServer } from '../../../helpers/webhook-server.ts';

const JANE = { username: 'jane', uid: 'u-1', groups: ['group1', 'system:authenticated'] };
const GET_POD: AuthorizationAttributes = { user: JANE, verb: 'get', namespace: 'kittensandponies', apiGroup: '', version: 'v1', resource: 'pods', name: 'p1' };
const TTL = { authorizedTtlMs: 300_000, unauthorizedTtlMs: 30_000 };

interface World { hook: WebhookServer; clock: ManualClock; authorizer: WebhookAuthorizer }

interface Setup { version?: ReviewVersion; kubeconfig?: Parameters<WebhookServer['kubeconfig']>[0]; ttl?: typeof TTL }

async function world({ version = 'v1', kubeconfig = {}, ttl = TTL }: Setup): Promise<World> {
  const hook = await startWebhookServer();
  const clock = manualClock();
  const authorizer = new WebhookAuthorizer({ endpoint: readWebhookConfig(hook.kubeconfig(kubeconfig)), version, ...ttl, clock });
  return { hook, clock, authorizer };
}

/** A test against a fresh webhook (v1, a client certificate, the default TTLs unless `setup` says), closed after it whatever happens. */
function withWebhook(name: string, body: (w: World) => Promise<void>, setup: Setup = {}): void {
  test(name, async () => {
    const w = await world(setup);
    try {
      await body(w);
    } finally {
      await w.hook.close();
    }
  });
}

/** Only the review's own answer: a promise means the webhook was asked. */
const asked = (a: Answer) => a instanceof Promise;

withWebhook('a v1 review names the user, its groups and uid, and every attribute of the request', async ({ hook, authorizer }) => {
  hook.answer(() => ({ status: { allowed: true, reason: 'jane reads pods' } }));
  assert.equal(await authorizer.authorize({ ...GET_POD, subresource: 'log' }), { decision: 'allow', reason: 'jane reads pods' });
  const review = hook.received[0]!;
  assert.is(review.path, '/authorize');
  assert.is(review.headers['content-type'], 'application/json');
  assert.is(review.clientCommonName, 'orch-apiserver', 'the kubeconfig\'s client certificate is presented');
  assert.equal(review.body, {
    kind: 'SubjectAccessReview', apiVersion: 'authorization.k8s.io/v1', metadata: { creationTimestamp: null },
    spec: { resourceAttributes: { namespace: 'kittensandponies', verb: 'get', version: 'v1', resource: 'pods', subresource: 'log', name: 'p1' },
      user: 'jane', groups: ['group1', 'system:authenticated'], uid: 'u-1' },
    status: { allowed: false },
  });
});

withWebhook('a v1beta1 review names the groups `group`; paths go as nonResourceAttributes; a list sends its field selector', async ({ hook, authorizer }) => {
  hook.answer(() => ({ status: { allowed: true } }));
  await authorizer.authorize({ user: JANE, verb: 'get', path: '/healthz' });
  await authorizer.authorize({ user: { username: 'system:node:n1', groups: ['system:nodes'] }, verb: 'list', apiGroup: '', version: 'v1', resource: 'pods',
    fieldSelector: 'spec.nodeName=n1,status.phase!=Failed' });
  const [path, list] = hook.received;
  assert.is(path!.headers.authorization, 'Bearer hook-token');
  assert.equal(path!.body.apiVersion, 'authorization.k8s.io/v1beta1');
  assert.equal(path!.body.spec, { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'jane', group: ['group1', 'system:authenticated'], uid: 'u-1' });
  assert.equal(list!.body.spec.resourceAttributes, { verb: 'list', version: 'v1', resource: 'pods', fieldSelector: { requirements: [
    { key: 'spec.nodeName', operator: 'In', values: ['n1'] }, { key: 'status.phase', operator: 'NotIn', values: ['Failed'] }] } });
}, { version: 'v1beta1', kubeconfig: { token: 'hook-token', caFile: 'data' } });

withWebhook('allowed allows, denied denies, neither is no opinion, both is a denial with an evaluation error', async ({ hook, authorizer }) => {
  const answers: Record<string, Record<string, unknown>> = { a: { allowed: true }, b: { allowed: false, denied: true, reason: 'not on weekends' },
    c: { allowed: false, reason: 'ask someone else' }, d: { allowed: true, denied: true, reason: 'confused' } };
  hook.answer((r) => ({ status: answers[r.body.spec.resourceAttributes.name]! }));
  const ask = (name: string) => authorizer.authorize({ ...GET_POD, name }) as Promise<Decision>;
  assert.equal(await ask('a'), { decision: 'allow', reason: '' });
  assert.equal(await ask('b'), { decision: 'deny', reason: 'not on weekends' });
  assert.equal(await ask('c'), { decision: 'noOpinion', reason: 'ask someone else' });
  assert.equal(await ask('d'), { decision: 'deny', reason: 'confused', evaluationError: 'webhook subject access review returned both allow and deny response' });
});

withWebhook('an allowed answer is cached for the authorized TTL on the server\'s clock, then asked again', async ({ hook, clock, authorizer }) => {
  hook.answer(() => ({ status: { allowed: true } }));
  assert.equal(await authorizer.authorize(GET_POD), { decision: 'allow', reason: '' });
  const again = authorizer.authorize({ ...GET_POD, user: { ...JANE, groups: [...JANE.groups] } });
  assert.not.ok(asked(again), 'the same attributes are answered from the cache, at once');
  assert.equal(again, { decision: 'allow', reason: '' });
  assert.ok(asked(authorizer.authorize({ ...GET_POD, name: 'p2' })), 'other attributes are another review');
  await hook.waitForReview(2, 5_000);
  clock.advance(299_999);
  assert.not.ok(asked(authorizer.authorize(GET_POD)), 'still within the TTL');
  clock.advance(1);
  assert.equal(await authorizer.authorize(GET_POD), { decision: 'allow', reason: '' });
  assert.is(hook.received.length, 3, 'past the TTL the webhook is asked again');
});

withWebhook('denied and no-opinion answers are cached for the unauthorized TTL', async ({ hook, clock, authorizer }) => {
  hook.answer((r) => ({ status: r.body.spec.resourceAttributes.verb === 'delete' ? { allowed: false, denied: true, reason: 'no' } : { allowed: false } }));
  await authorizer.authorize({ ...GET_POD, verb: 'delete' });
  await authorizer.authorize({ ...GET_POD, verb: 'update' });
  assert.equal(authorizer.authorize({ ...GET_POD, verb: 'delete' }), { decision: 'deny', reason: 'no' });
  assert.equal(authorizer.authorize({ ...GET_POD, verb: 'update' }), { decision: 'noOpinion', reason: '' });
  clock.advance(30_000);
  assert.ok(asked(authorizer.authorize({ ...GET_POD, verb: 'delete' })));
  await hook.waitForReview(3, 5_000);
});

withWebhook('a TTL of 0 caches nothing', async ({ hook, authorizer }) => {
  hook.answer(() => ({ status: { allowed: true } }));
  await authorizer.authorize(GET_POD);
  assert.ok(asked(authorizer.authorize(GET_POD)));
  await hook.waitForReview(2, 5_000);
}, { ttl: { authorizedTtlMs: 0, unauthorizedTtlMs: 0 } });

withWebhook('a webhook that answers 500 or not a review gives no opinion with the failure, and is not cached', async ({ hook, authorizer }) => {
  hook.answer(() => ({ code: 500, text: 'policy engine down' }));
  const failed = await authorizer.authorize(GET_POD);
  assert.equal(failed, { decision: 'noOpinion', reason: '', evaluationError: `Post "${hook.url}/authorize": the webhook answered 500: policy engine down` });
  hook.answer(() => ({ code: 200, text: '<html>not json</html>' }));
  assert.equal((await authorizer.authorize(GET_POD)).evaluationError, `Post "${hook.url}/authorize": the answer is not JSON`);
  hook.answer(() => ({ code: 200, text: '{"status":{"allowed":"yes"}}' }));
  assert.match((await authorizer.authorize(GET_POD)).evaluationError ?? '', 'status.allowed and status.denied must be booleans');
  assert.is(hook.received.length, 3, 'failures are never cached');
});

withWebhook('a webhook that does not answer within 30 s of the server\'s clock gives no opinion', async ({ hook, clock, authorizer }) => {
  hook.answer(() => 'hold');
  const pending = authorizer.authorize(GET_POD);
  await hook.waitForReview(1, 5_000);
  clock.advance(30_000);
  assert.equal(await pending, { decision: 'noOpinion', reason: '', evaluationError: `Post "${hook.url}/authorize": no answer within 30s` });
});

test('an unreachable webhook gives no opinion, and the next mode decides', async () => {
  const port = await freePort();
  const hook = await startWebhookServer();
  const endpoint = { ...readWebhookConfig(hook.kubeconfig()), url: new URL(`https://127.0.0.1:${port}/authorize`) };
  await hook.close();
  const webhook = new WebhookAuthorizer({ endpoint, version: 'v1', ...TTL, clock: manualClock() });
  const alone = await webhook.authorize(GET_POD);
  assert.is(alone.decision, 'noOpinion');
  assert.match(alone.evaluationError ?? '', new RegExp(`^Post "https://127\\.0\\.0\\.1:${port}/authorize": .*ECONNREFUSED`));
  assert.equal(await authorizerFor(['Webhook', 'AlwaysAllow'], { webhook }).authorize(GET_POD), { decision: 'allow', reason: '' });
  assert.equal(await authorizerFor(['Webhook', 'AlwaysDeny'], { webhook }).authorize(GET_POD), { decision: 'deny', reason: 'Everything is forbidden.' });
  const none = await authorizerFor(['Webhook'], { webhook }).authorize(GET_POD);
  assert.equal([none.decision, none.evaluationError], ['noOpinion', alone.evaluationError], 'with no later mode the error is the chain\'s');
});

test('the webhook cannot list a user\'s rules: incomplete, as the real one', () => {
  const w = new WebhookAuthorizer({ endpoint: { url: new URL('https://127.0.0.1:1/'), insecureSkipTlsVerify: false }, version: 'v1', ...TTL, clock: manualClock() });
  assert.equal(w.rulesFor(), { resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['webhook authorizer does not support user rule resolution'] });
});

test('in the server\'s chain: the webhook decides first; when it is gone, cached answers stand, ABAC decides, and the rest fail with 500', async () => {
  const hook = await startWebhookServer();
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-webhook-chain-'));
  const policy = join(dir, 'abac.jsonl');
  writeFileSync(policy, '{"apiVersion":"abac.authorization.kubernetes.io/v1beta1","kind":"Policy","spec":{"user":"ivan","namespace":"*","resource":"pods","readonly":true}}\n');
  const users: [string, { username: string; groups: string[] }][] = ['carol', 'mallory', 'ivan', 'zed'].map((n) => [`${n}-token`, { username: n, groups: ['system:authenticated'] }]);
  const h = await startServer({ authorizationMode: ['Webhook', 'ABAC'], authorizationWebhookConfigFile: hook.kubeconfig(), authorizationWebhookVersion: 'v1',
    authorizationPolicyFile: policy, tokens: new Map(users) });
  const as = (n: string) => ({ authorization: `Bearer ${n}-token` });
  try {
    hook.answer((r) => ({ status: r.body.spec.user === 'carol' ? { allowed: true } : r.body.spec.user === 'mallory' ? { allowed: false, denied: true, reason: 'mallory is banned' } : { allowed: false } }));
    assert.is((await h.get('/api/v1/namespaces/default/pods', as('carol'))).status, 200);
    assert.equal(hook.received[0]!.body.spec.resourceAttributes, { namespace: 'default', verb: 'list', version: 'v1', resource: 'pods' });
    const banned = await h.get('/api/v1/namespaces/default/pods', as('mallory'));
    assert.is(banned.status, 403);
    assert.is(banned.json.message, 'pods is forbidden: User "mallory" cannot list resource "pods" in API group "" in the namespace "default": mallory is banned');
    assert.is((await h.get('/api/v1/namespaces/default/pods', as('ivan'))).status, 200, 'no opinion from the webhook: ABAC allows');
    await hook.close();
    assert.is((await h.get('/api/v1/namespaces/default/pods', as('carol'))).status, 200, 'the cached answer stands');
    assert.is((await h.get('/api/v1/namespaces/default/pods', as('ivan'))).status, 200);
    const failed = await h.get('/api/v1/namespaces/default/pods', as('zed'));
    assert.is(failed.status, 500);
    assert.match(failed.json.message, `Internal error occurred: Post "${hook.url}/authorize": `);
  } finally {
    await hook.close().catch(() => {});
  }
});

test.run();
