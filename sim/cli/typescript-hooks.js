// Module hooks that run orchsim's TypeScript in Node 20 without a build step: each .ts file is
// stripped of its types by esbuild when first imported, with an inline source map for stack traces.
//
// Why not tsx's loader: tsx always asks esbuild to keep function names, which wraps every arrow
// function and method stored in an object in a call that redefines its `name`. That call puts the
// new function's properties in a dictionary of its own, about 250 bytes, and a simulation makes
// such closures per pod and per request: 9% of the heap of a 500-node hour. Without minifying or
// bundling nothing renames functions, so their names survive anyway.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform, version } from 'esbuild';

const OPTIONS = {
  loader: 'ts',
  format: 'esm',
  target: `node${process.versions.node}`,
  sourcemap: 'inline',
  // The project's tsconfig.json: ES2022 class fields, no emit-affecting options beyond that.
  tsconfigRaw: { compilerOptions: { target: 'ES2022', useDefineForClassFields: true } },
};

/** Transformed files by content hash, so a second start skips esbuild (as tsx's cache does). */
const CACHE = join(tmpdir(), `orchsim-ts-${userInfo().uid}`);
const KEY_SALT = `${version}\0${JSON.stringify(OPTIONS)}\0`;
let cacheUsable = true;
try {
  mkdirSync(CACHE, { recursive: true });
} catch {
  cacheUsable = false;
}

export async function load(url, context, nextLoad) {
  if (!url.startsWith('file:') || !url.endsWith('.ts')) return nextLoad(url, context);
  const path = fileURLToPath(url);
  const source = readFileSync(path, 'utf8');
  const key = createHash('sha256').update(KEY_SALT).update(path).update('\0').update(source).digest('hex');
  const cached = cacheUsable ? readCached(key) : undefined;
  if (cached !== undefined) return { format: 'module', source: cached, shortCircuit: true };
  const { code } = await transform(source, { ...OPTIONS, sourcefile: path });
  if (cacheUsable) writeCached(key, code);
  return { format: 'module', source: code, shortCircuit: true };
}

function readCached(key) {
  try {
    return readFileSync(join(CACHE, key), 'utf8');
  } catch {
    return undefined;
  }
}

/** Written under a temporary name and renamed, so a concurrent reader never sees half a file. */
function writeCached(key, code) {
  const temporary = join(CACHE, `${key}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, code);
    renameSync(temporary, join(CACHE, key));
  } catch {
    // a cache that cannot be written only costs the next start its transforms
  }
}
