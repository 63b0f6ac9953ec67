// `orchsim serve` in this process with a kubeconfig for it, and a kubectl that fails the test on a
// non-zero exit: what the end-to-end tests that drive a served cluster with kubectl start from.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { startServer } from '../../sim/cli/serve.ts';
import { freePort, kubectl } from './real-time.ts';

export interface ServedCluster {
  /** A scratch directory, removed by stop(). */
  dir: string;
  /** kubectl with these arguments against the cluster; its stdout. */
  k(...args: string[]): Promise<string>;
  /** kubectl with these arguments, whatever its exit: for commands that may fail until the cluster is ready. */
  tryK(...args: string[]): ReturnType<typeof kubectl>;
  stop(): Promise<void>;
}

/** Serves `--nodes 3` at `--speed 20` (seed 23) plus `args`, writing its kubeconfig into a fresh directory named from `prefix`. */
export async function servedCluster(prefix: string, args: string[] = []): Promise<ServedCluster> {
  const dir = mkdtempSync(join(tmpdir(), `orchsim-${prefix}-`));
  const kubeconfig = join(dir, 'kubeconfig');
  const port = await freePort();
  const running = await startServer(['--secure-port', String(port), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', kubeconfig, '--seed', '23', '--nodes', '3', '--speed', '20', ...args], 'serve', () => {});
  const tryK = (...a: string[]) => kubectl(kubeconfig, ['--cache-dir', join(dir, 'cache'), ...a]);
  return {
    dir,
    tryK,
    k: async (...a: string[]) => {
      const r = await tryK(...a);
      assert.is(r.code, 0, `kubectl ${a.join(' ')}: ${r.stderr}`);
      return r.stdout;
    },
    stop: async () => {
      await running.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
