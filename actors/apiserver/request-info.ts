// What the filters in front of the handlers need to know of a request before it is served, as
// the real server's RequestInfo: whether it names a resource (and which), its verb, whether it is
// long-running, read-only or mutating, and the labels its metrics carry. Never throws: a path that
// does not parse keeps its error for the router to answer with, after authentication.
import { attributesOfPath, BUILTIN_TYPES, parseResourcePath, pathParts, Query, type ApiRequest, type PathAttributes, type ResourceRequest } from './request.ts';

export interface RequestInfo {
  method: string;
  /** The path without its query string. */
  path: string;
  query: Query;
  /** Set when the path names a resource the table knows. */
  resource?: ResourceRequest;
  /** Why a path under /api or /apis did not parse (the router throws it, once the request is authorized). */
  parseError?: unknown;
  /**
   * For such a path, the resource it names as the real RequestInfoFactory reads any path of that
   * shape, served or not: what it is authorized as, so that a resource or subresource this server
   * does not serve (pods/x/log) answers 403 to whoever may not ask it, and 404 only to who may.
   */
  unserved?: PathAttributes;
  /**
   * The verb the limits read: the resource verb (get, list, watch, create, ...) or, for any
   * other path, the method in lower case, as the real RequestInfoFactory gives it.
   */
  verb: string;
  /** Watches (and the connect-style subresources): not counted, not timed, not drained. */
  longRunning: boolean;
  /** get, list and watch draw on --max-requests-inflight; everything else is mutating. */
  readOnly: boolean;
  labels: RequestLabels;
}

/** The labels of apiserver_request_total and its siblings, as the real server computes them. */
export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: 'apiserver';
}

const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);
/** The real BasicLongRunningRequestCheck: these verbs, and these subresources of any verb. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);
const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';
/** Paths the shutdown filters never turn away: probes and scrapes. */
const EXEMPT_PREFIXES = ['/readyz', '/livez', '/healthz', '/metrics'];

/** The query of a URL without one (most requests): nobody changes a Query's parameters. */
const NO_QUERY = new Query(new URLSearchParams());

/** Paths the real server treats as resource requests: /api/{version}/... and /apis/{group}/{version}/... */
function underApi(parts: string[]): boolean {
  return (parts[0] === 'api' && parts.length >= 3) || (parts[0] === 'apis' && parts.length >= 4);
}

export function requestInfo(req: ApiRequest, types = BUILTIN_TYPES): RequestInfo {
  const q = req.url.indexOf('?');
  const path = q >= 0 ? req.url.slice(0, q) : req.url;
  const query = q >= 0 ? new Query(new URLSearchParams(req.url.slice(q + 1))) : NO_QUERY;
  const method = req.method.toUpperCase();
  const parts = pathParts(path);
  let resource: ResourceRequest | undefined;
  let parseError: unknown;
  let unserved: PathAttributes | undefined;
  if (underApi(parts)) {
    try {
      resource = parseResourcePath(method, path, query, parts, types);
    } catch (e) {
      parseError = e;
      unserved = attributesOfPath(method, parts, query);
    }
  }
  const verb = resource?.verb ?? unserved?.verb ?? method.toLowerCase();
  const subresource = resource?.subresource ?? unserved?.subresource ?? '';
  const longRunning = LONG_RUNNING_VERBS.has(verb) || LONG_RUNNING_SUBRESOURCES.has(subresource);
  const labels = metricLabels(req, method, path, parts, query, resource, verb);
  return { method, path, query, ...(resource ? { resource } : {}), ...(parseError !== undefined ? { parseError } : {}), ...(unserved ? { unserved } : {}),
    verb, longRunning, readOnly: READ_ONLY_VERBS.has(verb), labels };
}

function metricLabels(req: ApiRequest, method: string, path: string, parts: string[], query: Query, r: ResourceRequest | undefined,
  verb: string): RequestLabels {
  const dryRun = query.params.getAll('dryRun').filter((v) => v !== '').sort().join(',');
  if (!r) {
    // Non-resource requests: the path stands in the subresource label, as RecordRequestTermination
    // has it, but only the server's own paths, so that any path a client makes up cannot add series.
    const resourceish = underApi(parts);
    return { verb: method === 'HEAD' ? 'GET' : method, dry_run: dryRun, group: resourceish ? (parts[0] === 'api' ? '' : parts[1]) : '',
      version: resourceish ? (parts[0] === 'api' ? parts[1] : parts[2]) : '', resource: '', subresource: resourceish ? '' : pathLabel(path),
      scope: resourceish ? 'cluster' : '', component: 'apiserver' };
  }
  const scope = r.name !== undefined || verb === 'create' ? 'resource' : r.namespace !== undefined ? 'namespace' : 'cluster';
  return { verb: reportedVerb(method, verb, scope, req.headers['content-type']), dry_run: dryRun, group: r.type.group, version: r.type.version,
    resource: r.type.resource, subresource: r.subresource ?? '', scope, component: 'apiserver' };
}

const OWN_PATHS = new Set(['/healthz', '/livez', '/readyz', '/metrics', '/version', '/api', '/api/v1', '/apis', '/openapi/v3',
  '/.well-known/openid-configuration', '/openid/v1/jwks']);

/** A bounded label for a non-resource path: its own name, its family's, or `other`. */
function pathLabel(path: string): string {
  const p = path.replace(/\/+$/, '') || '/';
  if (OWN_PATHS.has(p)) return p;
  const family = ['/healthz', '/livez', '/readyz', '/openapi/v3', '/apis'].find((f) => p.startsWith(`${f}/`));
  return family ? `${family}/*` : 'other';
}

/** The real CanonicalVerb and CleanVerb: LIST for collection GETs, WATCH, APPLY for apply patches; else the method. */
function reportedVerb(method: string, verb: string, scope: string, contentType: string | undefined): string {
  if (verb === 'watch') return 'WATCH';
  if (method === 'GET' || method === 'HEAD') return scope === 'resource' ? 'GET' : 'LIST';
  if (method === 'PATCH' && (contentType ?? '').split(';')[0]!.trim() === APPLY_CONTENT_TYPE) return 'APPLY';
  return ['POST', 'PUT', 'PATCH', 'DELETE'].includes(method) ? method : 'other';
}

/** Probes and scrapes: served whatever the shutdown sequence is doing. */
export function exemptFromShutdown(info: RequestInfo): boolean {
  return EXEMPT_PREFIXES.some((p) => info.path.startsWith(p));
}

