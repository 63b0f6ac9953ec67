import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTokenFile } from '../../../../actors/apiserver/auth/authenticator.ts';
import { apiServerOptions } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { wallClock } from '../../../../sim/clock.ts';
import { seededRandom } from '../../../../sim/random.ts';

const get = (server: ApiServer, headers: Record<string, string> = {}) =>
  server.handle({ method: 'GET', url: '/api/v1/namespaces', headers, body: new Uint8Array() });

test('the static token file maps tokens to users with their groups', () => {
  const tokens = parseTokenFile('# comment\nt1,alice,u1,"dev,ops"\nt2,bob,u2\n');
  assert.equal(tokens.get('t1'), { username: 'alice', uid: 'u1', groups: ['dev', 'ops', 'system:authenticated'] });
  assert.equal(tokens.get('t2')?.groups, ['system:authenticated']);
  assert.throws(() => parseTokenFile('only-a-token\n'), /line 1: want token,user,uid/);
});

test('an unknown bearer token answers 401 even when anonymous requests are allowed', async () => {
  const server = new ApiServer(apiServerOptions({}), { clock: wallClock(), random: seededRandom(1) });
  await server.start();
  assert.is((await get(server)).status, 200);
  const r = await get(server, { authorization: 'Bearer nope' });
  assert.is(r.status, 401);
  assert.equal(JSON.parse(String(r.body)), { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 });
  server.stop();
});

test('with --anonymous-auth=false only requests with a known token are served', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-auth-'));
  writeFileSync(join(dir, 'tokens.csv'), 'secret,alice,u1,"system:masters"\n');
  const server = new ApiServer(apiServerOptions({ anonymousAuth: false, tokenAuthFile: join(dir, 'tokens.csv') }),
    { clock: wallClock(), random: seededRandom(1) });
  await server.start();
  assert.is((await get(server)).status, 401);
  assert.is((await get(server, { authorization: 'Bearer secret' })).status, 200);
  server.stop();
});

test('the AlwaysDeny authorizer names the authenticated user in its 403', async () => {
  const server = new ApiServer(apiServerOptions({ authorizationMode: ['AlwaysDeny'], tokens: new Map([['t', { username: 'alice', groups: [] }]]) }),
    { clock: wallClock(), random: seededRandom(1) });
  await server.start();
  const r = await get(server, { authorization: 'Bearer t' });
  assert.is(r.status, 403);
  assert.match(JSON.parse(String(r.body)).message, 'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope');
  server.stop();
});

test.run();
