// The names real servers give schemas (`io.k8s.api.core.v1.PodSpec`,
// `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`). The client classes drop the Go package, so it
// is recovered here: a served kind belongs to its group, and every model reached from a group's
// kinds belongs to that group unless something earlier in the resource table claimed it (core
// first). Models the core API uses but no served kind contains, such as the PersistentVolumeClaim
// in a StatefulSet's claim templates, are placed by the imports of the client's `CoreV1Api`.
import { RESOURCES, groupVersions } from '../api/resources.ts';
import { clientDeclaration } from './validation/model-docs.ts';
import { goNameOf, innermost, model, modelForKind } from './validation/schema-source.ts';

/** Types of k8s.io/apimachinery pkg/apis/meta/v1 that the client models flatten into `V1…`. */
const META_TYPES = new Set([
  'ObjectMeta', 'ListMeta', 'TypeMeta', 'LabelSelector', 'LabelSelectorRequirement', 'OwnerReference', 'ManagedFieldsEntry',
  'DeleteOptions', 'Preconditions', 'Status', 'StatusDetails', 'StatusCause', 'Condition', 'FieldSelectorRequirement',
  'APIResource', 'APIResourceList', 'APIGroup', 'APIGroupList', 'APIVersions', 'GroupVersionForDiscovery',
  'ServerAddressByClientCIDR', 'WatchEvent', 'Patch', 'Time', 'MicroTime', 'FieldsV1',
]);

export const META_PREFIX = 'io.k8s.apimachinery.pkg.apis.meta.v1.';

/** `coordination.k8s.io` → `coordination`; the core group is `core`. */
function packageOf(group: string): string {
  return group ? (group.replace(/\.k8s\.io$/, '').split('.')[0] as string) : 'core';
}

/** `rbac.authorization.k8s.io` → `RbacAuthorization`: how the client names a group's API class. */
export function groupWords(group: string): string {
  if (!group) return 'Core';
  return group.replace(/\.k8s\.io$/, '').split('.').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
}

function isMeta(className: string): boolean {
  return className.startsWith('V1') && META_TYPES.has(goNameOf(className));
}

let groups: Map<string, string> | undefined; // client class → API group

function assignGroups(): Map<string, string> {
  const owner = new Map<string, string>();
  const claim = (className: string | undefined, group: string) => {
    if (className && !owner.has(className) && !isMeta(className) && model(className)) owner.set(className, group);
  };
  // Served kinds (and the kinds of their subresources) and their lists belong to their own group.
  for (const t of RESOURCES) {
    const apiVersion = t.group ? `${t.group}/${t.version}` : t.version;
    claim(modelForKind(apiVersion, t.kind), t.group);
    claim(modelForKind(apiVersion, `${t.kind}List`), t.group);
    for (const s of t.subresources) {
      const group = s.group ?? t.group;
      claim(modelForKind(group ? `${group}/${s.version ?? t.version}` : (s.version ?? t.version), s.kind), group);
    }
  }
  // The top-level models each served group's API class works with.
  for (const { group, version } of groupVersions()) {
    const words = groupWords(group);
    const text = clientDeclaration(`apis/${words}${version.charAt(0).toUpperCase()}${version.slice(1)}Api.d.ts`) ?? '';
    for (const m of text.matchAll(/from '\.\.\/models\/(\w+)\.js'/g)) {
      const className = m[1] as string;
      const prefix = /^([A-Z][a-z]+)V\d/.exec(className)?.[1];
      if (prefix === undefined || words.startsWith(prefix)) claim(className, group);
    }
  }
  // Everything they contain, group by group in table order, so core claims what it shares.
  for (const { group } of groupVersions()) {
    const todo = [...owner].filter(([, g]) => g === group).map(([c]) => c);
    for (let i = 0; i < todo.length; i++) {
      for (const f of model(todo[i] as string)?.fields.values() ?? []) {
        const inner = innermost(f.type);
        if (inner.kind !== 'model' || owner.has(inner.model) || isMeta(inner.model)) continue;
        owner.set(inner.model, group);
        todo.push(inner.model);
      }
    }
  }
  return owner;
}

/** The OpenAPI schema name of a client model class. */
export function schemaName(className: string): string {
  groups ??= assignGroups();
  const goName = goNameOf(className);
  const version = /V\d+(?:(?:alpha|beta)\d+)?/.exec(className)?.[0].toLowerCase() ?? 'v1';
  if (isMeta(className)) return `${META_PREFIX}${goName}`;
  const group = groups.get(className);
  return `io.k8s.api.${packageOf(group ?? '')}.${version}.${goName}`;
}
