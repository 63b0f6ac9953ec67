// The store's commit rate and list cost: MemoryStore against a plain Map holding the same pod
// objects. Writes run in batches so that tinybench's per-call cost does not hide a Map.set.
import type { KObject } from '../actors/api/types.ts';
import { MemoryStore } from '../actors/apiserver/storage/memory.ts';
import { measure, type MeasureOptions } from './measure.ts';
import { podManifest } from '../sim/bench/pod.ts';
import { row, type SuiteResult } from './report.ts';

const KEYS = 1000;
const PAGED_KEYS = 50_000;
const PAGE = 500;
const WRITES_PER_CALL = 100;
/** Updates of every listed key after its creation, so that an older revision has history to skip. */
const UPDATES_PER_LISTED_KEY = 3;
const WRITES: MeasureOptions = { timeMs: 1000, warmupMs: 200, opsPerCall: WRITES_PER_CALL };
const READS: MeasureOptions = { timeMs: 1000, warmupMs: 200 };

const keyOf = (namespace: string, i: number) => `/registry/pods/${namespace}/bench-pod-${String(i).padStart(6, '0')}`;

/** The same 1,000 pod objects go to the store and to the Map; the store stamps their resourceVersion. */
function podPool(namespace: string): KObject[] {
  return Array.from({ length: KEYS }, (_, i) => podManifest(`bench-pod-${String(i).padStart(6, '0')}`, namespace));
}

async function creates() {
  const pool = podPool('create');
  const store = new MemoryStore();
  const map = new Map<string, KObject>();
  let s = 0;
  let m = 0;
  const measured = await measure(async () => {
    for (let i = 0; i < WRITES_PER_CALL; i++, s++) await store.create(keyOf('create', s), pool[s % KEYS]);
  }, WRITES);
  const baseline = await measure(() => {
    for (let i = 0; i < WRITES_PER_CALL; i++, m++) map.set(keyOf('create', m), pool[m % KEYS]);
  }, WRITES);
  return row('store create', measured, baseline);
}

async function updates() {
  const pool = podPool('update');
  const keys = pool.map((_, i) => keyOf('update', i));
  const store = new MemoryStore();
  const map = new Map<string, KObject>();
  for (let i = 0; i < KEYS; i++) {
    await store.create(keys[i], pool[i]);
    map.set(keys[i], pool[i]);
  }
  let s = 0;
  let m = 0;
  // As the registry does: a compare-and-swap on the revision the writer read.
  const measured = await measure(async () => {
    for (let i = 0; i < WRITES_PER_CALL; i++, s++) {
      const k = s % KEYS;
      await store.update(keys[k], pool[k], Number(pool[k].metadata.resourceVersion));
    }
  }, WRITES);
  const baseline = await measure(() => {
    for (let i = 0; i < WRITES_PER_CALL; i++, m++) map.set(keys[m % KEYS], pool[m % KEYS]);
  }, WRITES);
  return row('store update', measured, baseline);
}

/** 1,000 listed keys, a neighbouring namespace of the same size, and history after the creates. */
async function lists() {
  const store = new MemoryStore();
  const map = new Map<string, KObject>();
  const listed = podPool('listed');
  for (const [ns, pool] of [['before', podPool('before')], ['listed', listed], ['zafter', podPool('zafter')]] as const)
    for (let i = 0; i < KEYS; i++) await store.create(keyOf(ns, i), pool[i]);
  for (let i = 0; i < KEYS; i++) map.set(keyOf('listed', i), listed[i]);
  const older = store.revision;
  for (let u = 0; u < UPDATES_PER_LISTED_KEY; u++) for (let i = 0; i < KEYS; i++) await store.update(keyOf('listed', i), { ...listed[i], metadata: { ...listed[i].metadata } });
  const prefix = '/registry/pods/listed/';
  const check = (n: number) => {
    if (n !== KEYS) throw new Error(`list returned ${n} items, expected ${KEYS}`);
  };
  const newest = await measure(async () => check((await store.list(prefix)).items.length), READS);
  const atOlder = await measure(async () => check((await store.list(prefix, { revision: older })).items.length), READS);
  const baseline = await measure(() => check(Array.from(map.values()).length), READS);
  return [row('store list 1000 newest', newest, baseline), row(`store list 1000 older (${UPDATES_PER_LISTED_KEY} newer versions each)`, atOlder, baseline)];
}

/** An informer's first list of a large collection: pages of 500 (client-go's pager), all at the first page's revision. */
async function pagedList() {
  const store = new MemoryStore();
  const map = new Map<string, KObject>();
  const pool = podPool('paged');
  for (let i = 0; i < PAGED_KEYS; i++) {
    const o = { ...pool[i % KEYS], metadata: { ...pool[i % KEYS].metadata } };
    await store.create(keyOf('paged', i), o);
    map.set(keyOf('paged', i), o);
  }
  const prefix = '/registry/pods/paged/';
  let w = 0;
  const measured = await measure(async () => {
    // A write first, so each list reads a new revision (as informers start at different times).
    const k = keyOf('paged', w++ % PAGED_KEYS);
    const o = (await store.get(k))!;
    await store.update(k, { ...o, metadata: { ...o.metadata } });
    let n = 0;
    let page = await store.list(prefix, { limit: PAGE });
    for (n += page.items.length; page.lastKey; n += page.items.length) page = await store.list(prefix, { limit: PAGE, after: page.lastKey, revision: page.revision });
    if (n !== PAGED_KEYS) throw new Error(`paged list returned ${n} items, expected ${PAGED_KEYS}`);
  }, READS);
  const baseline = await measure(() => {
    if (Array.from(map.values()).length !== PAGED_KEYS) throw new Error('map size');
  }, READS);
  return row(`store list ${PAGED_KEYS} in pages of ${PAGE}`, measured, baseline);
}

export async function storeSuite(seed: number): Promise<SuiteResult> {
  const rows = [await creates(), await updates(), ...(await lists()), await pagedList()];
  return {
    suite: 'store',
    seed,
    notes: [
      `writes: batches of ${WRITES_PER_CALL} awaited MemoryStore.create / update (with the expected revision) of ~1.5 KB pods, against Map.set of the same objects; no latency per operation`,
      `lists: MemoryStore.list of a prefix holding ${KEYS} keys between two other namespaces of ${KEYS}, at the newest revision and at the revision before ${UPDATES_PER_LISTED_KEY} updates of each key, against Array.from(map.values()) of a ${KEYS}-entry Map`,
      `paged list: ${PAGED_KEYS} keys read in pages of ${PAGE} (limit and after, at the first page's revision; one write before each list, so each reads a new revision), as an informer's first list, against Array.from(map.values()) of the same ${PAGED_KEYS}`,
      'the store keeps every version (no compaction during the run), as it does within its compaction window',
    ],
    rows,
  };
}
