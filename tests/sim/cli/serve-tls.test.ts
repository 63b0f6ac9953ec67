// The TLS options act, as the real server's do: --tls-min-version=VersionTLS13 refuses a TLS 1.2
// handshake and serves TLS 1.3; --tls-cipher-suites (Go's names) limits TLS 1.2 to those suites;
// an unknown suite is refused by name before anything starts; --tls-sni-cert-key serves each
// certificate to the names it covers.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { generate } from 'selfsigned';
import { OptionError } from '../../../actors/api/options/table.ts';
import { parseServeArgs, startServer } from '../../../sim/cli/serve.ts';
import { freePort } from '../../helpers/real-time.ts';

/** What a handshake with these client options gives: the protocol and cipher, or the failure. */
function handshake(port: number, ca: string, o: { maxVersion?: 'TLSv1.2' | 'TLSv1.3'; ciphers?: string }): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...o }, () => {
      resolve(`${socket.getProtocol()} ${socket.getCipher().standardName}`);
      socket.destroy();
    });
    socket.once('error', (e) => resolve(`failed: ${(e as NodeJS.ErrnoException).code ?? e.message}`));
  });
}

async function served(flags: string[], check: (port: number, ca: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-tls-'));
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--cert-dir', join(dir, 'certs'), '--kubeconfig-out', join(dir, 'kubeconfig'), ...flags], 'serve', () => {}, () => {});
  try {
    await check(port, readFileSync(join(dir, 'certs', 'apiserver.crt'), 'utf8'));
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('--tls-min-version=VersionTLS13: a TLS 1.2 client is refused, TLS 1.3 is served', async () => {
  await served(['--tls-min-version', 'VersionTLS13'], async (port, ca) => {
    assert.match(await handshake(port, ca, { maxVersion: 'TLSv1.2' }), /^failed/);
    assert.match(await handshake(port, ca, {}), /^TLSv1\.3 /);
  });
});

test('--tls-cipher-suites: TLS 1.2 takes only the suites named', async () => {
  await served(['--tls-min-version', 'VersionTLS12', '--tls-cipher-suites', 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384'], async (port, ca) => {
    assert.is(await handshake(port, ca, { maxVersion: 'TLSv1.2' }), 'TLSv1.2 TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384');
    assert.match(await handshake(port, ca, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }), /^failed/, 'a suite not named is not served');
  });
});

test('an unknown cipher suite is refused by name', () => {
  assert.throws(() => parseServeArgs(['--tls-cipher-suites', 'TLS_MADE_UP_SUITE'], 'serve'),
    (e: Error) => e instanceof OptionError && e.message.includes('unknown cipher suite "TLS_MADE_UP_SUITE"'));
});

/** The CommonName of the certificate served to a client asking for `servername`. */
function servedName(port: number, servername: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, servername, rejectUnauthorized: false }, () => {
      resolve(String(socket.getPeerCertificate().subject.CN));
      socket.destroy();
    });
    socket.once('error', reject);
  });
}

test('--tls-sni-cert-key: each pair serves its names (given, or its certificate\'s), wildcards cover one label, others get the default', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-sni-'));
  const pair = async (name: string, cn: string) => {
    const pems = await generate([{ name: 'commonName', value: cn }], { keyType: 'ec', curve: 'P-256', algorithm: 'sha256',
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: name }] }] });
    writeFileSync(join(dir, `${cn}.crt`), pems.cert);
    writeFileSync(join(dir, `${cn}.key`), pems.private);
    return `${join(dir, `${cn}.crt`)},${join(dir, `${cn}.key`)}`;
  };
  const own = await pair('api.example.test', 'own-names');
  const given = await pair('ignored.example.test', 'given-names');
  try {
    await served(['--tls-sni-cert-key', own, '--tls-sni-cert-key', `${given}:*.apps.example.test`], async (port) => {
      assert.is(await servedName(port, 'api.example.test'), 'own-names');
      assert.is(await servedName(port, 'web.apps.example.test'), 'given-names');
      assert.is(await servedName(port, 'a.web.apps.example.test'), 'orchsim-apiserver', 'a wildcard covers one label');
      assert.is(await servedName(port, 'ignored.example.test'), 'orchsim-apiserver', 'names given replace the certificate\'s');
      assert.is(await servedName(port, 'localhost'), 'orchsim-apiserver');
    });
    const refused = await served(['--tls-sni-cert-key', `${join(dir, 'missing.crt')},${join(dir, 'missing.key')}`], async () => {}).then(() => undefined, (e: Error) => e);
    assert.instance(refused, OptionError);
    assert.match(refused!.message, /^--tls-sni-cert-key .*missing\.crt,.*missing\.key: ENOENT/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
