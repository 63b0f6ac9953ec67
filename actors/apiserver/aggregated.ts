// The aggregation layer, as far as orchsim needs it: a group version that another component
// serves (the real server's APIService proxying to, say, metrics-server) is registered with the
// API server, which lists it in discovery, authenticates and authorizes its requests as any
// resource request (the path read as the real RequestInfoFactory reads it), and hands the
// authorized request over. What the component answers is passed back as it is. Unlike the real
// layer, the component runs in the server's process and reads objects through the server's
// registry rather than a client of its own.
import { methodNotAllowed, StatusError } from '../api/status.ts';
import type { KObject } from '../api/types.ts';
import type { ResourceType } from '../api/resources.ts';
import { jsonResponse, type ApiResponse } from './handlers/response.ts';
import type { PathAttributes, Query } from './request.ts';

/** A read of an aggregated resource, authorized already. */
export interface AggregatedRequest {
  verb: 'get' | 'list';
  resource: string;
  namespace?: string;
  name?: string;
  query: Query;
}

/** The stored objects an aggregated API may read (its informers', in a real component). */
export interface ObjectReader {
  list(type: ResourceType, namespace: string | undefined): Promise<KObject[]>;
}

export interface AggregatedApi {
  group: string;
  version: string;
  /** What discovery lists for the group version. */
  types: readonly ResourceType[];
  /** The answer's body (JSON); throws a StatusError to refuse. */
  serve(r: AggregatedRequest, read: ObjectReader): Promise<unknown>;
}

/** A type of an aggregated group, as discovery shows it: read-only, no short names or subresources. */
export function aggregatedType(group: string, version: string, resource: string, kind: string, scope: ResourceType['scope']): ResourceType {
  return { group, version, resource, singular: '', kind, scope, shortNames: [], categories: [], verbs: ['get', 'list'], subresources: [], virtual: false };
}

/** The answer of `api` to the request `at` names, or a 404 for a resource the group does not have, 405 for a verb it does not serve. */
export async function serveAggregated(api: AggregatedApi, at: PathAttributes, query: Query, read: ObjectReader): Promise<ApiResponse> {
  const type = api.types.find((t) => t.resource === at.resource);
  if (!type || at.subresource !== undefined) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  if (at.verb !== 'get' && at.verb !== 'list') throw methodNotAllowed(at.verb.toUpperCase(), at.resource);
  const r: AggregatedRequest = { verb: at.verb, resource: at.resource, query,
    ...(at.namespace !== undefined ? { namespace: at.namespace } : {}), ...(at.name !== undefined ? { name: at.name } : {}) };
  return jsonResponse(200, await api.serve(r, read));
}
