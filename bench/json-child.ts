// A benchmark case in a process of its own: a fresh heap and a JIT that has seen only this case,
// so one case's figures do not carry what an earlier case left behind. The child writes its
// figures as the last line of its stdout, in JSON; its stderr passes through (progress).
import { spawn } from 'node:child_process';
import { TYPESCRIPT_LOADER_FLAGS } from '../sim/cli/typescript-loader.ts';

/** How much of the end of the child's stderr an error message quotes, in characters. */
const ERROR_TAIL_CHARS = 4_000;

/** Runs the TypeScript `script` with `args` under `nodeFlags` and parses the last line it prints. */
export function runJsonChild<T>(script: string, args: readonly string[], nodeFlags: readonly string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, ...TYPESCRIPT_LOADER_FLAGS, script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => {
      process.stderr.write(b);
      err = (err + b.toString()).slice(-ERROR_TAIL_CHARS);
    });
    child.once('error', reject);
    child.once('close', (code, signal) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`${[script, ...args].join(' ')}: ended with ${signal ?? `code ${code}`}\n${err}`));
      resolve(JSON.parse(line) as T);
    });
  });
}
