// Thousands of malformed requests, drawn from one seed, thrown at a seeded API server. Each must be
// answered, promptly, with a 4xx whose body is a Failure Status carrying the same code (or, where
// the real server answers a strategic merge error with its unclassified 500, that 500), and must
// leave every stored object and the store's revision exactly as they were. FUZZ_SEED and
// FUZZ_COUNT override the seed and the number of requests; the seed is printed first.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ApiServerOptions } from '../../../actors/apiserver/options.ts';
import { bareServerOptions } from '../../helpers/bare-server.ts';
import type { ApiResponse } from '../../../actors/apiserver/handlers/response.ts';
import type { ApiRequest } from '../../../actors/apiserver/request.ts';
import { ApiServer } from '../../../actors/apiserver/server.ts';
import { wallClock } from '../../../sim/clock.ts';
import { seededRandom } from '../../../sim/random.ts';
import { startTestServer } from '../../helpers/api-server.ts';
import { dumpStore, seedFixtures, text, type Fixtures } from '../../helpers/fuzz-fixtures.ts';
import { Draw, malformedRequest, type Malformed } from '../../helpers/malformed-requests.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_122);
const COUNT = Number(process.env.FUZZ_COUNT ?? 5_000);
const HTTPS_COUNT = 300;
const TIMEOUT_MS = 5_000;
/**
 * A request slower than this is a finding even when it ends: the timeout cannot interrupt
 * synchronous work, so a CPU-bound request (a JSON patch copying itself) shows up here instead.
 */
