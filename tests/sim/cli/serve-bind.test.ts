// `orchsim serve` listens on this machine only unless told otherwise: its --bind-address defaults
// to 127.0.0.1 (the API server alone keeps the component's default, every interface), and a
// connection to the machine's other addresses is refused while 127.0.0.1 is answered.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
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

test.run();
