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

export class SubjectIndex<T> {
  #root: Node<T> = node();

  add(pattern: string, value: T): void {
    this.#place(pattern, true, value);
  }

  remove(pattern: string, value: T): void {
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
    const m: Match<T> = { out: [], sources: 0 };
    walk(this.#root, subject.split('.'), 0, m);
    return m.sources > 1 ? [...new Set(m.out)] : m.out;
  }

  /** Whether any pattern matches `subject`. */
  has(subject: string): boolean {
    return any(this.#root, subject.split('.'), 0);
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

function any<T>(n: Node<T>, tokens: string[], i: number): boolean {
  if (i === tokens.length) return n.here.size > 0;
  if (n.rest.size > 0) return true;
  const exact = n.children.get(tokens[i]);
  if (exact && any(exact, tokens, i + 1)) return true;
  const star = n.children.get('*');
  return star !== undefined && any(star, tokens, i + 1);
}
