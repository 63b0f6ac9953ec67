// Headless Chromium for page tests, driven by playwright-core: Debian's chromium, started as the
// machine allows (no sandbox as root, no background networking), with every request off the
// machine refused and remembered, so a test can fail on any.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Where page tests leave their screenshots: out/<name>/ at the repository's root. */
export function outputDir(name: string): string {
  const dir = join(fileURLToPath(new URL('../../out/', import.meta.url)), name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`page tests need Debian's chromium at ${CHROMIUM}: apt-get install chromium (.ci/run installs it)`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/** A page whose requests to any host but this machine's loopback are aborted and listed in `offMachine`. */
export async function localPage(browser: Browser, viewport = { width: 1400, height: 900 }): Promise<{ page: Page; offMachine: string[]; errors: string[] }> {
  const page = await browser.newPage({ viewport });
  const offMachine: string[] = [];
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (['127.0.0.1', 'localhost'].includes(url.hostname) || url.protocol === 'data:') return route.continue();
    offMachine.push(url.href);
    return route.abort();
  });
  return { page, offMachine, errors };
}
