// Front proxies over real HTTPS: a connection whose certificate the --requestheader-client-ca-file
// CA signed, with an allowed CommonName, is believed about the user its headers name (first
// username header, every group header value, extras by prefix); anyone else's such headers are
// ignored. It comes before client certificates and tokens, and falls through to them when the
// headers name nobody.
import { request } from 'node:https';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientCa, clientCertificate, servingCert, type KeyPair } from '../../../../actors/apiserver/certs.ts';
import { serveHttps, type Listening } from '../../../../actors/apiserver/https.ts';
import { apiServerOptions, API_SERVER_TABLE } from '../../../../actors/apiserver/options.ts';
import { ApiServer } from '../../../../actors/apiserver/server.ts';
import { wallClock } from '../../../../sim/clock.ts';
import { seededRandom } from '../../../../sim/random.ts';

interface World {
  url: string;
  serverCert: string;
  proxy: KeyPair;
  stranger: KeyPair;
  client: KeyPair;
  close(): Promise<void>;
}

async function world(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-front-proxy-'));
  const clock = wallClock();
  const proxyCa = await clientCa(join(dir, 'front-proxy-ca'), clock, 'orchsim-front-proxy-ca');
  const userCa = await clientCa(join(dir, 'client-ca'), clock);
  const options = apiServerOptions({ certDir: join(dir, 'certs'), authorizationMode: ['AlwaysAllow'], requestheaderClientCaFile: proxyCa.certFile,
    requestheaderAllowedNames: ['front-proxy-client'], requestheaderUsernameHeaders: ['X-Remote-User', 'X-Other-User'],
    requestheaderGroupHeaders: ['X-Remote-Group'], requestheaderExtraHeadersPrefix: ['X-Remote-Extra-'],
    tokens: new Map([['good-token', { username: 'tokenuser', groups: ['system:authenticated'] }]]) });
  const server = new ApiServer(options, { clock, random: seededRandom(5) });
  await server.start();
  const serving = await servingCert(options, clock);
  const listening: Listening = await serveHttps((r) => server.handle(r), { host: '127.0.0.1', port: 0, cert: serving.cert, key: serving.key,
    maxRequestBodyBytes: 1 << 20, clientCa: userCa.cert, frontProxyCa: proxyCa.cert, keptApart: (h) => server.keepsApart(h) });
  return {
    url: listening.url, serverCert: serving.cert,
    proxy: await clientCertificate(proxyCa, 'front-proxy-client', [], clock),
    stranger: await clientCertificate(proxyCa, 'someone-else', [], clock),
    client: await clientCertificate(userCa, 'carol', ['staff'], clock),
    async close() {
      await listening.close();
      server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Who a SelfSubjectReview says the request is, or the status refusing it. */
function whoami(w: World, o: { cert?: KeyPair; headers?: Record<string, string | string[]> }): Promise<{ status: number; user?: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(`${w.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, { method: 'POST', ca: w.serverCert,
      ...(o.cert ? { cert: o.cert.cert, key: o.cert.key } : {}), headers: { 'content-type': 'application/json', ...o.headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, user: res.statusCode === 201 ? JSON.parse(body).status.userInfo : undefined }));
    });
    req.on('error', reject);
    req.end(JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }));
  });
}

const named = { 'X-Remote-User': 'alice', 'X-Remote-Group': ['dev', 'a,b'], 'X-Remote-Extra-Acme.com%2fTeam': ['x', 'y'], 'X-Remote-Extra-Scopes': 'read' };

test('the proxy\'s headers name the user: first username header, each group header value, extras by prefix', async () => {
  const w = await world();
  try {
    const r = await whoami(w, { cert: w.proxy, headers: named });
    assert.is(r.status, 201);
    assert.equal(r.user, { username: 'alice', groups: ['dev', 'a,b', 'system:authenticated'], extra: { 'acme.com/team': ['x', 'y'], scopes: ['read'] } });
    const second = await whoami(w, { cert: w.proxy, headers: { 'X-Other-User': 'bob' } });
    assert.equal(second.user, { username: 'bob', groups: ['system:authenticated'] });
  } finally {
    await w.close();
  }
});

test('the same headers from anyone else are ignored', async () => {
  const w = await world();
  try {
    assert.equal((await whoami(w, { headers: named })).user, { username: 'system:anonymous', groups: ['system:unauthenticated'] });
    assert.equal((await whoami(w, { cert: w.client, headers: named })).user, { username: 'carol', groups: ['staff', 'system:authenticated'] });
    // Signed by the front-proxy CA but not an allowed name, and not a user's certificate either.
    assert.is((await whoami(w, { cert: w.stranger, headers: named })).status, 401);
  } finally {
    await w.close();
  }
});

test('a proxy naming nobody falls through to the token it carries, or is refused', async () => {
  const w = await world();
  try {
    assert.equal((await whoami(w, { cert: w.proxy, headers: { authorization: 'Bearer good-token' } })).user, { username: 'tokenuser', groups: ['system:authenticated'] });
    assert.is((await whoami(w, { cert: w.proxy })).status, 401);
  } finally {
    await w.close();
  }
});

test('a front-proxy CA needs a username header', () => {
  assert.throws(() => API_SERVER_TABLE.parse(['--requestheader-client-ca-file=/tmp/ca.crt']), /--requestheader-username-headers must name at least one header/);
});

test.run();
