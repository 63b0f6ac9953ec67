// A private nats-server on a random loopback port, for tests that need the real thing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServer {
  url: string;
  stop(): Promise<void>;
}

export async function startNatsServer(): Promise<NatsServer> {
  if (spawnSync('nats-server', ['--version']).error)
    throw new Error('nats-server is not on the PATH: install the Debian package (apt-get install nats-server), as .ci/run does');
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-nats-'));
  const child: ChildProcess = spawn('nats-server', ['-a', '127.0.0.1', '-p', '-1', '--ports_file_dir', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const deadline = Date.now() + 10_000;
  for (;;) {
    const file = readdirSync(dir).find((f) => f.endsWith('.ports'));
    if (file) {
      const ports = JSON.parse(readFileSync(join(dir, file), 'utf8')) as { nats: string[] };
      return {
        url: ports.nats[0],
        stop: () => new Promise((resolve) => {
          child.once('exit', () => { rmSync(dir, { recursive: true, force: true }); resolve(); });
          child.kill('SIGTERM');
        }),
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`nats-server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
