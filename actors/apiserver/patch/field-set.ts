// Sets of field paths, as managedFields records them (the FieldsV1 format of structured-merge-diff,
// fieldpath/serialize.go). A path is a list of elements, each written as in FieldsV1:
// `f:<field>`, `k:<sorted JSON of the item's key fields>`, `v:<JSON of a set item>`, `i:<index>`.
import { LRUCache } from 'lru-cache';
import type { Json } from '../../api/types.ts';
import { goFormat, goJson, isObject } from './json-value.ts';

export type Path = readonly string[];

const MEMBER = '.';

/**
 * The set a stored FieldsV1 tree reads as (`written`, below, goes the other way), for the trees
 * read or written lately.
 * Untouched managers keep their tree from version to version, and equal trees are one object
 * (every node agent's Lease has the same one), so most updates decode nothing. Bounded, and
 * small: a pod's set is some 15 KB of heap, and a tree unique to one object (a pod's IP is a key)
 * would otherwise keep its set alive as long as the object.
 */
const decoded = new LRUCache<object, FieldSet>({ max: 1_024 });

/** Every leaf of every FieldsV1 this writes: one frozen `{}`, as a pod's field sets hold about 70 leaves. */
const LEAF: Record<string, unknown> = Object.freeze({});

/**
 * The FieldsV1 trees written so far, frozen, by their shape: equal subtrees are one object (every
 * pod of a template has the same field sets, every node agent writes the same status fields). A
 * shape is the node's member flag and its children's elements with the ids of their trees, so it
 * is as long as the node has children, not as its whole subtree. A subtree holding something
 * unique (a pod IP) is unique all the way up, so the table is bounded and emptied when full:
 * that only ends sharing with trees written before (ids are never reused), it never breaks any.
 */
const interned = new Map<string, Written>();
const INTERNED_MAX = 4_096;
let nextTreeId = 1;

interface Written {
  tree: Record<string, unknown>;
  id: number;
}
const LEAF_WRITTEN: Written = { tree: LEAF, id: 0 };
/**
 * Each set's FieldsV1 as written (or, for a set read from a stored tree, that tree), kept while
 * the set lives: a manager's set that grows shares its unchanged subsets with the set before, so
 * writing it again writes only the changed path.
 */
const written = new WeakMap<FieldSet, Written>();

/**
 * An immutable-by-convention tree of paths. A node is a member when the path itself is in the
 * set; a node can also have children. FieldsV1 writes a member leaf as `{}` and a member with
 * children with an extra `".": {}`.
 */
const NO_CHILDREN: ReadonlyMap<string, FieldSet> = new Map();

export class FieldSet {
  private member = false;
  // Most nodes are leaves: they share one empty map, and a node gets its own on its first child.
  private children: ReadonlyMap<string, FieldSet> = NO_CHILDREN;

  static of(paths: Iterable<Path>): FieldSet {
    const set = new FieldSet();
    for (const p of paths) set.insert(p);
    return set;
  }

  /**
   * Reads a FieldsV1 object. `stored`: it comes from a stored object, which this server wrote in
   * normal form and which never changes, so a set read from it and left unchanged encodes back to
   * that very object and versions share it (a client's fieldsV1 is normalised by re-encoding).
   */
  static fromFieldsV1(fields: unknown, stored = false): FieldSet {
    // The one empty tree stands for sets with and without a member at the root: read it afresh.
    if (stored && isObject(fields) && fields !== LEAF) {
      let set = decoded.get(fields);
      if (!set) {
        set = FieldSet.#read(fields);
        // It writes back as this very tree; a fresh id, as the tree is not interned.
        written.set(set, { tree: fields, id: nextTreeId++ });
        decoded.set(fields, set);
      }
      return set;
    }
    return FieldSet.#read(fields);
  }

