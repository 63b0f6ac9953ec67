import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { StorageError } from '../../../../actors/apiserver/storage/errors.ts';
import { MemoryStore } from '../../../../actors/apiserver/storage/memory.ts';
import type { KObject } from '../../../../actors/api/types.ts';

const obj = (name: string, extra: Record<string, unknown> = {}): KObject => ({ metadata: { name }, ...extra });
const names = (items: KObject[]) => items.map((o) => o.metadata.name);

async function code(p: Promise<unknown> | (() => unknown)): Promise<string> {
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    if (e instanceof StorageError) return e.code;
    throw e;
  }
  return 'ok';
}

test('every commit takes the next revision and stamps it as the resourceVersion', async () => {
  const s = new MemoryStore(100);
  const a = await s.create('/r/a', obj('a'));
  const b = await s.update('/r/a', obj('a', { v: 2 }));
  const c = await s.delete('/r/a');
  assert.equal([a.metadata.resourceVersion, b.metadata.resourceVersion, c.metadata.resourceVersion], ['101', '102', '103']);
  assert.is(s.revision, 103);
});

test('each commit produces exactly one change record, in revision order, with the previous state', async () => {
  const s = new MemoryStore();
  const seen: string[] = [];
  s.onChange((c) => seen.push(`${c.type}:${c.key}@${c.revision}`));
  await s.create('/r/a', obj('a'));
  await s.update('/r/a', obj('a', { v: 2 }));
  await s.delete('/r/a');
  assert.equal(seen, ['ADDED:/r/a@2', 'MODIFIED:/r/a@3', 'DELETED:/r/a@4']);
  const changes = s.changesSince(2);
  assert.equal(changes.map((c) => c.type), ['MODIFIED', 'DELETED']);
  assert.is((changes[1].prev as KObject & { v: number }).v, 2);
  assert.is(changes[1].object.metadata.resourceVersion, '4');
});

test('the state at any revision inside the window is answerable, and lists read one snapshot', async () => {
  const s = new MemoryStore();
  await s.create('/r/a', obj('a'));
  await s.create('/r/b', obj('b'));
  const r = s.revision;
  await s.delete('/r/a');
  await s.create('/r/c', obj('c'));
  assert.equal(names((await s.list('/r/')).items), ['b', 'c']);
  assert.equal(names((await s.list('/r/', { revision: r })).items), ['a', 'b']);
  assert.is((await s.get('/r/a', r))?.metadata.name, 'a');
  assert.is(await s.get('/r/a'), undefined);
});

test('limit and after page through keys in order, counting what remains', async () => {
  const s = new MemoryStore();
  for (const n of ['d', 'a', 'c', 'b', 'e']) await s.create(`/r/${n}`, obj(n));
  await s.create('/q/x', obj('x'));
  const first = await s.list('/r/', { limit: 2 });
  assert.equal(names(first.items), ['a', 'b']);
  assert.is(first.remaining, 3);
  assert.is(first.lastKey, '/r/b');
  const second = await s.list('/r/', { limit: 2, after: first.lastKey, revision: first.revision });
  assert.equal(names(second.items), ['c', 'd']);
  const last = await s.list('/r/', { limit: 2, after: second.lastKey, revision: first.revision });
  assert.equal(names(last.items), ['e']);
  assert.is(last.lastKey, undefined);
});

test('pages read at the first page\'s revision ignore later writes; a filter counts what it skips as remaining', async () => {
  const s = new MemoryStore();
  for (const n of ['a', 'b', 'c', 'd', 'e', 'f']) await s.create(`/r/${n}`, obj(n, { even: 'bdf'.includes(n) }));
  const first = await s.list('/r/', { limit: 2 });
  await s.delete('/r/c');
  await s.create('/r/cc', obj('cc'));
  await s.update('/r/d', obj('d', { v: 2 }));
  const second = await s.list('/r/', { limit: 2, after: first.lastKey, revision: first.revision });
  assert.equal(names(second.items), ['c', 'd']);
  assert.is((second.items[1] as KObject & { v?: number }).v, undefined, 'd as it was at the first page');
  assert.is(second.remaining, 2);
  assert.equal(names((await s.list('/r/', { limit: 10 })).items), ['a', 'b', 'cc', 'd', 'e', 'f'], 'a new list sees the writes');
  const even = (o: KObject) => (o as KObject & { even?: boolean }).even === true;
  const filtered = await s.list('/r/', { limit: 1, filter: even, revision: first.revision });
  assert.equal(names(filtered.items), ['b']);
  assert.is(filtered.remaining, 4, 'c, d, e, f: counted without the filter');
  // Compaction past the pages' revision: a page at an older revision is refused, not served stale.
  s.compact(s.revision);
  assert.is(await code(s.list('/r/', { limit: 2, after: first.lastKey, revision: first.revision })), 'Compacted');
});

test('a name can be reused after deletion; a live name cannot be created twice', async () => {
  const s = new MemoryStore();
  await s.create('/r/a', obj('a'));
  assert.is(await code(s.create('/r/a', obj('a'))), 'KeyExists');
  await s.delete('/r/a');
  assert.is(await code(s.create('/r/a', obj('a'))), 'ok');
});

test('a write with a stale expected revision is refused', async () => {
  const s = new MemoryStore();
  const a = await s.create('/r/a', obj('a'));
  await s.update('/r/a', obj('a', { v: 2 }));
  assert.is(await code(s.update('/r/a', obj('a', { v: 3 }), Number(a.metadata.resourceVersion))), 'RevisionConflict');
  assert.is(await code(s.delete('/r/a', Number(a.metadata.resourceVersion))), 'RevisionConflict');
  assert.is(await code(s.update('/r/missing', obj('m'))), 'KeyNotFound');
});

test('compaction forgets history at and below a revision but keeps the state at it', async () => {
  const s = new MemoryStore();
  await s.create('/r/a', obj('a'));
  await s.update('/r/a', obj('a', { v: 2 }));
  await s.create('/r/b', obj('b'));
  await s.delete('/r/b');
  const mid = s.revision;
  await s.update('/r/a', obj('a', { v: 3 }));
  s.compact(mid);
  assert.is(s.compactedRevision, mid);
  assert.is(await code(s.get('/r/a', mid - 1)), 'Compacted');
  assert.is(await code(() => s.changesSince(mid - 1)), 'Compacted');
  assert.equal(s.changesSince(mid).map((c) => c.type), ['MODIFIED']);
  assert.is(((await s.get('/r/a', mid)) as KObject & { v: number }).v, 2);
  assert.equal(names((await s.list('/r/', { revision: mid })).items), ['a']);
  assert.is(await code(s.get('/r/a', s.revision + 1)), 'TooLargeRevision');
});

test.run();
