// Whether a definition's names are free, as the naming controller decides: within its group, its
// plural, singular and short names must not be names other definitions were given (their accepted
// plurals, singulars and short names), nor its kind and list kind their kinds and list kinds.
import type { KObject } from '../../api/types.ts';
import { fields, list, text } from '../registry/tables-format.ts';

/** Why a definition's names are not accepted: the NamesAccepted condition's reason and message. */
export interface NameConflict {
  reason: 'PluralConflict' | 'SingularConflict' | 'ShortNamesConflict' | 'KindConflict' | 'ListKindConflict';
  message: string;
}

/** The first of `crd`'s names another definition of its group holds, or undefined when all are free. */
export function namesConflict(crd: KObject, all: readonly KObject[]): NameConflict | undefined {
  const group = text(fields(crd.spec).group);
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.metadata.name === crd.metadata.name || text(fields(other.spec).group) !== group) continue;
    const n = fields(fields(other.status).acceptedNames);
    for (const r of [text(n.plural), text(n.singular), ...list(n.shortNames).map(text)]) if (r) resources.add(r);
    for (const k of [text(n.kind), text(n.listKind)]) if (k) kinds.add(k);
  }
  const want = fields(fields(crd.spec).names);
  const taken = (name: string, set: Set<string>) => name !== '' && set.has(name);
  const inUse = (reason: NameConflict['reason'], name: string): NameConflict => ({ reason, message: `"${name}" is already in use` });
  if (taken(text(want.plural), resources)) return inUse('PluralConflict', text(want.plural));
  if (taken(text(want.singular), resources)) return inUse('SingularConflict', text(want.singular));
  const shortName = list(want.shortNames).map(text).find((s) => taken(s, resources));
  if (shortName !== undefined) return inUse('ShortNamesConflict', shortName);
  if (taken(text(want.kind), kinds)) return inUse('KindConflict', text(want.kind));
  if (taken(text(want.listKind), kinds)) return inUse('ListKindConflict', text(want.listKind));
  return undefined;
}