  static #read(fields: unknown): FieldSet {
    const set = new FieldSet();
    if (!isObject(fields)) return set;
    for (const [key, child] of Object.entries(fields)) {
      if (key === MEMBER) {
        set.member = true;
        continue;
      }
      const sub = FieldSet.#read(child);
      if (!isObject(child) || Object.keys(child).length === 0) sub.member = true;
      set.#setChild(normaliseElement(key), sub);
    }
    return set;
  }

  /** The FieldsV1 object of this set; computed once per set (sets never change), so versions share it. */
  toFieldsV1(): Record<string, unknown> {
    const fresh = !written.has(this);
    const { tree } = this.#write();
    if (fresh && tree !== LEAF) decoded.set(tree, this);
    return tree;
  }

  #write(): Written {
    if (this.children.size === 0) return LEAF_WRITTEN;
    let w = written.get(this);
    if (!w) written.set(this, (w = this.#writeOnce()));
    return w;
  }

  #writeOnce(): Written {
    const keys = [...this.children.keys()].sort(compareElements);
    const children = keys.map((key) => this.children.get(key)!.#write());
    // Elements are length-prefixed: whatever characters a field name holds, shapes cannot collide.
    let shape = this.member ? '.' : '';
    for (let i = 0; i < keys.length; i++) shape += `|${keys[i].length}:${keys[i]}=${children[i].id}`;
    const known = interned.get(shape);
    if (known) return known;
    const tree: Record<string, unknown> = {};
    if (this.member) tree[MEMBER] = LEAF;
    for (let i = 0; i < keys.length; i++) tree[keys[i]] = children[i].tree;
    if (interned.size >= INTERNED_MAX) interned.clear();
    const w: Written = { tree: Object.freeze(tree), id: nextTreeId++ };
    interned.set(shape, w);
    return w;
  }

  insert(path: Path): void {
    let node: FieldSet = this;
    for (const element of path) {
      let next = node.children.get(element);
      if (!next) node.#setChild(element, (next = new FieldSet()));
      node = next;
    }
    node.member = true;
  }

  has(path: Path): boolean {
    return this.node(path)?.member ?? false;
  }

  /** True when `path` is in the set or is the prefix of a path in the set. */
  covers(path: Path): boolean {
    const node = this.node(path);
    return node !== undefined && !node.isEmpty();
  }

  isEmpty(): boolean {
    if (this.member) return false;
    for (const c of this.children.values()) if (!c.isEmpty()) return false;
    return true;
  }

  // The set operations walk both trees together. A set is never changed once built (`insert` only
  // fills a set under construction), so results share unchanged nodes with their operands, and an
  // operation that changes nothing returns its operand itself: a manager untouched by an update
  // keeps its very FieldSet, and its encoded fieldsV1 with it. Children left without members are
  // pruned, so a result has the same shape as one built path by path.

  union(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    if (this.isEmpty()) return other;
    const out = new FieldSet();
    out.member = this.member || other.member;
    let changed = out.member !== this.member;
    for (const [key, child] of this.children) {
      const theirs = other.children.get(key);
      const both = theirs ? child.union(theirs) : child;
      if (both !== child) changed = true;
      out.adopt(key, both);
    }
    for (const [key, child] of other.children) {
      if (this.children.has(key) || child.isEmpty()) continue;
      changed = true;
      out.adopt(key, child);
    }
    // Nothing of `other` was new (a manager updating fields it owns already): this set itself.
    return changed ? out : this;
  }

  intersection(other: FieldSet): FieldSet {
    const out = new FieldSet();
    out.member = this.member && other.member;
    for (const [key, child] of this.children) {
      const theirs = other.children.get(key);
      if (theirs) out.adopt(key, child.intersection(theirs));
    }
    return out;
  }

  /** Whether both sets hold the same paths. */
  equals(other: FieldSet): boolean {
    if (this === other) return true;
    if (this.member !== other.member) return false;
    let children = 0;
    for (const [key, child] of this.children) {
      if (child.isEmpty()) continue;
      const theirs = other.children.get(key);
      if (!theirs || !child.equals(theirs)) return false;
      children++;
    }
    for (const child of other.children.values()) if (!child.isEmpty()) children--;
    return children === 0;
  }

  /** Member-wise difference: paths of this set that are not members of `other`. */
  difference(other: FieldSet): FieldSet {
    if (other.isEmpty()) return this;
    const out = new FieldSet();
    out.member = this.member && !other.member;
    let changed = out.member !== this.member;
    for (const [key, child] of this.children) {
      const theirs = other.children.get(key);
      const rest = theirs ? child.difference(theirs) : child;
      if (rest !== child) changed = true;
      out.adopt(key, rest);
      if (!out.children.has(key) && !child.isEmpty()) changed = true;
    }
    return changed ? out : this;
  }

  /** This set without anything at or below the given top-level elements. */
  withoutSubtrees(elements: readonly string[]): FieldSet {
    if (!elements.some((e) => this.children.has(e))) return this;
    const out = new FieldSet();
    out.member = this.member;
    for (const [key, child] of this.children) if (!elements.includes(key)) out.adopt(key, child);
    return out;
  }

  /** Keeps `child` under `key` when it holds any member. */
  private adopt(key: string, child: FieldSet): void {
    if (!child.isEmpty()) this.#setChild(key, child);
  }

  #setChild(key: string, child: FieldSet): void {
    if (this.children === NO_CHILDREN) this.children = new Map();
    (this.children as Map<string, FieldSet>).set(key, child);
  }

  /** Member paths in structured-merge-diff's order: a node's members, then its children's. */
  paths(): Path[] {
    const out: Path[] = this.member ? [[]] : [];
    this.collect([], out);
    return out;
  }

  /** Every node of the tree (members or not), parents before children. */
  nodes(prefix: Path = []): Path[] {
    const out: Path[] = [];
    for (const key of [...this.children.keys()].sort(compareElements)) {
      out.push([...prefix, key], ...this.children.get(key)!.nodes([...prefix, key]));
    }
    return out;
  }

  private collect(prefix: Path, out: Path[]): void {
    const keys = [...this.children.keys()].sort(compareElements);
    for (const key of keys) if (this.children.get(key)!.member) out.push([...prefix, key]);
    for (const key of keys) this.children.get(key)!.collect([...prefix, key], out);
  }

  private node(path: Path): FieldSet | undefined {
    let node: FieldSet | undefined = this;
    for (const element of path) node = node?.children.get(element);
    return node;
  }
}

