// A component's metric families are made once per registry. The work of a replicated component is
// a fresh instance each leader term (replica.ts), and prom-client refuses to register a name twice:
// each instance finds the families its predecessors registered and keeps counting in them, as one
// process's counters do across terms.
import type { Registry } from '../api/metrics.ts';

/** `make`, called at most once per registry; later calls with that registry return what it made. */
export function perRegistry<T>(make: (registry: Registry) => T): (registry: Registry) => T {
  const made = new WeakMap<Registry, T>();
  return (registry) => {
    let families = made.get(registry);
    if (families === undefined) made.set(registry, (families = make(registry)));
    return families;
  };
}
