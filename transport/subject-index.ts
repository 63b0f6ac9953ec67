// Subscriptions indexed by subject token, so matching a published subject costs the depth of
// the subject, not the number of subscriptions: a trie whose edges are tokens, `*` and `>`.

interface Node<T> {
  children: Map<string, Node<T>>;
  /** Subscribers whose pattern ends here. */
  here: Set<T>;
  /** Subscribers whose pattern ends with `>` here (they match anything of one token or more below). */
  rest: Set<T>;
}

const node = <T>(): Node<T> => ({ children: new Map(), here: new Set(), rest: new Set() });

/**
 * Subjects whose matches are remembered until the subscriptions change; past this the memo starts
 * over. An object's own subject counts, so it holds a collection of 50,000 pods and their nodes
 * (at 16,384 the scheduler bench's 50,000 pods started it over every few thousand bindings).
 */
const MEMO_MAX = 1 << 17;
/** Where replies go, on both buses (NATS's `_INBOX.<id>`, the memory bus's `_INBOX.mux.<n>`). */
const INBOX = '_INBOX.';
/** The match of a subject nobody listens to: one array for all of them. */
const NONE: readonly never[] = Object.freeze([]);

export class SubjectIndex<T> {
  #root: Node<T> = node();
  /**
   * The matches of recently published subjects: a node's pod subject or an object's subject is
   * published again and again while the subscriptions stay the same. Any change forgets them.
   */
  #matches = new Map<string, readonly T[]>();

  add(pattern: string, value: T): void {
    this.#matches.clear();
    this.#place(pattern, true, value);
  }

  remove(pattern: string, value: T): void {
    this.#matches.clear();
    this.#place(pattern, false, value);
  }

  #place(pattern: string, add: boolean, value: T): void {
    const tokens = pattern.split('.');
    let n = this.#root;
    const trail: [Node<T>, string][] = [];
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i];
      if (t === '>' && i === tokens.length - 1) {
        if (add) n.rest.add(value);
        else n.rest.delete(value);
        this.#prune(trail, n);
        return;
      }
      let next = n.children.get(t);
      if (!next) {
        if (!add) return;
        n.children.set(t, (next = node()));
      }
      trail.push([n, t]);
      n = next;
    }
    if (add) n.here.add(value);
    else n.here.delete(value);
    this.#prune(trail, n);
  }

  /** Drops nodes left with nothing, from the leaf up. */
  #prune(trail: [Node<T>, string][], leaf: Node<T>): void {
    let n = leaf;
    for (let i = trail.length - 1; i >= 0; i--) {
      if (n.here.size || n.rest.size || n.children.size) return;
      const [parent, token] = trail[i];
      parent.children.delete(token);
      n = parent;
    }
  }

  /**
   * Every value whose pattern matches `subject`, each once, in the order the trie meets them (the
   * same on every call, so deliveries stay deterministic). Matching runs on every delivery: an
   * array, deduplicated only when two patterns met values (one value may sit under both).
   */
  match(subject: string): readonly T[] {
    let out = this.#matches.get(subject);
    if (out === undefined) {
      const m: Match<T> = { out: [], sources: 0 };
      walk(this.#root, subject.split('.'), 0, m);
      out = m.sources > 1 ? [...new Set(m.out)] : m.sources === 0 ? NONE : m.out;
      // A reply inbox is published to once: remembering it would only push out subjects that recur.
      if (subject.startsWith(INBOX)) return out;
      if (this.#matches.size >= MEMO_MAX) this.#matches.clear();
      this.#matches.set(subject, out);
    }
    return out;
  }

  /** Whether any pattern matches `subject`. */
  has(subject: string): boolean {
    return this.match(subject).length > 0;
  }
}

interface Match<T> {
  out: T[];
  /** How many non-empty sets of subscribers were met. */
  sources: number;
}

function take<T>(from: Set<T>, m: Match<T>): void {
  if (from.size === 0) return;
  m.sources++;
  for (const v of from) m.out.push(v);
}

// A function of the module rather than a closure made per match: matching runs on every delivery.
function walk<T>(n: Node<T>, tokens: string[], i: number, m: Match<T>): void {
  if (i === tokens.length) return take(n.here, m);
  take(n.rest, m);
  if (n.children.size === 0) return;
  const exact = n.children.get(tokens[i]);
  if (exact) walk(exact, tokens, i + 1, m);
  const star = n.children.get('*');
  if (star) walk(star, tokens, i + 1, m);
}
