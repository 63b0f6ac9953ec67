// How the server's concurrency limit is divided among the priority levels, and how a busy level
// borrows the seats idle levels may lend, every 10 s, as the real controller adjusts them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../../actors/api/resources.ts';
import { heldServer } from '../server/held-server.ts';

/** name → [nominal, lowest, current] */
const limits = (levels: Iterable<{ name: string; nominalCL: number; minCL: number; currentCL: number }>) =>
  Object.fromEntries([...levels].map((l) => [l.name, [l.nominalCL, l.minCL, l.currentCL]]));

test('the default 400 + 200 seats are divided in proportion to the shares, rounded up, and the levels start from what they may not lend', async () => {
  const h = await heldServer();
  assert.equal(limits(h.server.flowControl!.levels.values()), {
    // ServerCL 600 over 245 shares: ceil(600 × NCS / 245); lowest = nominal - round(nominal × lendable%).
    // With no demand yet, the 602 nominal seats go in proportion to the lowest limits (× 602/258).
    system: [74, 50, 117],
    'node-high': [98, 73, 170],
    'leader-election': [25, 25, 58],
    'workload-high': [98, 49, 114],
    'workload-low': [245, 24, 56],
    'global-default': [49, 24, 56],
    exempt: [0, 0, 0],
    'catch-all': [13, 13, 30],
  });
});

test('every 10 s a busy level borrows what idle levels may lend', async () => {
  const h = await heldServer({ maxRequestsInflight: 20, maxMutatingRequestsInflight: 10 });
  const fc = h.server.flowControl!;
  assert.is(fc.levels.get('global-default')!.currentCL, 2);
  h.hold();
  const pending = Array.from({ length: 100 }, () => h.send('GET', '/api/v1/namespaces/default/configmaps'));
  await h.settle();
  assert.is(fc.levels.get('global-default')!.queues.waiting, 98, 'two served, the rest queued');
  h.clock.advance(10_000);
  await h.settle();
  const current = limits(fc.levels.values());
  // It may borrow up to nominal + ServerCL; the others keep only what they may not lend.
  assert.equal(current['global-default'], [3, 1, 20]);
  assert.equal(current['workload-low'], [13, 1, 1]);
  assert.equal(current['leader-election'], [2, 2, 2]);
  assert.is(fc.levels.get('global-default')!.queues.executing, 20);
  h.release();
  const answers = await Promise.all(pending);
  assert.ok(answers.every((a) => a.status === 200));
});

test('a level deleted while it serves keeps serving what it holds, then goes, and the others share its seats again', async () => {
  const h = await heldServer();
  const fc = h.server.flowControl!;
  const anyone = { user: { username: 'u', groups: ['system:authenticated'] }, verb: 'get', path: '/version' };
  h.hold();
  const held = h.send('GET', '/api/v1/namespaces/default/configmaps'); // executing in global-default, held at the store
  await h.settle();
  const plType = lookupResource('flowcontrol.apiserver.k8s.io', 'v1', 'prioritylevelconfigurations')!;
  await h.server.store.delete(h.server.registry.key(plType, undefined, 'global-default'));
  // Its schema names no level now: anonymous requests fall to catch-all.
  assert.is(fc.classify(anyone).name, 'catch-all');
  assert.ok(fc.levels.get('global-default')!.quiescing, 'kept while it serves');
  h.release();
  assert.is((await held).status, 200);
  fc.classify(anyone);
  assert.not.ok(fc.levels.has('global-default'), 'gone once idle');
  // The 600 seats over the 225 shares left.
  assert.is(fc.levels.get('workload-low')!.nominalCL, Math.ceil((600 * 100) / 225));
});

test.run();
