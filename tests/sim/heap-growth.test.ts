// orchsim run bounds the heap's growth unless the user chose a growth of their own, on node's
// command line or in NODE_OPTIONS, in either spelling V8 accepts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { heapGrowthGiven } from '../../sim/heap-growth.ts';

test('a growth given on the command line or in NODE_OPTIONS is the user\'s', () => {
  assert.ok(heapGrowthGiven(['--heap-growing-percent=20']));
  assert.ok(heapGrowthGiven(['--import', 'x.js', '--heap_growing_percent=80']));
  assert.ok(heapGrowthGiven([], '--max-old-space-size=6000 --heap-growing-percent=30'));
  assert.ok(heapGrowthGiven([], '--heap-growing-percent'));
});

test('other flags, or none, leave the growth to orchsim', () => {
  assert.not.ok(heapGrowthGiven([]));
  assert.not.ok(heapGrowthGiven(['--max-old-space-size=6000', '--expose-gc'], ''));
  assert.not.ok(heapGrowthGiven([], '--heap-growing-percentage=30 --no-heap-growing'));
});

test.run();
