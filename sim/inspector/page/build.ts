// Bundles the inspector's page (app.ts and the libraries it imports, style.css, index.html) into
// dist/, with esbuild: run at install (`npm run build:inspector`, from `prepare`) and by the
// inspector at start when dist/ is missing or older than its sources.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PAGE_DIR = dirname(fileURLToPath(import.meta.url));
export const DIST_DIR = join(PAGE_DIR, 'dist');

const SOURCES = () => readdirSync(PAGE_DIR).filter((f) => /\.(ts|css|html)$/.test(f) && f !== 'build.ts').map((f) => join(PAGE_DIR, f));

/** dist/ holds a bundle at least as new as every source. */
export function pageIsBuilt(): boolean {
  const bundle = join(DIST_DIR, 'app.js');
  if (!existsSync(bundle)) return false;
  const built = statSync(bundle).mtimeMs;
  return SOURCES().every((f) => statSync(f).mtimeMs <= built);
}

export async function buildPage(): Promise<void> {
  mkdirSync(DIST_DIR, { recursive: true });
  copyFileSync(join(PAGE_DIR, 'index.html'), join(DIST_DIR, 'index.html'));
  copyFileSync(join(PAGE_DIR, 'style.css'), join(DIST_DIR, 'app.css'));
  await build({
    entryPoints: [join(PAGE_DIR, 'app.ts')], bundle: true, format: 'iife', target: 'es2022', minify: true, sourcemap: false,
    outfile: join(DIST_DIR, 'app.js'), logLevel: 'warning', legalComments: 'eof',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildPage();
