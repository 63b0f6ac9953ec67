// An informer's cache: its namespace and node indexes (and the nodes it names) follow puts, moves
// and removals; a cache made without indexes holds the same objects and refuses index reads with a
// clear error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ObjectCache } from '../../../actors/client/cache.ts';
import type { KObject } from '../../../actors/api/types.ts';

const pod = (namespace: string, name: string, nodeName?: string): KObject =>
  ({ metadata: { namespace, name }, spec: nodeName ? { nodeName } : {} }) as KObject;
const names = (objs: KObject[]) => objs.map((o) => o.metadata.name);

test('the indexes follow a pod bound, moved and removed', () => {
  const cache = new ObjectCache();
  cache.put(pod('a', 'p1'));
  cache.put(pod('a', 'p2', 'n1'));
  cache.put(pod('b', 'p3', 'n1'));
  assert.equal(names(cache.inNamespace('a')), ['p1', 'p2']);
  assert.equal(names(cache.onNode('')), ['p1']);
  assert.equal([...cache.nodeNames()].sort(), ['', 'n1']);
  cache.put(pod('a', 'p1', 'n1'));
  assert.equal(names(cache.onNode('')), []);
  assert.equal([...cache.nodeNames()], ['n1'], 'a node with no pod left is no longer named');
  assert.equal(names(cache.onNode('n1')), ['p2', 'p3', 'p1']);
  cache.remove('a/p2');
  assert.equal(names(cache.inNamespace('a')), ['p1']);
  assert.equal(names(cache.onNode('n1')), ['p3', 'p1']);
});

test('without indexes the cache holds the same objects and says why it cannot answer by namespace or node', () => {
  const cache = new ObjectCache({ indexed: false });
  cache.put(pod('a', 'p1'));
  const old = cache.put(pod('a', 'p1', 'n1'));
  assert.is(old?.metadata.name, 'p1');
  assert.is((cache.byKey('a/p1')?.spec as { nodeName?: string }).nodeName, 'n1');
  assert.is(cache.size, 1);
  assert.throws(() => cache.inNamespace('a'), /keeps no index: its informer was made with indexed: false/);
  assert.throws(() => cache.onNode('n1'), /keeps no index/);
  assert.throws(() => cache.nodeNames(), /keeps no index/);
  assert.is(cache.remove('a/p1')?.metadata.name, 'p1');
  assert.is(cache.size, 0);
});

test.run();
