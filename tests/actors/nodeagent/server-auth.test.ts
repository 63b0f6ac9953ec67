// The node agent's secure server under its configuration's authentication and authorization, over
// real HTTPS, with reviews sent over the bus to a real API server (RBAC): no credentials are 401
// unless anonymous requests are enabled; a token is checked with a TokenReview and the request
// with a SubjectAccessReview for nodes/<subresource> of this node, each answer cached for its TTL.
import { request } from 'node:https';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newRegistry } from '../../../actors/api/metrics.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { CredentialedBus } from '../../../actors/client/credentials.ts';
import { nodeAgentGuard, subresourceOf } from '../../../actors/nodeagent/server-auth.ts';
import type { NodeAgentConfiguration } from '../../../actors/nodeagent/config-fields.ts';
import { listenComponentServer, type ComponentServer } from '../../../sim/component-server.ts';
import { startServer, type Harness } from '../../helpers/in-process-server.ts';

const registry = newRegistry();
type Auth = Pick<NodeAgentConfiguration, 'authentication' | 'authorization'>;
const auth = (anonymous: boolean, mode: 'AlwaysAllow' | 'Webhook'): Auth => ({
  authentication: { anonymous: { enabled: anonymous }, webhook: { enabled: true, cacheTTL: 120_000 }, x509: { clientCAFile: '' } },
  authorization: { mode, webhook: { cacheAuthorizedTTL: 300_000, cacheUnauthorizedTTL: 30_000 } },
});

const test = suite<{ h: Harness; reviews: string[] }>('nodeagent-server-auth');
test.before(async (ctx) => {
  ctx.h = await startServer({ authorizationMode: ['Node', 'RBAC'], tokens: new Map([
    ['admin', { username: 'root', groups: ['system:masters', 'system:authenticated'] }],
    ['node-a', { username: 'system:node:a', groups: ['system:nodes', 'system:authenticated'] }],
    ['scraper', { username: 'prometheus', groups: ['system:authenticated'] }],
  ]) });
  const admin = new ApiClient(new CredentialedBus(ctx.h.server.bus, 'admin'), 'test');
  await admin.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole',
    metadata: { name: 'metrics-reader' }, rules: [{ apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] }] });
  await admin.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding',
    metadata: { name: 'prometheus' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'metrics-reader' },
    subjects: [{ kind: 'User', name: 'prometheus' }] });
  ctx.reviews = [];
});
test.after(({ h }) => h.server.stop());

/** The agent's server for node a, its reviews sent with the node's own token; each review's kind recorded. */
async function agentServer(ctx: { h: Harness; reviews: string[] }, config: Auth): Promise<ComponentServer> {
  const client = new ApiClient(new CredentialedBus(ctx.h.server.bus, 'node-a'), 'nodeagent/a');
  const counted = Object.assign(Object.create(client) as ApiClient, {
    request: (method: string, url: string, body?: unknown) => (ctx.reviews.push(url.split('/').pop()!), client.request(method, url, body)),
  });
  return listenComponentServer({ bindAddress: '127.0.0.1', port: 0, pairName: 'nodeagent', registries: () => [registry], checks: { healthz: { syncloop: () => true } },
    guard: nodeAgentGuard({ config, nodeName: 'a', client: counted, clock: ctx.h.clock }) });
}

function get(s: ComponentServer, path: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    request(new URL(path, s.url), { ca: s.cert, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d)).on('end', () => done({ status: res.statusCode ?? 0, body }));
    }).on('error', fail).end();
  });
}

test('paths map to the real agent\'s subresources', () => {
  assert.equal(['/metrics', '/metrics/cadvisor', '/stats/summary', '/logs/', '/spec', '/healthz', '/pods', '/metricsx'].map(subresourceOf),
    ['metrics', 'metrics', 'stats', 'log', 'spec', 'proxy', 'proxy', 'proxy']);
});

test('without credentials: 401, unless anonymous requests are enabled (then authorized like anyone)', async (ctx) => {
  const closed = await agentServer(ctx, auth(false, 'Webhook'));
  const open = await agentServer(ctx, auth(true, 'Webhook'));
  try {
    assert.equal(await get(closed, '/metrics'), { status: 401, body: 'Unauthorized' });
    assert.equal(await get(open, '/metrics'), { status: 403, body: 'Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource=metrics)' });
    assert.equal(await get(closed, '/metrics', 'forged'), { status: 401, body: 'Unauthorized' });
  } finally {
    await closed.close();
    await open.close();
  }
});

test('a token is reviewed, the request authorized for nodes/<subresource>; answers are cached', async (ctx) => {
  const s = await agentServer(ctx, auth(false, 'Webhook'));
  try {
    ctx.reviews.length = 0;
    const first = await get(s, '/metrics', 'scraper');
    assert.is(first.status, 200, first.body);
    assert.equal(ctx.reviews, ['tokenreviews', 'subjectaccessreviews']);
    assert.is((await get(s, '/metrics', 'scraper')).status, 200);
    assert.equal(ctx.reviews, ['tokenreviews', 'subjectaccessreviews'], 'both answers cached');
    assert.equal(await get(s, '/healthz', 'scraper'), { status: 403, body: 'Forbidden (user=prometheus, verb=get, resource=nodes, subresource=proxy)' });
    ctx.h.clock.advance(300_001);
    assert.is((await get(s, '/metrics', 'scraper')).status, 200);
    assert.equal(ctx.reviews.slice(3), ['tokenreviews', 'subjectaccessreviews'], 'asked again once the TTLs passed');
  } finally {
    await s.close();
  }
});

test('AlwaysAllow: anyone authenticated is served', async (ctx) => {
  const s = await agentServer(ctx, auth(false, 'AlwaysAllow'));
  try {
    assert.is((await get(s, '/healthz', 'scraper')).status, 200);
    assert.is((await get(s, '/healthz')).status, 401);
  } finally {
    await s.close();
  }
});

test.run();