const ORDER = 'fkvi';

// Field names, then keys, then values, then indices, as fieldpath.PathElement.Compare orders them.
function compareElements(a: string, b: string): number {
  const kind = ORDER.indexOf(a[0]) - ORDER.indexOf(b[0]);
  if (kind !== 0) return kind;
  if (a[0] === 'i') return Number(a.slice(2)) - Number(b.slice(2));
  return a < b ? -1 : a > b ? 1 : 0;
}

function normaliseElement(key: string): string {
  if (!key.startsWith('k:') && !key.startsWith('v:')) return key;
  try {
    return `${key.slice(0, 2)}${goJson(JSON.parse(key.slice(2)) as Json)}`;
  } catch {
    return key;
  }
}

export const fieldElement = (name: string): string => `f:${name}`;
export const keyElement = (keys: { [name: string]: Json }): string => `k:${goJson(keys)}`;
export const valueElement = (value: Json): string => `v:${goJson(value)}`;
export const indexElement = (index: number): string => `i:${index}`;

/** A path as conflict messages print it: `.spec.containers[name="c"].image`. */
export function pathString(path: Path): string {
  return path.map(elementString).join('');
}

function elementString(element: string): string {
  const body = element.slice(2);
  switch (element[0]) {
    case 'f':
      return `.${body}`;
    case 'k': {
      const keys = JSON.parse(body) as { [name: string]: Json };
      return `[${Object.keys(keys).sort().map((k) => `${k}=${valueString(keys[k])}`).join(',')}]`;
    }
    case 'v':
      return `[=${valueString(JSON.parse(body) as Json)}]`;
    default:
      return `[${body}]`;
  }
}

// structured-merge-diff value.ToString: strings quoted, numbers and booleans bare.
const valueString = (v: Json): string => (typeof v === 'string' ? JSON.stringify(v) : v === null ? 'null' : typeof v === 'object' ? goJson(v) : goFormat(v));
