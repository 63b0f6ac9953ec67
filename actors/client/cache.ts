// An informer's local cache: objects by namespace/name, indexed by namespace, by their
// controller's uid (as the real controllers' controllerUIDIndex, orphans under none) and, for
// pods, by the node they are bound to, unless the informer reads by key only (the scheduler, node agents:
// keeping a 50,000-pod namespace set was 4% of the scheduler's time). Objects are shared with
// every reader: never modify them.
import { nodeNameOf } from '../api/fields.ts';
import { controllerOf, type KObject } from '../api/types.ts';

export const cacheKey = (o: KObject) => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

/** `T`: the shape of the objects it holds (the informer's resource's). */
export class ObjectCache<T extends KObject = KObject> {
  readonly #byKey = new Map<string, T>();
  readonly #byNamespace: Map<string, Set<string>> | undefined;
  readonly #byNode: Map<string, Set<string>> | undefined;
  readonly #byController: Map<string, Set<string>> | undefined;

  /** `indexed: false` keeps no index: inNamespace, onNode, ownedBy and orphansIn then throw. */
  constructor({ indexed = true }: { indexed?: boolean } = {}) {
    if (!indexed) return;
    this.#byNamespace = new Map();
    this.#byNode = new Map();
    this.#byController = new Map();
  }

  get size(): number {
    return this.#byKey.size;
  }

  get(namespace: string | undefined, name: string): T | undefined {
    return this.#byKey.get(`${namespace ?? ''}/${name}`);
  }

  /** The object under a `cacheKey` (`namespace/name`): no key built, none hashed again. */
  byKey(key: string): T | undefined {
    return this.#byKey.get(key);
  }

  list(): T[] {
    return [...this.#byKey.values()];
  }

  keys(): IterableIterator<string> {
    return this.#byKey.keys();
  }

  inNamespace(namespace: string): T[] {
    return [...(indexOf(this.#byNamespace).get(namespace) ?? [])].map((k) => this.#byKey.get(k)!);
  }

  onNode(node: string): T[] {
    return [...(indexOf(this.#byNode).get(node) ?? [])].map((k) => this.#byKey.get(k)!);
  }

  /** The objects of `namespace` whose controller reference names `uid`. */
  ownedBy(namespace: string, uid: string): T[] {
    return [...(indexOf(this.#byController).get(`${namespace}/${uid}`) ?? [])].map((k) => this.#byKey.get(k)!);
  }

  /** The objects of `namespace` no controller owns. */
  orphansIn(namespace: string): T[] {
    return this.ownedBy(namespace, '');
  }

  /** The nodes the cached objects are bound to ('' for unbound pods; other kinds are all ''). */
  nodeNames(): IterableIterator<string> {
    return indexOf(this.#byNode).keys();
  }

  /** Stores `obj`, returning what it replaced. */
  put(obj: T): T | undefined {
    const key = cacheKey(obj);
    const old = this.#byKey.get(key);
    this.#byKey.set(key, obj);
    if (!this.#byNamespace || !this.#byNode || !this.#byController) return old;
    // Most updates keep the object's namespace, controller and node: its index entries stay as they are.
    const node = nodeNameOf(obj);
    const controller = controllerKey(obj);
    if (!old) {
      index(this.#byNamespace, obj.metadata.namespace ?? '', key);
      index(this.#byController, controller, key);
    } else if (controllerKey(old) !== controller) {
      unindex(this.#byController, controllerKey(old), key);
      index(this.#byController, controller, key);
    }
    if (old && nodeNameOf(old) === node) return old;
    if (old) unindex(this.#byNode, nodeNameOf(old), key);
    index(this.#byNode, node, key);
    return old;
  }

  remove(key: string): T | undefined {
    const old = this.#byKey.get(key);
    if (!old) return undefined;
    this.#byKey.delete(key);
    this.#unindex(key, old);
    return old;
  }

  #unindex(key: string, obj: KObject): void {
    if (!this.#byNamespace || !this.#byNode || !this.#byController) return;
    unindex(this.#byNamespace, obj.metadata.namespace ?? '', key);
    unindex(this.#byController, controllerKey(obj), key);
    unindex(this.#byNode, nodeNameOf(obj), key);
  }
}

/** `namespace/uid` of the object's controller reference; `namespace/` when none controls it. */
function controllerKey(obj: KObject): string {
  return `${obj.metadata.namespace ?? ''}/${controllerOf(obj)?.uid ?? ''}`;
}

function indexOf(m: Map<string, Set<string>> | undefined): Map<string, Set<string>> {
  if (!m) throw new Error('this cache keeps no index: its informer was made with indexed: false');
  return m;
}

function index(m: Map<string, Set<string>>, k: string, key: string): void {
  let s = m.get(k);
  if (!s) m.set(k, (s = new Set()));
  s.add(key);
}

function unindex(m: Map<string, Set<string>>, k: string, key: string): void {
  const s = m.get(k);
  if (!s) return;
  s.delete(key);
  if (s.size === 0) m.delete(k);
}
