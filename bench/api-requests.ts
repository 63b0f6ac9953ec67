// The four requests the API benchmark times, and the objects they need: a namespace of 50 pods
// to list, one pod to get and update, and the default namespace for creates. The same code seeds
// the in-process server and the one behind HTTPS, so both answer the same requests.
import type { ApiRequest } from '../actors/apiserver/request.ts';
import type { KObject } from '../actors/api/types.ts';
import { podManifest } from '../sim/bench/pod.ts';

export const OPS = ['create', 'get', 'update', 'list'] as const;
export type Op = (typeof OPS)[number];

/** Anything that answers a wire request: `ApiServer.handle`, an HTTPS client, a canned answer. */
export type Call<R extends Answer = Answer> = (req: ApiRequest) => Promise<R>;
export interface Answer {
  status: number;
  body: Uint8Array | string;
}

export const EXPECTED_STATUS: Record<Op, number> = { create: 201, get: 200, update: 200, list: 200 };
export const LISTED_PODS = 50;

const LIST_NS = 'bench-list';
const TARGET_NS = 'bench-rw';
const TARGET = 'target';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };
const EMPTY = new Uint8Array(0);
/** Stands for the part of a body that changes per request; split out once so a request costs a concatenation. */
const HOLE = 'BENCH-HOLE-7f3a';

const podsPath = (ns: string) => `/api/v1/namespaces/${ns}/pods`;

/** Calls and fails loudly on any other status, so a benchmark never times error answers. */
export async function expectStatus<R extends Answer>(call: Call<R>, req: ApiRequest, status: number): Promise<R> {
  const res = await call(req);
  if (res.status !== status) {
    const text = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
    throw new Error(`${req.method} ${req.url} answered ${res.status}, expected ${status}: ${text.slice(0, 300)}`);
  }
  return res;
}

function decode(body: Uint8Array | string): KObject {
  return JSON.parse(typeof body === 'string' ? body : Buffer.from(body).toString('utf8')) as KObject;
}

/** A body template: the JSON of `value` with HOLE as a string, split around it. */
function template(value: unknown): (fill: string) => Uint8Array {
  const [before, after, extra] = JSON.stringify(value).split(JSON.stringify(HOLE));
  if (after === undefined || extra !== undefined) throw new Error('a body template needs exactly one hole');
  return (fill) => Buffer.from(before + JSON.stringify(fill) + after);
}

async function createNamespace(call: Call, name: string) {
  const body = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  await expectStatus(call, { method: 'POST', url: '/api/v1/namespaces', headers: HEADERS, body }, 201);
}

/** The `default` ServiceAccount the serviceaccount controller would make, without which pods are refused. */
async function createServiceAccount(call: Call, namespace: string) {
  const body = Buffer.from(JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }));
  await expectStatus(call, { method: 'POST', url: `/api/v1/namespaces/${namespace}/serviceaccounts`, headers: HEADERS, body }, 201);
}

async function createPod(call: Call, name: string, namespace: string): Promise<KObject> {
  const body = Buffer.from(JSON.stringify(podManifest(name, namespace)));
  return decode((await expectStatus(call, { method: 'POST', url: podsPath(namespace), headers: HEADERS, body }, 201)).body);
}

/**
 * Seeds a server through `call` and returns, per operation, the next request to send. Creates
 * get unique names; updates send the pod as last read with a new `bench-seq` label and no
 * resourceVersion (an unconditional update, so requests in flight together do not conflict).
 */
export async function prepareRequests(call: Call): Promise<Record<Op, () => ApiRequest>> {
  await createNamespace(call, LIST_NS);
  await createNamespace(call, TARGET_NS);
  for (const ns of [LIST_NS, TARGET_NS, 'default']) await createServiceAccount(call, ns);
  for (let i = 0; i < LISTED_PODS; i++) await createPod(call, `listed-${String(i).padStart(3, '0')}`, LIST_NS);
  const target = await createPod(call, TARGET, TARGET_NS);
  const { resourceVersion: _, ...meta } = target.metadata;
  const updateBody = template({ ...target, metadata: { ...meta, labels: { ...meta.labels, 'bench-seq': HOLE } } });
  const createBody = template(podManifest(HOLE, 'default'));
  const targetPath = `${podsPath(TARGET_NS)}/${TARGET}`;
  let created = 0;
  let updated = 0;
  return {
    create: () => ({ method: 'POST', url: podsPath('default'), headers: HEADERS, body: createBody(`bench-${String(++created).padStart(7, '0')}`) }),
    get: () => ({ method: 'GET', url: targetPath, headers: HEADERS, body: EMPTY }),
    update: () => ({ method: 'PUT', url: targetPath, headers: HEADERS, body: updateBody(String(++updated)) }),
    list: () => ({ method: 'GET', url: podsPath(LIST_NS), headers: HEADERS, body: EMPTY }),
  };
}
