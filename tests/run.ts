// Runs every test file under tests/ (or those matching the arguments), each in its own process,
// and closes with the line CI reads: "N passed, N failed".
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TYPESCRIPT_LOADER_FLAGS } from '../sim/cli/typescript-loader.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
const filters = process.argv.slice(2);

function findTests(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...findTests(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

interface Totals { passed: number; failed: number; skipped: number }

/** A file still running after this long is stopped and counted as failed, so one hang cannot stall CI. */
const FILE_TIMEOUT_MS = 240_000;

function runFile(file: string): Promise<Totals & { output: string; code: number | null }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...TYPESCRIPT_LOADER_FLAGS, file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0', ORCHSIM_FREEZE: '1' } });
    let output = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, FILE_TIMEOUT_MS);
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) output += `\nstopped after ${FILE_TIMEOUT_MS / 1000} s: the file hung (a test waiting for something that never came?)\n`;
      const total = Number(/Total:\s+(\d+)/.exec(output)?.[1] ?? 0);
      const passed = Number(/Passed:\s+(\d+)/.exec(output)?.[1] ?? 0);
      const skipped = Number(/Skipped:\s+(\d+)/.exec(output)?.[1] ?? 0);
      // A file that crashed before uvu printed its totals counts as one failure.
      const failed = timedOut ? Math.max(1, total - passed - skipped) : total === 0 && code !== 0 ? 1 : total - passed - skipped;
      resolve({ passed, failed, skipped, output, code });
    });
  });
}

const files = findTests(root).filter((f) => f !== fileURLToPath(import.meta.url) && (filters.length === 0 || filters.some((p) => f.includes(p))));
const sum: Totals = { passed: 0, failed: 0, skipped: 0 };
const started = performance.now();
// Two at a time: the machine has two cores, and end-to-end files start their own servers.
const queue = [...files];
async function worker() {
  for (let file = queue.shift(); file; file = queue.shift()) {
    const r = await runFile(file);
    sum.passed += r.passed;
    sum.failed += r.failed;
    sum.skipped += r.skipped;
    const name = relative(root, file);
    const mark = r.failed > 0 || (r.code !== 0 && r.code !== null) ? 'FAIL' : 'ok  ';
    console.log(`${mark} ${name}  (${r.passed} passed${r.failed ? `, ${r.failed} failed` : ''})`);
    if (mark === 'FAIL') console.log(r.output.split('\n').map((l) => `    ${l}`).join('\n'));
  }
}
await Promise.all([worker(), worker()]);
console.log(`\n${files.length} files in ${((performance.now() - started) / 1000).toFixed(1)} s`);
console.log(`${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}`);
process.exitCode = sum.failed > 0 ? 1 : 0;
