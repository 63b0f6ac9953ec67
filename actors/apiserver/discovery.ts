// Discovery documents, legacy and aggregated, from the types the server serves (catalogue.ts: the
// resource table and the custom resources), less the subresources this server's options leave
// unserved (serviceaccounts/token without a token issuer).
import { groupVersion, type ResourceType } from '../api/resources.ts';
import type { Catalogue } from './catalogue.ts';

/** What discovery lists: the catalogue's types, and those of aggregated APIs (aggregated.ts). */
export type Discoverable = Pick<Catalogue, 'all' | 'groupVersions'>;

/** The catalogue with the aggregated APIs' types after its own, as the real server lists APIServices. */
export function withAggregated(catalogue: Catalogue, aggregated: readonly { group: string; version: string; types: readonly ResourceType[] }[]): Discoverable {
  if (aggregated.length === 0) return catalogue;
  return {
    all: () => [...catalogue.all(), ...aggregated.flatMap((a) => a.types)],
    groupVersions: () => [...catalogue.groupVersions(), ...aggregated.map(({ group, version }) => ({ group, version }))],
  };
}

/** `resource/subresource` names this server does not serve. */
export type UnservedSubresources = ReadonlySet<string>;

const servedSubresources = (t: ResourceType, unserved: UnservedSubresources) => t.subresources.filter((s) => !unserved.has(`${t.resource}/${s.name}`));

/** The aggregated version the client asked for, if any (kubectl asks v2 first, then v2beta1). */
export function wantsAggregated(accept: string | undefined): 'v2' | 'v2beta1' | undefined {
  if (!accept) return undefined;
  for (const part of accept.split(',')) {
    const p = part.replace(/\s+/g, '');
    if (!p.includes('as=APIGroupDiscoveryList') || !p.includes('g=apidiscovery.k8s.io')) continue;
    if (p.includes('v=v2beta1')) return 'v2beta1';
    if (p.includes('v=v2')) return 'v2';
  }
  return undefined;
}

function groups(catalogue: Discoverable, core: boolean) {
  const byGroup = new Map<string, string[]>();
  for (const { group, version } of catalogue.groupVersions()) {
    if ((group === '') !== core) continue;
    const versions = byGroup.get(group) ?? [];
    if (!versions.includes(version)) versions.push(version);
    byGroup.set(group, versions);
  }
  return byGroup;
}

export function apiVersions() {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '' }] };
}

function apiGroup(name: string, versions: string[]) {
  const vs = versions.map((v) => ({ groupVersion: groupVersion(name, v), version: v }));
  return { name, versions: vs, preferredVersion: vs[0] };
}

export function apiGroupList(catalogue: Discoverable) {
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: [...groups(catalogue, false)].map(([name, versions]) => apiGroup(name, versions)) };
}

export function apiGroupDocument(catalogue: Discoverable, group: string) {
  const versions = groups(catalogue, false).get(group);
  return versions ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(group, versions) } : undefined;
}

const of = (catalogue: Discoverable, group: string, version: string) => catalogue.all().filter((t) => t.group === group && t.version === version);

export function apiResourceList(catalogue: Discoverable, group: string, version: string, unserved: UnservedSubresources) {
  const types = of(catalogue, group, version);
  if (types.length === 0) return undefined;
  const resources: object[] = [];
  for (const t of types) {
    resources.push({
      name: t.resource, singularName: t.singular, namespaced: t.scope === 'Namespaced', kind: t.kind, verbs: t.verbs,
      ...(t.shortNames.length ? { shortNames: t.shortNames } : {}), ...(t.categories.length ? { categories: t.categories } : {}),
      storageVersionHash: '',
    });
    for (const s of servedSubresources(t, unserved))
      resources.push({ name: `${t.resource}/${s.name}`, singularName: '', namespaced: t.scope === 'Namespaced',
        ...(s.group !== undefined ? { group: s.group, version: s.version } : {}), kind: s.kind, verbs: s.verbs });
  }
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: groupVersion(group, version), resources };
}

function discoveredResource(t: ResourceType, unserved: UnservedSubresources) {
  const subresources = servedSubresources(t, unserved);
  return {
    resource: t.resource,
    responseKind: { group: t.group, version: t.version, kind: t.kind },
    scope: t.scope,
    singularResource: t.singular,
    verbs: t.verbs,
    ...(t.shortNames.length ? { shortNames: t.shortNames } : {}),
    ...(t.categories.length ? { categories: t.categories } : {}),
    ...(subresources.length ? { subresources: subresources.map((s) => ({
      subresource: s.name,
      responseKind: { group: s.group ?? t.group, version: s.version ?? t.version, kind: s.kind },
      verbs: s.verbs,
    })) } : {}),
  };
}

/** `/api` (core) or `/apis` (named groups) as an APIGroupDiscoveryList. */
export function aggregatedDiscovery(catalogue: Discoverable, core: boolean, version: 'v2' | 'v2beta1', unserved: UnservedSubresources) {
  const items = [...groups(catalogue, core)].map(([name, versions]) => ({
    metadata: core ? {} : { name },
    versions: versions.map((v) => ({ version: v, freshness: 'Current', resources: of(catalogue, name, v).map((t) => discoveredResource(t, unserved)) })),
  }));
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

export function aggregatedContentType(version: 'v2' | 'v2beta1'): string {
  return `application/json;g=apidiscovery.k8s.io;v=${version};as=APIGroupDiscoveryList`;
}
