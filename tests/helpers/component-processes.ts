// orchsim components as child processes, for end-to-end tests that start them as a user would:
// their output kept line by line, a wait for a condition that shows their last lines on timeout.
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from './real-time.ts';

export { freePort } from './real-time.ts';

export const CLI = join(import.meta.dirname, '../../sim/cli/orchsim.js');
export const WAIT_MS = 30_000;

/** Waits for `probe`, showing each process's last lines if it never answers. */
export function until<T>(what: string, probe: () => Promise<T | undefined>, procs: Proc[], timeoutMs = WAIT_MS): Promise<T> {
  return eventually(what, probe, timeoutMs, () => `\n${procs.map((p) => `--- ${p.name}\n${p.lines.slice(-15).join('\n')}`).join('\n')}`);
}

export interface Proc {
  name: string;
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

export function start(name: string, args: string[]): Proc {
  const child = spawn('node', [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (b: Buffer) => lines.push(...b.toString().split('\n').filter((l) => l !== '')));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { name, child, lines, exited };
}

/** A kubeconfig whose server is the API server's bus, for --orchconfig. */
export async function busKubeconfig(dir: string, natsUrl: string): Promise<string> {
  const path = join(dir, 'bus.kubeconfig');
  await writeFile(path, `apiVersion: v1\nkind: Config\nclusters: [{ name: orchsim, cluster: { server: "${natsUrl}" } }]\ncontexts: [{ name: orchsim, context: { cluster: orchsim } }]\ncurrent-context: orchsim\n`);
  return path;
}

/**
 * A node agent's configuration file with leases renewed and status written every second (so short
 * grace periods are safe), serving on `port` (/metrics, /healthz; anonymous requests authorized by
 * the API server) or, without one, on no port.
 */
export async function fastAgentConfig(dir: string, name: string, o: { maxPods?: number; port?: number } = {}): Promise<string> {
  const path = join(dir, `${name}.yaml`);
  // Served: anonymous requests allowed in, each then authorized by a SubjectAccessReview to the API server.
  const serving = o.port === undefined ? 'enableServer: false\nhealthzPort: 0\n'
    : `address: 127.0.0.1\nport: ${o.port}\nhealthzPort: 0\nauthentication:\n  anonymous:\n    enabled: true\n`;
  await writeFile(path, `apiVersion: nodeagent.config.orch.io/v1beta1\nkind: NodeAgentConfiguration\nnodeLeaseDurationSeconds: 4\nnodeStatusUpdateFrequency: 1s\nmaxPods: ${o.maxPods ?? 110}\n${serving}`);
  return path;
}

/** GETs `path` from a component's self-signed HTTPS server: the status and the body. */
export async function getInsecure(url: string, path: string): Promise<{ status: number; body: string }> {
  const { request } = await import('node:https');
  return new Promise((done, fail) => {
    request(new URL(path, url), { rejectUnauthorized: false }, (res) => {
      let body = '';
      res.on('data', (d) => (body += d)).on('end', () => done({ status: res.statusCode ?? 0, body }));
    }).on('error', fail).end();
  });
}
