// What each node may reach, for the Node authorizer: the pods bound to it, and the Secrets,
// ConfigMaps, PersistentVolumeClaims and ServiceAccounts those pods use (volumes, projected
// sources, env and envFrom, image pull secrets, the pod's service account). Kept from the store's
// changes; a pod is read again only when it is bound, rebound or removed, as its spec's
// references cannot change after that.
import { nodeNameOf } from '../../api/fields.ts';
import type { KObject } from '../../api/types.ts';
import type { Store } from '../storage/store.ts';
import { collectionKey } from '../registry/keys.ts';
import { PODS } from '../../api/model/core.ts';

type Ref = { kind: 'secrets' | 'configmaps' | 'persistentvolumeclaims' | 'serviceaccounts'; name: string };
type Spec = Record<string, any>;

function referencesOf(spec: Spec): Ref[] {
  const refs: Ref[] = [];
  const add = (kind: Ref['kind'], name: unknown) => {
    if (typeof name === 'string' && name) refs.push({ kind, name });
  };
  add('serviceaccounts', spec.serviceAccountName || 'default');
  for (const s of spec.imagePullSecrets ?? []) add('secrets', s?.name);
  for (const v of spec.volumes ?? []) {
    add('secrets', v?.secret?.secretName);
    add('configmaps', v?.configMap?.name);
    add('persistentvolumeclaims', v?.persistentVolumeClaim?.claimName);
    for (const p of v?.projected?.sources ?? []) {
      add('secrets', p?.secret?.name);
      add('configmaps', p?.configMap?.name);
    }
  }
  for (const list of ['initContainers', 'containers', 'ephemeralContainers'])
    for (const c of spec[list] ?? []) {
      for (const e of c?.env ?? []) {
        add('secrets', e?.valueFrom?.secretKeyRef?.name);
        add('configmaps', e?.valueFrom?.configMapKeyRef?.name);
      }
      for (const f of c?.envFrom ?? []) {
        add('secrets', f?.secretRef?.name);
        add('configmaps', f?.configMapRef?.name);
      }
    }
  return refs;
}

interface PodEntry { node: string; refs: string[] }

export class NodeGraph {
  /** Pod key (namespace/name) → its node and the object keys it references. */
  readonly #pods = new Map<string, PodEntry>();
  /** `kind/namespace/name` → the nodes whose pods use it, with how many pods. */
  readonly #users = new Map<string, Map<string, number>>();
  readonly #prefix: string;

  constructor(readonly store: Store, keyPrefix: string) {
    this.#prefix = collectionKey(keyPrefix, PODS, undefined);
    store.onChange((c) => {
      if (!c.key.startsWith(this.#prefix)) return;
      const node = c.type === 'DELETED' ? undefined : nodeOf(c.object);
      if (c.prev && nodeOf(c.prev) === node && c.prev.metadata.uid === c.object.metadata.uid) return;
      this.#set(c.object, node);
    });
  }

  async load(): Promise<void> {
    for (const pod of (await this.store.list(this.#prefix)).items) this.#set(pod, nodeOf(pod));
  }

  #set(pod: KObject, node: string | undefined): void {
    const key = `${pod.metadata.namespace}/${pod.metadata.name}`;
    const old = this.#pods.get(key);
    if (old) {
      this.#pods.delete(key);
      for (const r of old.refs) {
        const users = this.#users.get(r)!;
        const n = users.get(old.node)! - 1;
        if (n) users.set(old.node, n);
        else users.delete(old.node);
        if (!users.size) this.#users.delete(r);
      }
    }
    if (!node) return;
    const ns = pod.metadata.namespace!;
    const refs = [...new Set(referencesOf((pod.spec ?? {}) as Spec).map((r) => `${r.kind}/${ns}/${r.name}`))];
    this.#pods.set(key, { node, refs });
    for (const r of refs) {
      let users = this.#users.get(r);
      if (!users) this.#users.set(r, (users = new Map()));
      users.set(node, (users.get(node) ?? 0) + 1);
    }
  }

  /** The node a pod is bound to, if the pod exists and is bound. */
  podNode(namespace: string, name: string): string | undefined {
    return this.#pods.get(`${namespace}/${name}`)?.node;
  }

  /** Whether a pod bound to `node` uses the object. */
  uses(node: string, resource: Ref['kind'], namespace: string, name: string): boolean {
    return this.#users.get(`${resource}/${namespace}/${name}`)?.has(node) ?? false;
  }
}

const nodeOf = (pod: KObject): string | undefined => nodeNameOf(pod) || undefined;