const SLOW_MS = 2_000;
console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} reproduces this run), ${COUNT} requests in process, ${HTTPS_COUNT} over HTTPS`);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

interface Finding {
  generator: string;
  problem: string;
  request: ApiRequest;
  answer?: string;
}

async function newServer(given: Partial<ApiServerOptions> = {}): Promise<{ server: ApiServer; fixtures: Fixtures }> {
  const server = new ApiServer(bareServerOptions({ etcdCompactionIntervalMs: 0, ...given }), { clock: wallClock(), random: seededRandom(SEED).fork('server') });
  await server.start();
  return { server, fixtures: await seedFixtures(server) };
}

/** Settles with the answer, the exception, or `timeout` when the request takes longer than the limit. */
async function within(ms: number, work: () => Promise<Answer>): Promise<Answer | { error: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ error: string }>((resolve) => { timer = setTimeout(() => resolve({ error: `no answer within ${ms} ms` }), ms); });
  try {
    return await Promise.race([work().catch((e: unknown) => ({ error: `threw ${e instanceof Error ? e.stack : String(e)}` })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function inProcess(server: ApiServer, req: ApiRequest): () => Promise<Answer> {
  return async () => {
    const r: ApiResponse = await server.handle(req);
    return { status: r.status, headers: r.headers, body: text(r.body) };
  };
}

/** What is wrong with an answer to a malformed request; empty when it is a proper refusal. */
function problemsWith(m: Malformed, a: Answer): string[] {
  const problems: string[] = [];
  const unclassified = a.status === 500 && (m.unclassified === true || m.expect?.includes(500) === true);
  if (!unclassified && (a.status < 400 || a.status > 499)) problems.push(`answered ${a.status}, not a 4xx`);
  else if (m.expect && !m.expect.includes(a.status)) problems.push(`answered ${a.status}, expected ${m.expect.join(' or ')}`);
  const type = String(a.headers['content-type'] ?? '');
  if (!type.startsWith('application/json')) problems.push(`Content-Type ${JSON.stringify(type)}, not application/json`);
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(a.body) as Record<string, unknown>;
  } catch {
    return [...problems, 'the body is not JSON'];
  }
  if (s.kind !== 'Status' || s.apiVersion !== 'v1') problems.push(`kind ${String(s.kind)} ${String(s.apiVersion)}, not a v1 Status`);
  if (s.status !== 'Failure') problems.push(`status ${String(s.status)}, not Failure`);
  // The real unclassified 500 has no reason (StatusReasonUnknown is empty).
  if (unclassified ? s.reason !== undefined : typeof s.reason !== 'string' || s.reason === '') problems.push(unclassified ? 'a reason on an unclassified 500' : 'no reason');
  if (typeof s.message !== 'string' || s.message === '') problems.push('no message');
  if (s.code !== a.status) problems.push(`code ${String(s.code)} differs from HTTP ${a.status}`);
  return problems;
}

function describe(req: ApiRequest): string {
  const body = Buffer.from(req.body);
  const printable = /^[\x09\x0a\x0d\x20-\x7e]*$/.test(body.toString('latin1'));
  const shown = printable ? body.toString('utf8') : `base64:${body.toString('base64')}`;
  return `${req.method} ${req.url} ${JSON.stringify(req.headers)} ${shown.length > 300 ? `${shown.slice(0, 300)}... (${body.length} bytes)` : shown}`;
}

function report(findings: Finding[], codes: Map<string, Map<number, number>>): string {
  const lines = [`${findings.length} findings`];
  const seen = new Set<string>();
  for (const f of findings) {
    const key = `${f.generator} ${f.problem.replace(/\d+/g, 'N')}`;
    if (seen.has(key) || seen.size >= 12) continue;
    seen.add(key);
    lines.push(`- [${f.generator}] ${f.problem}\n    ${describe(f.request)}\n    -> ${(f.answer ?? '').slice(0, 400)}`);
  }
  return `${lines.join('\n')}\n${distribution(codes)}`;
}

/** `400: 1234, 404: 300...` overall, then per generator family. */
function distribution(codes: Map<string, Map<number, number>>): string {
  const total = new Map<number, number>();
  const families = new Map<string, Map<number, number>>();
  for (const [generator, byCode] of codes) {
    const family = generator.split('/')[0] as string;
    const fam = families.get(family) ?? new Map<number, number>();
    families.set(family, fam);
    for (const [code, n] of byCode) {
      total.set(code, (total.get(code) ?? 0) + n);
      fam.set(code, (fam.get(code) ?? 0) + n);
    }
  }
  const line = (m: Map<number, number>) => [...m].sort((a, b) => a[0] - b[0]).map(([c, n]) => `${c}: ${n}`).join(', ');
  return [`status codes: ${line(total)}`, ...[...families].sort().map(([f, m]) => `  ${f.padEnd(18)} ${line(m)}`)].join('\n');
}

/** Sends each request, checks the answer and the store after it; a changed store is re-baselined so later findings stay separate. */
async function fuzz(server: ApiServer, requests: Iterable<Malformed>, send: (req: ApiRequest) => () => Promise<Answer>) {
  const findings: Finding[] = [];
  const codes = new Map<string, Map<number, number>>();
  let baseline = await dumpStore(server);
  let count = 0;
  for (const m of requests) {
    count++;
    const started = performance.now();
    const a = await within(TIMEOUT_MS, send(m.request));
    const elapsedMs = performance.now() - started;
    const found = (problem: string, answer?: string) => findings.push({ generator: m.generator, problem, request: m.request, answer });
    if ('error' in a) found(a.error);
    else {
      const byCode = codes.get(m.generator) ?? new Map<number, number>();
      codes.set(m.generator, byCode);
      byCode.set(a.status, (byCode.get(a.status) ?? 0) + 1);
      for (const p of problemsWith(m, a)) found(p, a.body);
      if (elapsedMs > SLOW_MS) found(`took ${Math.round(elapsedMs)} ms`);
    }
    const after = await dumpStore(server);
    if (after !== baseline) {
      found('the store changed', 'error' in a ? a.error : `${a.status} ${a.body}`);
      baseline = after;
    }
  }
  return { findings, codes, count };
}

function* draws(seed: number, stream: string, fixtures: Fixtures, n: number): Generator<Malformed> {
  const d = new Draw(seededRandom(seed).fork(stream));
  for (let i = 0; i < n; i++) yield malformedRequest(d, fixtures);
}

test('the same seed draws the same malformed requests', async () => {
  const { server, fixtures } = await newServer();
  const trace = (seed: number) => [...draws(seed, 'in-process', fixtures, 300)].map((m) => `${m.generator} ${describe(m.request)}`);
  assert.equal(trace(SEED), trace(SEED));
  assert.not.equal(trace(SEED), trace(SEED + 1));
  server.stop();
});

test(`${COUNT} malformed requests each get a 4xx Failure Status and leave the store unchanged`, async () => {
  const { server, fixtures } = await newServer();
  const before = JSON.parse(await dumpStore(server)) as unknown;
  const started = performance.now();
  const { findings, codes, count } = await fuzz(server, draws(SEED, 'in-process', fixtures, COUNT), (req) => inProcess(server, req));
  console.log(`${count} requests in ${((performance.now() - started) / 1000).toFixed(1)} s\n${distribution(codes)}`);
  assert.is(findings.length, 0, report(findings, codes));
  assert.equal(JSON.parse(await dumpStore(server)), before);
  server.stop();
});

test('a resourceVersion newer than the store\'s answers 504 Timeout with Retry-After, and writes nothing', async () => {
  const { server, fixtures } = await newServer();
  const before = await dumpStore(server);
  const ahead = server.store.revision + 1_000;
  for (const url of [`${fixtures.pod.object}?resourceVersion=${ahead}`, `${fixtures.pod.collection}?resourceVersion=${ahead}`,
    `${fixtures.configMap.collection}?resourceVersion=${ahead}&resourceVersionMatch=NotOlderThan`]) {
    const r = await server.handle({ method: 'GET', url, headers: {}, body: new Uint8Array() });
    const s = JSON.parse(text(r.body)) as Record<string, unknown>;
    assert.is(r.status, 504, url);
    assert.is(s.reason, 'Timeout');
    assert.is(s.code, 504);
    assert.ok(r.headers['retry-after'], 'a 504 tells the client when to retry');
  }
  assert.is(await dumpStore(server), before);
  server.stop();
});

test(`over HTTPS, ${HTTPS_COUNT} malformed requests and oversized bodies are refused with a Status`, async () => {
  const limit = 16 * 1024;
  const s = await startTestServer({ maxRequestBodyBytes: limit, etcdCompactionIntervalMs: 0 });
  try {
    const fixtures = await seedFixtures(s.server);
    const send = (req: ApiRequest) => async (): Promise<Answer> => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter((e): e is [string, string] => e[1] !== undefined));
      // Node sends a DELETE body unframed unless told its length.
      if (req.body.length > 0) headers['content-length'] = String(req.body.length);
      return s.request(req.method, req.url, { body: req.body.length > 0 ? req.body : undefined, headers });
    };
    const d = new Draw(seededRandom(SEED).fork('https-oversized'));
    const oversized: Malformed[] = Array.from({ length: 20 }, (_, i) => {
      const method = d.pick(['POST', 'PUT', 'PATCH']);
      const url = method === 'POST' ? fixtures.configMap.collection : fixtures.configMap.object;
      const body = `{"metadata":{"name":"big-${i}"},"data":{"a":"${'x'.repeat(limit + d.int(4 * limit))}"}}`;
      const ct = method === 'PATCH' ? 'application/merge-patch+json' : 'application/json';
      return { generator: 'oversized/body', request: { method, url, headers: { 'content-type': ct }, body: new TextEncoder().encode(body) }, expect: [413] };
    });
    // A body over the limit is refused before it is read, whatever else is wrong with it.
    const capped = (m: Malformed): Malformed => (m.request.body.length > limit ? { ...m, expect: [413] } : m);
    const requests = [...[...draws(SEED, 'https', fixtures, HTTPS_COUNT)].map(capped), ...oversized];
    const { findings, codes, count } = await fuzz(s.server, requests, send);
    console.log(`HTTPS: ${count} requests\n${distribution(codes)}`);
    assert.is(findings.length, 0, report(findings, codes));
    assert.is(codes.get('oversized/body')?.get(413), oversized.length, 'every oversized body answers 413');
    const big = await send((oversized[0] as Malformed).request)();
    assert.is((JSON.parse(big.body) as { reason?: string }).reason, 'RequestEntityTooLarge');
  } finally {
    await s.stop();
  }
});

test.run();
