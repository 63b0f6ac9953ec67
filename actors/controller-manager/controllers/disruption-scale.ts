// How many pods a budget expects when it needs its pods' controllers (maxUnavailable, or
// minAvailable as a percentage), as the real disruption controller's getExpectedScale finds them:
// each pod's controller reference is tried against the workloads the controller manager caches (a
// ReplicaSet a Deployment controls counts as its Deployment; StatefulSets; other ReplicaSets),
// then against the `scale` subresource of whatever kind it names, the kind's resource found
// through discovery as a RESTMapper finds it. Each controller's desired replicas count once.
// A pod with no controller reference is unmanaged (left out, and named to the caller); a
// reference nothing answers for fails the whole count with the real messages.
import { isNotFound } from '../../api/status.ts';
import type { KObject, OwnerReference } from '../../api/types.ts';
import type { ApiClient } from '../../client/client.ts';
import type { Informer } from '../../client/informer.ts';
import type { Deployment, ReplicaSet, StatefulSet } from '../../api/model/apps.ts';
import type { Scale as ScaleObject } from '../../api/model/autoscaling.ts';

/** A controller and its desired replicas. */
interface Scale {
  uid: string;
  replicas: number;
}

type Finder = (ref: OwnerReference, namespace: string) => Scale | undefined | Promise<Scale | undefined>;

interface ApiResource {
  name: string;
  kind: string;
  group?: string;
  version?: string;
}

/** The group versions a Scale may be served in (the scale client's converter). */
const SCALE_VERSIONS = new Set(['autoscaling/v1', 'extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2']);

export const controllerOf = (o: KObject): OwnerReference | undefined => o.metadata.ownerReferences?.find((r) => r.controller === true);

const replicasOf = (o: ReplicaSet | Deployment | StatefulSet): number => o.spec?.replicas ?? 1;

/** schema.ParseGroupVersion. */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: parts[0]! };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

/** verifyGroupKind: whether the reference names `kind` in one of `groups`. */
function names(ref: OwnerReference, kind: string, groups: string[]): boolean {
  const { group } = parseGroupVersion(ref.apiVersion);
  return ref.kind === kind && groups.includes(group);
}

const APPS = ['apps', 'extensions'];

export class ControllerScales {
  readonly #finders: Finder[];

  constructor(readonly client: ApiClient, readonly sets: Informer, readonly deployments: Informer, readonly statefulSets: Informer) {
    // The real order; ReplicationControllers are not served, so their references fall to the scale finder.
    this.#finders = [(r, ns) => this.#deployment(r, ns), (r, ns) => this.#replicaSet(r, ns), (r, ns) => this.#statefulSet(r, ns), (r, ns) => this.#scale(r, ns)];
  }

  /** The pods' controllers' replicas summed, and the names of the pods without a controller. */
  async expectedScale(pods: readonly KObject[]): Promise<{ expected: number; unmanaged: string[] }> {
    const scales = new Map<string, number>();
    const unmanaged: string[] = [];
    for (const pod of pods) {
      const ref = controllerOf(pod);
      if (!ref) {
        unmanaged.push(pod.metadata.name!);
        continue;
      }
      if (scales.has(ref.uid)) continue;
      let found: Scale | undefined;
      for (const finder of this.#finders) if ((found = await finder(ref, pod.metadata.namespace!))) break;
      if (!found) throw new Error(`found no controllers for pod ${JSON.stringify(pod.metadata.name)}`);
      scales.set(found.uid, found.replicas);
    }
    let expected = 0;
    for (const n of scales.values()) expected += n;
    return { expected, unmanaged };
  }

  #ownedSet(ref: OwnerReference, namespace: string): KObject | undefined {
    if (!names(ref, 'ReplicaSet', APPS)) return undefined;
    const rs = this.sets.cache.get(namespace, ref.name);
    return rs?.metadata.uid === ref.uid ? rs : undefined;
  }

  #deployment(ref: OwnerReference, namespace: string): Scale | undefined {
    const rs = this.#ownedSet(ref, namespace);
    const owner = rs && controllerOf(rs);
    if (!owner || !names(owner, 'Deployment', APPS)) return undefined;
    const d = this.deployments.cache.get(namespace, owner.name);
    return d?.metadata.uid === owner.uid ? { uid: d.metadata.uid!, replicas: replicasOf(d) } : undefined;
  }

  #replicaSet(ref: OwnerReference, namespace: string): Scale | undefined {
    const rs = this.#ownedSet(ref, namespace);
    if (!rs || controllerOf(rs)?.kind === 'Deployment') return undefined;
    return { uid: rs.metadata.uid!, replicas: replicasOf(rs) };
  }

  #statefulSet(ref: OwnerReference, namespace: string): Scale | undefined {
    if (!names(ref, 'StatefulSet', ['apps'])) return undefined;
    const ss = this.statefulSets.cache.get(namespace, ref.name);
    return ss?.metadata.uid === ref.uid ? { uid: ss.metadata.uid!, replicas: replicasOf(ss) } : undefined;
  }

  /** Any kind with a scale subresource: its Scale's spec.replicas, if its uid is the reference's. */
  async #scale(ref: OwnerReference, namespace: string): Promise<Scale | undefined> {
    const { group, version } = parseGroupVersion(ref.apiVersion);
    const root = group ? `/apis/${group}/${version}` : `/api/${version}`;
    const resources = await this.#discover(root, ref.kind, group, version);
    const resource = resources.find((r) => r.kind === ref.kind && !r.name.includes('/'))!;
    let scale: ScaleObject;
    try {
      scale = (await this.client.request('GET', `${root}/namespaces/${encodeURIComponent(namespace)}/${resource.name}/${encodeURIComponent(ref.name)}/scale`)) as ScaleObject;
    } catch (e) {
      if (!isNotFound(e)) throw e;
      // Absent, or a kind without the subresource: only the latter is an error.
      const served = resources.some((r) => r.name === `${resource.name}/scale` && r.kind === 'Scale' && SCALE_VERSIONS.has(`${r.group ?? group}/${r.version ?? version}`));
      if (!served) throw new Error(`${resource.name}${group ? `.${group}` : ''} does not implement the scale subresource`);
      return undefined;
    }
    if (scale.metadata.uid !== ref.uid) return undefined;
    return { uid: scale.metadata.uid, replicas: scale.spec?.replicas ?? 0 };
  }

  /** The group version's resources, from discovery; none serving `kind` is the RESTMapper's "no matches". */
  async #discover(root: string, kind: string, group: string, version: string): Promise<ApiResource[]> {
    const noMatch = new Error(`no matches for kind ${JSON.stringify(kind)} in version ${JSON.stringify(group ? `${group}/${version}` : version)}`);
    let list: { resources?: ApiResource[] };
    try {
      list = (await this.client.request('GET', root)) as { resources?: ApiResource[] };
    } catch (e) {
      if (isNotFound(e)) throw noMatch;
      throw e;
    }
    const resources = list.resources ?? [];
    if (!resources.some((r) => r.kind === kind && !r.name.includes('/'))) throw noMatch;
    return resources;
  }
}
