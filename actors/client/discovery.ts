// What the API server serves, as client-go's discovery reads it: the aggregated documents of /api
// and /apis (two requests), each group at its preferred version (the first it lists), each
// resource as a type the client can list, watch and delete. Controllers that act on whatever is
// served (the garbage collector, the namespace controller) read custom resources through it.
import type { ResourceType, Scope, Subresource } from '../api/resources.ts';
import type { ApiClient } from './client.ts';

const AGGREGATED = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';

interface DiscoveredResource {
  resource: string;
  responseKind: { group: string; version: string; kind: string };
  scope: Scope;
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: { subresource: string; responseKind: { group: string; version: string; kind: string }; verbs: string[] }[];
}

interface GroupDiscoveryList {
  items: { metadata: { name?: string }; versions: { version: string; resources: DiscoveredResource[] }[] }[];
}

function typeOf(group: string, version: string, r: DiscoveredResource): ResourceType {
  const subresources: Subresource[] = (r.subresources ?? []).map((s) => ({ name: s.subresource, kind: s.responseKind.kind,
    ...(s.responseKind.group !== group || s.responseKind.version !== version ? { group: s.responseKind.group, version: s.responseKind.version } : {}), verbs: s.verbs }));
  return { group, version, resource: r.resource, singular: r.singularResource, kind: r.responseKind.kind, scope: r.scope,
    shortNames: r.shortNames ?? [], categories: r.categories ?? [], verbs: r.verbs, subresources, virtual: !r.verbs.includes('get') && r.verbs.includes('create') };
}

/** Every resource served, at its group's preferred version. */
export async function discoverResources(client: ApiClient): Promise<ResourceType[]> {
  const out: ResourceType[] = [];
  for (const path of ['/api', '/apis']) {
    const list = (await client.request('GET', path, undefined, undefined, AGGREGATED)) as GroupDiscoveryList;
    for (const item of list.items ?? []) {
      const preferred = item.versions[0];
      if (!preferred) continue;
      for (const r of preferred.resources) out.push(typeOf(item.metadata.name ?? '', preferred.version, r));
    }
  }
  return out;
}
