// `orchsim serve` is safe by default: its --bind-address defaults to 127.0.0.1 (the API server
// alone keeps the component's default, every interface), so a connection to the machine's other
// addresses is refused while 127.0.0.1 is answered; and the kubeconfig it writes holds a client
// certificate made at that start, readable by its owner only, instead of a shared token.
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import { parse } from 'yaml';
import * as assert from 'uvu/assert';
import { parseServeArgs, serveHelp, startServer } from '../../../sim/cli/serve.ts';
import { freePort } from '../../helpers/real-time.ts';

/** The address a command line would listen on. */
function bindAddress(argv: string[], mode: 'serve' | 'apiserver'): string {
  const line = parseServeArgs(argv, mode);
  if (!('options' in line)) throw new Error(`${argv.join(' ')} only prints`);
  return line.options.bindAddress;
}

test('serve binds 127.0.0.1 by default; the API server alone, every interface; either takes --bind-address', () => {
  assert.is(bindAddress([], 'serve'), '127.0.0.1');
  assert.is(bindAddress([], 'apiserver'), '0.0.0.0');
  assert.is(bindAddress(['--bind-address', '0.0.0.0'], 'serve'), '0.0.0.0');
  assert.match(serveHelp('serve'), /--bind-address[^\n]*\n?[^\n]*127\.0\.0\.1 \(this machine only\)/);
});

/** Whether a TCP connection to host:port is accepted. */
const accepts = (host: string, port: number) => new Promise<boolean>((resolve) => {
  const socket = connect({ host, port });
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
});

test('a served cluster answers on 127.0.0.1 and refuses the machine\'s other addresses', async () => {
  const others = Object.values(networkInterfaces()).flat().filter((a) => a && !a.internal && a.family === 'IPv4').map((a) => a!.address);
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-bind-'));
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--cert-dir', join(dir, 'certs'), '--kubeconfig-out', join(dir, 'kubeconfig')], 'serve', () => {}, () => {});
  try {
    assert.ok(await accepts('127.0.0.1', port), 'this machine connects');
    for (const address of others) assert.not.ok(await accepts(address, port), `${address} is refused`);
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the kubeconfig serve writes carries a client certificate made at this start, and no token', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-kubeconfig-'));
  const users: Record<string, string>[] = [];
  try {
    for (let i = 0; i < 2; i++) {
      const kubeconfig = join(dir, `kubeconfig-${i}`);
      const running = await startServer(['--secure-port', String(await freePort()), '--cert-dir', join(dir, 'certs'), '--kubeconfig-out', kubeconfig], 'serve', () => {}, () => {});
      await running.stop();
      users.push((parse(readFileSync(kubeconfig, 'utf8')) as { users: { user: Record<string, string> }[] }).users[0]!.user);
      assert.is(statSync(kubeconfig).mode & 0o077, 0, 'readable by its owner only');
    }
    for (const u of users) assert.equal(Object.keys(u).sort(), ['client-certificate-data', 'client-key-data']);
    const subject = new X509Certificate(Buffer.from(users[0]!['client-certificate-data']!, 'base64')).subject;
    assert.equal(subject.split('\n').sort(), ['CN=orchsim-admin', 'O=system:masters']);
    assert.is.not(users[0]!['client-key-data'], users[1]!['client-key-data'], 'a fresh key at each start');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
