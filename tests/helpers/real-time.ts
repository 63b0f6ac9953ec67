// What end-to-end tests running in real time share: a free loopback port, a wait for a condition
// polled on the wall clock (kubectl and child processes run in real time), and kubectl itself.
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';

/** A loopback port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Polls `probe` every 200 ms until it answers (a throw counts as no answer yet); after `timeoutMs`
 * fails naming `what`, the last error, and what `context` adds (a child's last lines, say).
 */
export async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000, context: () => string = () => ''): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (performance.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms${last ? `: ${last}` : ''}${context()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Runs kubectl against `kubeconfig`; never throws: the exit code says how it went. */
export function kubectl(kubeconfig: string, args: string[], timeoutMs = 90_000): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: timeoutMs }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}
