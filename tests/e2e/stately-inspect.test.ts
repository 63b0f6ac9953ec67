// `--inspect=stately --inspect-actors GLOBS`: the chosen actors' inspection events reach the
// Stately inspector's own receiver through our relay on 127.0.0.1, and no other actor's do; the
// relay's page frames the Stately inspector and wants the token.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWebSocketReceiver } from '@statelyai/inspect';
import { startServer } from '../../sim/cli/serve.ts';
import { actorGlobs, STATELY_INSPECTOR_URL } from '../../sim/inspector/stately.ts';
import { eventually, freePort } from '../helpers/real-time.ts';

test('globs choose actors by id: * any text, ? one character', () => {
  const chosen = actorGlobs(['node/node-3', 'leader/*', 'zone/?']);
  assert.ok(chosen('node/node-3') && chosen('leader/orch-system/orch-scheduler/scheduler-0') && chosen('zone/a'));
  assert.not.ok(chosen('node/node-30') || chosen('node-health/node-3') || chosen('zone/ab'));
  assert.ok(actorGlobs(['pod/default/web.1'])('pod/default/web.1') && !actorGlobs(['pod/default/web.1'])('pod/default/webx1'), 'a dot is a dot');
  assert.throws(() => actorGlobs([]), /--inspect-actors names the actors/);
});

test('serve --inspect=stately sends the chosen actors, and only those, to the Stately inspector', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'orchsim-stately-'));
  const lines: string[] = [];
  const running = await startServer(['--secure-port', String(await freePort()), '--bind-address', '127.0.0.1', '--cert-dir', join(dir, 'certs'),
    '--kubeconfig-out', join(dir, 'kubeconfig'), '--nodes', '2', '--inspect', 'stately', '--inspect-actors', 'node/node-1,leader/*'], 'serve', (l) => lines.push(l));
  try {
    const url = new URL(lines.find((l) => l.startsWith('Stately inspector'))!.split(' at ')[1]!);
    assert.is(url.hostname, '127.0.0.1');
    const page = await fetch(url);
    assert.is(page.status, 200);
    assert.ok((await page.text()).includes(`src="${STATELY_INSPECTOR_URL}"`));
    assert.is((await fetch(`${url.origin}/`)).status, 401, 'no token, no page');

    const names = new Set<string>();
    const receiver = createWebSocketReceiver({ server: `ws://127.0.0.1:${url.port}/relay?token=${url.searchParams.get('token')}` });
    receiver.subscribe((event: { type: string; name?: string }) => {
      if (event.type === '@xstate.actor' && event.name) names.add(event.name);
    });
    await eventually('the chosen actors in the Stately inspector', async () => (names.has('node/node-1') && [...names].some((n) => n.startsWith('leader/')) ? true : undefined));
    assert.not.ok([...names].some((n) => n === 'node/node-0' || n.startsWith('node-health/') || n.startsWith('controller/')), [...names].join(', '));
  } finally {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--inspect takes only "stately", and the two options go together', async () => {
  for (const [args, message] of [
    [['--inspect', 'chrome', '--inspect-actors', 'node/*'], /--inspect takes "stately"/],
    [['--inspect-actors', 'node/*'], /give --inspect=stately too/],
    [['--inspect', 'stately'], /--inspect-actors names the actors/],
  ] as [string[], RegExp][]) {
    try {
      await startServer(args, 'serve', () => {});
      assert.unreachable('started');
    } catch (e) {
      assert.match((e as Error).message, message);
    }
  }
});

test.run();
