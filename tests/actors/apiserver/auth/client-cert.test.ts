// Client certificates over real HTTPS, as the real server reads them: one the --client-ca-file CA
// signed authenticates as its CommonName in the groups of its Organizations (before any token);
// one from another CA is a 401 even where anonymous requests are allowed, and nothing reaches a
// handler; a valid token still works beside an untrusted certificate; without a certificate the
// connection is served as before.
import { request } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientCa, clientCertificate, servingCert, type KeyPair } from '../../../../actors/apiserver/certs.ts';
import { serveHttps, type Listening } from '../../../../actors/apiserver/https.ts';
import { apiServerOptions } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { wallClock } from '../../../../sim/clock.ts';
import { seededRandom } from '../../../../sim/random.ts';

interface World {
  url: string;
  serverCert: string;
  trusted: KeyPair;
  foreign: KeyPair;
  handled: () => number;
  close(): Promise<void>;
}

/** A server that denies every resource request by name (so its 403 says who asked), trusting one client CA. */
async function world(anonymousAuth = true): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-client-cert-'));
  const clock = wallClock();
  const options = apiServerOptions({ certDir: join(dir, 'certs'), anonymousAuth, authorizationMode: ['AlwaysDeny'],
    tokens: new Map([['good-token', { username: 'tokenuser', groups: ['system:authenticated'] }]]) });
  const server = new ApiServer(options, { clock, random: seededRandom(3) });
  await server.start();
  const serving = await servingCert(options, clock);
  const ca = await clientCa(join(dir, 'ca'), clock);
  const other = await clientCa(join(dir, 'other-ca'), clock);
  let handled = 0;
  const listening: Listening = await serveHttps((r) => (handled++, server.handle(r)),
    { host: '127.0.0.1', port: 0, cert: serving.cert, key: serving.key, maxRequestBodyBytes: 1 << 20, clientCa: ca.cert });
  return {
    url: listening.url, serverCert: serving.cert,
    trusted: await clientCertificate(ca, 'alice', ['dev', 'ops'], clock),
    foreign: await clientCertificate(other, 'mallory', ['system:masters'], clock),
    handled: () => handled,
    async close() {
      await listening.close();
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function get(w: World, path: string, o: { cert?: KeyPair; token?: string } = {}): Promise<{ status: number; message: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${w.url}${path}`, { ca: w.serverCert, ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}),
      headers: o.token ? { authorization: `Bearer ${o.token}` } : {} }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, message: body ? (JSON.parse(body) as { message?: string }).message ?? '' : '' }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a certificate the client CA signed is its CommonName, in its Organizations\' groups', async () => {
  const w = await world();
  try {
    const r = await get(w, '/api/v1/namespaces', { cert: w.trusted });
    assert.is(r.status, 403);
    assert.match(r.message, 'User "alice" cannot list resource "namespaces"');
    const both = await get(w, '/api/v1/namespaces', { cert: w.trusted, token: 'good-token' });
    assert.match(both.message, 'User "alice"', 'the certificate comes first, as in the real server');
    const none = await get(w, '/api/v1/namespaces');
    assert.match(none.message, 'User "system:anonymous"', 'no certificate, no token: anonymous, as allowed');
  } finally {
    await w.close();
  }
});

test('a certificate from another CA is a 401, even with anonymous requests allowed; a good token beside it still works', async () => {
  const w = await world();
  try {
    const before = w.handled();
    const r = await get(w, '/api/v1/namespaces', { cert: w.foreign });
    assert.is(r.status, 401);
    assert.is(r.message, 'Unauthorized');
    assert.is(w.handled(), before + 1, 'one request, answered by authentication');
    const withToken = await get(w, '/api/v1/namespaces', { cert: w.foreign, token: 'good-token' });
    assert.match(withToken.message, 'User "tokenuser"');
  } finally {
    await w.close();
  }
});

test('with --anonymous-auth=false a trusted certificate is enough, and nothing else without credentials is', async () => {
  const w = await world(false);
  try {
    assert.is((await get(w, '/api/v1/namespaces')).status, 401);
    assert.is((await get(w, '/api/v1/namespaces', { cert: w.foreign })).status, 401);
    assert.is((await get(w, '/api/v1/namespaces', { cert: w.trusted })).status, 403, 'known, then denied by the authorizer');
  } finally {
    await w.close();
  }
});

test.run();
