// The world the API server fuzzer throws requests at: a few valid objects of the kinds whose rules
// differ (a pending pod, a bound running pod guarded by a PodDisruptionBudget, a plain and an
// immutable ConfigMap, a ControllerRevision, a node, a namespace), and a dump of the whole store
// to prove that a refused request changed nothing.
import type { KObject } from '../../actors/api/types.ts';
import type { ApiResponse } from '../../actors/apiserver/handlers/response.ts';
import type { ApiRequest } from '../../actors/apiserver/request.ts';
import type { ApiServer } from '../../actors/apiserver/server.ts';
import type { Draw } from './malformed-bodies.ts';

/** One seeded object and the URLs that address it. */
export interface Target {
  collection: string;
  object: string;
  apiVersion: string;
  kind: string;
  namespaced: boolean;
  /** The object as stored after seeding (a private copy). */
  stored: KObject;
  /** A create body for the same name: posting it again collides (409 AlreadyExists). */
  manifest: KObject;
}

export interface Fixtures {
  namespace: string;
  ns: Target;
  pod: Target;
  /** Bound to the node and Running, so a PodDisruptionBudget guards its eviction (429). */
  runningPod: Target;
  configMap: Target;
  immutableConfigMap: Target;
  revision: Target;
  node: Target;
  all: Target[];
  /** Reads below this revision answer 410 Expired (the state at it is kept, as etcd keeps it). */
  compactedRevision: number;
}

export const FUZZ_NAMESPACE = 'fuzz';

const ns = FUZZ_NAMESPACE;
const core = (plural: string, namespaced = true) => (namespaced ? `/api/v1/namespaces/${ns}/${plural}` : `/api/v1/${plural}`);
const apps = (plural: string) => `/apis/apps/v1/namespaces/${ns}/${plural}`;
const container = { name: 'c', image: 'nginx:1.27' };

const MANIFESTS: { key: Exclude<keyof Fixtures, 'all' | 'compactedRevision' | 'namespace'>; collection: string; namespaced: boolean; body: KObject }[] = [
  { key: 'ns', collection: core('namespaces', false), namespaced: false,
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { team: 'fuzz' } } } },
  { key: 'node', collection: core('nodes', false), namespaced: false,
    body: { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1', labels: { zone: 'a' } }, spec: { podCIDR: '10.0.1.0/24' } } },
  { key: 'pod', collection: core('pods'), namespaced: true,
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p1', labels: { app: 'web' }, annotations: { note: 'x' } },
      spec: { containers: [container], tolerations: [{ key: 'k', operator: 'Exists' }] } } },
  { key: 'runningPod', collection: core('pods'), namespaced: true,
    body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'run1', labels: { app: 'run' } }, spec: { nodeName: 'n1', containers: [container] } } },
  { key: 'configMap', collection: core('configmaps'), namespaced: true,
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm1', labels: { app: 'web' } }, data: { a: '1', b: 'two' } } },
  { key: 'immutableConfigMap', collection: core('configmaps'), namespaced: true,
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm-frozen' }, data: { k: 'v' }, immutable: true } },
  { key: 'revision', collection: apps('controllerrevisions'), namespaced: true,
    body: { apiVersion: 'apps/v1', kind: 'ControllerRevision', metadata: { name: 'cr1', labels: { app: 'web' } },
      data: { spec: { template: { replicas: 1, tags: ['a', 'b'] } } }, revision: 1 } },
];

const PDB: KObject = { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'guard' },
  spec: { minAvailable: 1, selector: { matchLabels: { app: 'run' } } } };

export const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

export function text(body: ApiResponse['body']): string {
  return typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
}

async function must(server: ApiServer, method: string, url: string, body?: unknown): Promise<KObject> {
  const req: ApiRequest = { method, url, headers: { 'content-type': 'application/json', 'user-agent': 'fuzz-seed/1.0' },
    body: body === undefined ? new Uint8Array() : utf8(JSON.stringify(body)) };
  const res = await server.handle(req);
  if (res.status >= 300) throw new Error(`seeding failed: ${method} ${url} answered ${res.status}: ${text(res.body)}`);
  return JSON.parse(text(res.body)) as KObject;
}

/** Creates the objects (the server must be started), marks the running pod Running, and compacts history. */
export async function seedFixtures(server: ApiServer): Promise<Fixtures> {
  const targets: Partial<Record<(typeof MANIFESTS)[number]['key'], Target>> = {};
  for (const m of MANIFESTS) {
    const created = await must(server, 'POST', m.collection, m.body);
    const object = `${m.collection}/${created.metadata.name}`;
    targets[m.key] = { collection: m.collection, object, apiVersion: String(m.body.apiVersion), kind: String(m.body.kind),
      namespaced: m.namespaced, stored: created, manifest: structuredClone(m.body) };
  }
  const running = targets.runningPod!;
  await must(server, 'PUT', `${running.object}/status`, { ...running.stored, status: { phase: 'Running' } });
  await must(server, 'POST', `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets`, PDB);
  for (const t of Object.values(targets)) t.stored = await must(server, 'GET', t.object);
  // Keep the newest revision readable; everything older answers 410.
  const compactedRevision = server.store.revision - 1;
  server.store.compact(compactedRevision);
  const all = Object.values(targets);
  return { namespace: ns, ...(targets as Record<(typeof MANIFESTS)[number]['key'], Target>), all, compactedRevision };
}

/** Every stored object and the revision, serialized: equal dumps mean nothing was written. */
export async function dumpStore(server: ApiServer): Promise<string> {
  const listed = await server.store.list('/');
  return JSON.stringify({ revision: server.store.revision, items: listed.items });
}

// What the request generators share: a malformed request, how one is built, and the variants of
// the seeded objects (stale, changed) that requests carry.

export interface Malformed {
  /** `family/variant`, for the distribution report. */
  generator: string;
  request: ApiRequest;
  /** When set, the only codes a correct server may answer. */
  expect?: readonly number[];
  /**
   * The real server may answer with the 500 it gives a strategic merge error it does not classify
   * (strategicpatch's plain errors: an unknown `$patch`, a missing merge key, mixed list items): a
   * Status without a reason. Implied where `expect` lists 500.
   */
  unclassified?: boolean;
}

export type Generator = (d: Draw, f: Fixtures) => Malformed;

export const CT = {
  json: 'application/json',
  yaml: 'application/yaml',
  protobuf: 'application/vnd.kubernetes.protobuf',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  jsonPatch: 'application/json-patch+json',
  apply: 'application/apply-patch+yaml',
};

export function request(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): ApiRequest {
  const bytes = body === undefined ? new Uint8Array() : body instanceof Uint8Array ? body : utf8(typeof body === 'string' ? body : JSON.stringify(body));
  return { method, url, headers: { 'content-type': CT.json, 'user-agent': 'fuzz/1.0', ...headers }, body: bytes };
}

export const copy = <T>(v: T): T => structuredClone(v);
export const nameOf = (t: Target): string => String(t.stored.metadata.name);
/** A resourceVersion older than the object's: a write carrying it conflicts (409). */
export const staleRv = (t: Target): string => String(Number(t.stored.metadata.resourceVersion) - 1);
export const staleCopy = (t: Target) => ({ ...copy(t.stored), metadata: { ...copy(t.stored.metadata), resourceVersion: staleRv(t) } });
/** The stored object with a fresh change: a valid PUT. */
export const changedCopy = (t: Target) => ({ ...copy(t.stored), metadata: { ...copy(t.stored.metadata), labels: { ...t.stored.metadata.labels, fuzzed: 'yes' } } });
