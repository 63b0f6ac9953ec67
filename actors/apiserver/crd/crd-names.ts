// A CRD's names (apiextensions validation.go, ValidateCustomResourceDefinitionNames), and the
// conditions the naming and establishing controllers set (pkg/controller/status,
// pkg/controller/establish): a requested name another CRD of the group already accepted is a
// conflict; names already accepted stay accepted.
import type { StatusCause } from '../../api/status.ts';
import { child, index, invalid } from './field-errors.ts';
import { dns1035Problems } from './embedded.ts';
import type { CustomResourceDefinition, CustomResourceDefinitionCondition, CustomResourceDefinitionNames } from './types.ts';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

export function validateNames(names: Partial<CustomResourceDefinitionNames>, path: string): StatusCause[] {
  const out: StatusCause[] = [];
  const label = (value: string, at: string) => {
    const p = dns1035Problems(value);
    if (p) out.push(invalid(at, value, p));
  };
  const mixed = (value: string, at: string) => {
    const p = dns1035Problems(value.toLowerCase());
    if (p) out.push(invalid(at, value, `may have mixed case, but should otherwise match: ${p}`));
  };
  const plural = str(names.plural);
  const singular = str(names.singular);
  const kind = str(names.kind);
  const listKind = str(names.listKind);
  if (plural) label(plural, child(path, 'plural'));
  if (singular) label(singular, child(path, 'singular'));
  if (kind) mixed(kind, child(path, 'kind'));
  if (listKind) mixed(listKind, child(path, 'listKind'));
  strs(names.shortNames).forEach((s, i) => label(s, index(child(path, 'shortNames'), i)));
  if (kind && kind === listKind) out.push(invalid(child(path, 'listKind'), listKind, 'kind and listKind may not be the same'));
  strs(names.categories).forEach((s, i) => label(s, index(child(path, 'categories'), i)));
  return out;
}

export interface NamingResult {
  acceptedNames: CustomResourceDefinitionNames;
  namesAccepted: CustomResourceDefinitionCondition;
  established: CustomResourceDefinitionCondition;
}

/**
 * calculateNamesAndConditions: the names `crd` may have given every CRD of the cluster (`all`,
 * which may include `crd` itself), NamesAccepted, and Established as the establishing
 * controller leaves it once names are accepted (True, "InitialNamesAccepted"). Conditions carry
 * no lastTransitionTime: the caller stamps changed ones from its clock.
 */
export function computeNames(crd: CustomResourceDefinition, all: readonly CustomResourceDefinition[]): NamingResult {
  const group = crd.spec.group;
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const other of all) {
    if (other.spec?.group !== group) continue;
    const a = other.status?.acceptedNames;
    if (!a) continue;
    for (const n of [a.plural, a.singular ?? '', ...(a.shortNames ?? [])]) resources.add(n);
    kinds.add(a.kind);
    kinds.add(a.listKind ?? '');
  }
  const requested = crd.spec.names;
  const accepted: CustomResourceDefinitionNames = crd.status?.acceptedNames ?? { plural: '', kind: '' };
  const next: CustomResourceDefinitionNames = { ...accepted };
  let conflict: { reason: string; message: string } | undefined;
  const fresh = (want: string, have: string, used: Set<string>) => want === have || !used.has(want);
  const take = (field: 'plural' | 'singular' | 'kind' | 'listKind', used: Set<string>, reason: string) => {
    const want = str(requested[field]);
    if (fresh(want, str(accepted[field]), used)) next[field] = want;
    else conflict = { reason, message: `"${want}" is already in use` };
  };
  take('plural', resources, 'PluralConflict');
  take('singular', resources, 'SingularConflict');
  const wantShort = requested.shortNames ?? [];
  if (JSON.stringify(wantShort) !== JSON.stringify(accepted.shortNames ?? [])) {
    const have = new Set(accepted.shortNames ?? []);
    const taken = wantShort.filter((s) => !have.has(s) && resources.has(s));
    if (taken.length > 0) {
      const errs = taken.map((s) => `"${s}" is already in use`);
      conflict = { reason: 'ShortNamesConflict', message: errs.length === 1 ? (errs[0] as string) : `[${errs.join(', ')}]` };
    } else next.shortNames = requested.shortNames;
  }
  take('kind', kinds, 'KindConflict');
  take('listKind', kinds, 'ListKindConflict');
  if (requested.categories) next.categories = requested.categories;
  else delete next.categories;
  const namesAccepted: CustomResourceDefinitionCondition = conflict
    ? { type: 'NamesAccepted', status: 'False', ...conflict }
    : { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
  const previous = crd.status?.conditions?.find((c) => c.type === 'Established');
  let established: CustomResourceDefinitionCondition = previous ?? { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && namesAccepted.status === 'True')
    established = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  return { acceptedNames: next, namesAccepted, established };
}
