// orchsim run bounds the heap's growth unless node's command line chose a growth of its own, in
// either spelling V8 accepts (node refuses the flag in NODE_OPTIONS, so that is not a way in).
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { heapGrowthGiven } from '../../sim/heap-growth.ts';

test('a growth given on node\'s command line is the user\'s', () => {
  assert.ok(heapGrowthGiven(['--heap-growing-percent=20']));
  assert.ok(heapGrowthGiven(['--import', 'x.js', '--heap_growing_percent=80']));
  assert.ok(heapGrowthGiven(['--heap-growing-percent']));
});

test('other flags, or none, leave the growth to orchsim', () => {
  assert.not.ok(heapGrowthGiven([]));
  assert.not.ok(heapGrowthGiven(['--max-old-space-size=6000', '--expose-gc']));
  assert.not.ok(heapGrowthGiven(['--heap-growing-percentage=30', '--no-heap-growing']));
});

test('node refuses the flag in NODE_OPTIONS, which is why only its command line counts', () => {
  const r = spawnSync(process.execPath, ['-e', '0'], { env: { ...process.env, NODE_OPTIONS: '--heap-growing-percent=70' }, encoding: 'utf8' });
  assert.is.not(r.status, 0);
  assert.match(r.stderr, /not allowed in NODE_OPTIONS/);
});

test.run();
