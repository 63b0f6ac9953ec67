// --use-service-account-credentials in a controller manager of its own: with its own credentials
// it creates each controller's service account when missing, gets its token by TokenRequest, and
// each controller's requests carry that token, so the API server knows them as the account (and
// RBAC gives them their role, not the manager's). A token is renewed after 80% of its hour; a
// renewal that fails keeps the old token while it lasts. A server that issues no tokens is
// reported at start with what to give it.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { REQUEST_SUBJECT } from '../../../actors/apiserver/bus-endpoint.ts';
import type { ApiRequest } from '../../../actors/apiserver/request.ts';
import { ApiClient } from '../../../actors/client/client.ts';
import { CONTROLLER_MANAGER, CredentialedBus, serviceAccountIdentity } from '../../../actors/client/credentials.ts';
import { ServiceAccountCredentials, TOKEN_EXPIRATION_SECONDS } from '../../../actors/controller-manager/service-account-credentials.ts';
import { Deferred, type Body, type Message } from '../../../transport/bus.ts';
import { ForwardingBus } from '../../../transport/forwarding-bus.ts';
import { startServer, type Harness } from '../../helpers/in-process-server.ts';
import { keyFiles } from '../../helpers/service-account-keys.ts';

const keys = keyFiles();
const TOKENS = new Map([
  ['manager-token', { username: CONTROLLER_MANAGER.username, groups: ['system:authenticated'] }],
  ['admin-token', { username: 'admin', groups: ['system:masters', 'system:authenticated'] }],
]);
const ADMIN = { authorization: 'Bearer admin-token' };
const RS = 'replicaset-controller';
const POD = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] } };

/** The server's bus, with the Authorization of each API request it carries noted down. */
class Recording extends ForwardingBus {
  readonly seen: string[] = [];

  override request(subject: string, data: Body, timeoutMs: number): Promise<Message> {
    if (subject === REQUEST_SUBJECT && data instanceof Deferred) this.seen.push((data.value as ApiRequest).headers.authorization ?? '');
    return super.request(subject, data, timeoutMs);
  }
}

async function setUp(withTokens = true): Promise<{ h: Harness; wire: Recording; manager: CredentialedBus; accounts: ServiceAccountCredentials }> {
  const h = await startServer({ ...(withTokens ? keys.options() : {}), tokens: TOKENS, authorizationMode: ['RBAC'] });
  const wire = new Recording(h.server.bus);
  const manager = new CredentialedBus(wire, 'manager-token');
  return { h, wire, manager, accounts: new ServiceAccountCredentials(new ApiClient(manager, 'test/manager'), h.clock) };
}

const whoami = async (client: ApiClient) =>
  ((await client.request('POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' })) as any).status.userInfo.username;

const code = (p: Promise<unknown>) => p.then(() => 200, (e: { code?: number }) => e.code);

test('each controller acts as its service account, made when missing; the manager stays itself', async () => {
  const { h, manager, accounts } = await setUp();
  assert.is((await h.get(`/api/v1/namespaces/orch-system/serviceaccounts/${RS}`, ADMIN)).status, 404);
  await accounts.prepare([RS]);
  assert.is((await h.get(`/api/v1/namespaces/orch-system/serviceaccounts/${RS}`, ADMIN)).status, 200, 'the manager made the account');
  const rs = new ApiClient(accounts.asIdentity(manager, serviceAccountIdentity('orch-system', RS)), 'test/rs');
  assert.is(await whoami(rs), `system:serviceaccount:orch-system:${RS}`);
  assert.is(accounts.asIdentity(manager, CONTROLLER_MANAGER), manager);
  const own = new ApiClient(manager, 'test/manager');
  assert.is(await whoami(own), CONTROLLER_MANAGER.username);
  assert.is(await code(own.request('POST', '/api/v1/namespaces/default/pods', POD)), 403, 'the manager itself may not create pods');
  assert.is(await code(rs.request('POST', '/api/v1/namespaces/default/pods', POD)), 200, 'its replica set controller may');
});

test('a token is renewed on the first request after 80% of its life, and an old one serves while a renewal fails', async () => {
  const { h, wire, manager, accounts } = await setUp();
  const rs = new ApiClient(accounts.asIdentity(manager, serviceAccountIdentity('orch-system', RS)), 'test/rs');
  const tokenNow = async () => {
    await whoami(rs);
    return wire.seen.at(-1)!;
  };
  const first = await tokenNow();
  assert.match(first, /^Bearer ey/);
  h.clock.advance(0.8 * TOKEN_EXPIRATION_SECONDS * 1000 - 1_000);
  assert.is(await tokenNow(), first, 'still young');
  h.clock.advance(2_000);
  const second = await tokenNow();
  assert.is.not(second, first, 'renewed');
  // The manager loses the right to make tokens: the renewal fails, the token in hand serves on.
  assert.is((await h.del('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/system:kube-controller-manager', undefined, ADMIN)).status, 200);
  h.clock.advance(0.8 * TOKEN_EXPIRATION_SECONDS * 1000 + 1_000);
  assert.is(await tokenNow(), second, 'the old token while it lasts');
  h.clock.advance(0.2 * TOKEN_EXPIRATION_SECONDS * 1000);
  assert.is(await code(whoami(rs)), 403, 'then the refusal of the renewal');
});

test('a server that issues no tokens is reported at start with what to give it', async () => {
  const { accounts } = await setUp(false);
  const e = await accounts.prepare([RS]).then(() => undefined, (err: Error) => err);
  assert.instance(e, Error);
  assert.match(e!.message, /--use-service-account-credentials: no token for service account orch-system\/replicaset-controller: .*the API server issues no service-account tokens \(give it --service-account-issuer and --service-account-signing-key-file\)/);
});

test.run();
