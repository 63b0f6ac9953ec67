// The paths that name no resource: /version, the health checks, /metrics, discovery, OpenAPI and
// the service-account issuer's documents. Anything else under /api or /apis is left to the router.
import { VERSION_INFO } from '../api/version.ts';
import { exposition, type Registry as MetricsRegistry } from '../api/metrics.ts';
import { aggregatedContentType, aggregatedDiscovery, apiGroupDocument, apiGroupList, apiResourceList, apiVersions, wantsAggregated, withAggregated, type UnservedSubresources } from './discovery.ts';
import type { AggregatedApi } from './aggregated.ts';
import { JWKS_PATH, OPENID_CONFIGURATION_PATH, type IssuerDiscovery } from './auth/service-accounts.ts';
import { healthAnswer, type HEALTH_PATHS, type HealthCheck } from './health.ts';
import { jsonResponse, type ApiResponse } from './handlers/response.ts';
import type { Catalogue } from './catalogue.ts';
import { openapiDocument, openapiRoot } from './openapi.ts';
import { pathNotFound, type ApiRequest, type Query } from './request.ts';

export interface NonResourceDeps {
  /** What /metrics exposes. */
  metrics: MetricsRegistry;
  health: Record<(typeof HEALTH_PATHS)[number], HealthCheck[]>;
  /** The service-account issuer's documents; absent without an https issuer (both paths then answer 404). */
  issuerDiscovery?: IssuerDiscovery;
  /** Subresources discovery leaves out. */
  unservedSubresources: UnservedSubresources;
  /** The types served. */
  catalogue: Catalogue;
  /** The group versions other components serve through this server (aggregated.ts), for discovery. */
  aggregated: readonly AggregatedApi[];
}

/** The checks of /healthz, /livez and /readyz; only /readyz's `shutdown` can fail (the store is in memory). */
export function healthChecks(shutdown: () => string | undefined): NonResourceDeps['health'] {
  const ok = (name: string): HealthCheck => ({ name, check: () => undefined });
  const live = [ok('ping'), ok('log'), ok('etcd')];
  return { '/healthz': live, '/livez': live, '/readyz': [...live, { name: 'shutdown', check: shutdown }] };
}

/** The answer for a path that names no resource, or undefined to route it as a resource path. Throws a 404. */
export function nonResourceAnswer(req: ApiRequest, path: string, query: Query, deps: NonResourceDeps): Promise<ApiResponse> | ApiResponse | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    if (path === '/api' || path === '/apis' || !path.startsWith('/api')) throw pathNotFound(path);
    return undefined;
  }
  const accept = req.headers.accept;
  const served = withAggregated(deps.catalogue, deps.aggregated);
  const health = healthAnswer(path, query, deps.health);
  if (health) return health;
  switch (path) {
    case '/version': return jsonResponse(200, VERSION_INFO);
    case '/metrics': return metricsAnswer(deps);
    case OPENID_CONFIGURATION_PATH:
    case JWKS_PATH: return issuerAnswer(path, deps);
    case '/openapi/v3': return jsonResponse(200, openapiRoot(deps.catalogue));
    case '/api': {
      const v = wantsAggregated(accept);
      return v ? jsonResponse(200, aggregatedDiscovery(served, true, v, deps.unservedSubresources), { 'content-type': aggregatedContentType(v) }) : jsonResponse(200, apiVersions());
    }
    case '/apis': {
      const v = wantsAggregated(accept);
      return v ? jsonResponse(200, aggregatedDiscovery(served, false, v, deps.unservedSubresources), { 'content-type': aggregatedContentType(v) }) : jsonResponse(200, apiGroupList(served));
    }
    case '/api/v1': return jsonResponse(200, apiResourceList(served, '', 'v1', deps.unservedSubresources));
  }
  if (path.startsWith('/openapi/v3/')) {
    const doc = openapiDocument(deps.catalogue, path.slice('/openapi/v3/'.length));
    if (!doc) throw pathNotFound(path);
    return jsonResponse(200, doc);
  }
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'apis' && parts.length === 2) {
    const g = apiGroupDocument(served, parts[1]);
    if (!g) throw pathNotFound(path);
    return jsonResponse(200, g);
  }
  if (parts[0] === 'apis' && parts.length === 3) {
    const list = apiResourceList(served, parts[1], parts[2], deps.unservedSubresources);
    if (!list) throw pathNotFound(path);
    return jsonResponse(200, list);
  }
  if (parts[0] !== 'api' && parts[0] !== 'apis') throw pathNotFound(path);
  return undefined;
}

/** /metrics, for whoever the authorizer let through (RBAC grants it to the group system:monitoring). */
async function metricsAnswer(deps: NonResourceDeps): Promise<ApiResponse> {
  const { contentType, body } = await exposition(deps.metrics);
  return { status: 200, headers: { 'content-type': contentType }, body };
}

/** The issuer's discovery document and key set, as the real server serves them: cacheable for an hour, the key set as a JWK set. */
async function issuerAnswer(path: string, deps: NonResourceDeps): Promise<ApiResponse> {
  const discovery = deps.issuerDiscovery;
  if (!discovery) throw pathNotFound(path);
  const cache = { 'cache-control': 'public, max-age=3600' };
  if (path === OPENID_CONFIGURATION_PATH) return jsonResponse(200, discovery.configuration, cache);
  return jsonResponse(200, await discovery.keySet(), { ...cache, 'content-type': 'application/jwk-set+json' });
}
