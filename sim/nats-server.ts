// A private nats-server on a random loopback port: for tests, and for `orchsim bench` when the
// user names no server. Starts in about 25 ms; the port is read from the server's ports file.
// With a configuration file (what `orchsim credentials` writes), it authorizes as the file says.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface NatsServer {
  url: string;
  /** `nats-server --version`, e.g. "nats-server: v2.9.10". */
  version: string;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 10_000;

export const NATS_SERVER_MISSING =
  'nats-server is not on the PATH: install the Debian package (apt-get install nats-server) or a release from https://github.com/nats-io/nats-server/releases';

/** The version line of the nats-server on the PATH, or undefined when there is none. */
export function natsServerVersion(): string | undefined {
  const r = spawnSync('nats-server', ['--version'], { encoding: 'utf8' });
  return r.error || r.status !== 0 ? undefined : r.stdout.trim();
}

/** The first client URL in a ports file, or undefined while the file is incomplete. */
function parsedPorts(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { nats?: string[] }).nats?.[0];
  } catch {
    return undefined;
  }
}

/**
 * Starts a nats-server on loopback: on `port`, or on one it picks (read back from its ports file);
 * with `config`, that configuration file's (its address and port are overridden by these).
 */
export async function startNatsServer(o: { port?: number; config?: string } = {}): Promise<NatsServer> {
  const version = natsServerVersion();
  if (version === undefined) throw new Error(NATS_SERVER_MISSING);
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-nats-'));
  const args = [...(o.config !== undefined ? ['-c', o.config] : []), '-a', '127.0.0.1', '-p', String(o.port ?? -1), '--ports_file_dir', dir];
  const child: ChildProcess = spawn('nats-server', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  for (;;) {
    const file = readdirSync(dir).find((f) => f.endsWith('.ports'));
    // The server may be half-way through writing the file: read it again until it parses.
    const ports = file ? parsedPorts(readFileSync(join(dir, file), 'utf8')) : undefined;
    if (ports) {
      return {
        url: ports,
        version,
        stop: () => new Promise((resolve) => {
          const done = () => { rmSync(dir, { recursive: true, force: true }); resolve(); };
          // Gone already (it crashed, or was stopped before): nothing to wait for.
          if (child.exitCode !== null || child.signalCode !== null) return done();
          child.once('exit', done);
          child.kill('SIGTERM');
        }),
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nats-server did not start: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** What `nats-server -c FILE -t` says of a configuration file: whether it is valid, and the server's words. */
export function checkNatsConfig(file: string): { valid: boolean; output: string } {
  if (natsServerVersion() === undefined) throw new Error(NATS_SERVER_MISSING);
  const r = spawnSync('nats-server', ['-c', file, '-t'], { encoding: 'utf8' });
  return { valid: r.status === 0, output: `${r.stdout}${r.stderr}`.trim() };
}
