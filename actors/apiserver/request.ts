// From an HTTP request line to what it asks of which resource: the verb, the type from the
// resource table, the namespace, name and subresource, and the validated query parameters.
import { lookupResource, type ResourceType } from '../api/resources.ts';
import { shared } from '../api/shared-strings.ts';
import { badRequest, StatusError } from '../api/status.ts';
import type { Json } from '../api/types.ts';
import type { AuthorizationAttributes, UserInfo } from './auth/authorizer.ts';
import type { Admission } from './inflight.ts';
import type { RequestInfo } from './request-info.ts';

export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** Where the router finds a path's type: the built-in table, or a server's catalogue (catalogue.ts). */
export interface ServedTypes {
  lookup(group: string, version: string, resource: string): ResourceType | undefined;
}

export const BUILTIN_TYPES: ServedTypes = { lookup: lookupResource };

export interface ResourceRequest {
  verb: Verb;
  type: ResourceType;
  namespace?: string;
  name?: string;
  subresource?: string;
  query: Query;
}

/** The wire request, independent of HTTP, so the same server answers over the bus. */
export interface ApiRequest {
  method: string;
  /** Path and query string, as on the request line. */
  url: string;
  headers: Record<string, string | undefined>;
  body: Uint8Array;
  /**
   * A JSON body as a value, from a client in this process (never sent to another): what `body`
   * encodes. Nobody modifies it; a handler that changes what it decoded takes a copy.
   */
  value?: Json;
  /** A client certificate the connection presented (HTTPS with --client-ca-file): who it names, or why it is not trusted. */
  clientCert?: ClientCertificate;
  /** Its place in the in-flight limits, taken when it arrived (HTTPS): see ApiServer.arrive. */
  arrival?: Arrival;
  /** Who it authenticated as, set by the server before routing. */
  user?: UserInfo;
}

/**
 * A request's place in the in-flight limits from the moment it arrived (before its body was read
 * or the event loop got round to it) until its answer is written: its admission (admitted,
 * queued, or refused, to be answered 429). `release` is idempotent.
 */
export interface Arrival {
  readonly atMs: number;
  readonly admission: Admission;
  /** What arrival read of the request line and headers, so the handler does not read it again. */
  readonly info: RequestInfo;
  /** Who it authenticated as; undefined when its credentials failed (the handler answers 401). */
  readonly user: UserInfo | undefined;
  /** The user it impersonates, when every impersonation was allowed at once (the handler need not ask again). */
  readonly actingAs?: UserInfo;
  release(): void;
}

/**
 * How a header sent more than once is carried in the one string a request's header record holds,
 * when its repeats are separate values (impersonation's, a front proxy's groups; https.ts):
 * joined by a line feed, which no header value can contain, so values with commas survive. Bus
 * clients join the same way.
 */
export const REPEATED_HEADER_SEPARATOR = '\n';

/** The values of such a header: none when it is absent or empty. */
export const headerValues = (raw: string | undefined): string[] => (raw ? raw.split(REPEATED_HEADER_SEPARATOR) : []);

/**
 * What a write tells admission besides its body: the requester (none for a request nobody
 * authenticated: the server's own), the fieldValidation it named, and where warnings go.
 */
export function admissionOptions(req: ApiRequest, r: ResourceRequest, warnings: string[]): { user?: UserInfo; fieldValidation?: string; warnings: string[] } {
  // Built key by key rather than from spreads: every write asks for it.
  const options: { user?: UserInfo; fieldValidation?: string; warnings: string[] } = { warnings };
  if (req.user) options.user = req.user;
  const fieldValidation = r.query.string('fieldValidation');
  if (fieldValidation) options.fieldValidation = fieldValidation;
  return options;
}

/** Which of the server's CAs signed a client certificate: --client-ca-file's, or --requestheader-client-ca-file's (a front proxy). */
export type CertificateSigner = 'client' | 'front-proxy';
export type ClientCertificate = { user: string; groups: string[]; signers: readonly CertificateSigner[] } | { error: string };

/** Go's strconv.ParseBool: every spelling real clients send (`True` from python, `1` from curl). */
const TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

export class Query {
  constructor(readonly params: URLSearchParams) {}

  has(name: string): boolean {
    return this.params.has(name);
  }

  string(name: string): string | undefined {
    return this.params.get(name) ?? undefined;
  }

  bool(name: string): boolean {
    const v = this.params.get(name);
    if (v === null) return false;
    if (v === '' || TRUE.has(v)) return true; // a bare `?watch` is set
    if (FALSE.has(v)) return false;
    throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: must be a boolean`);
  }

  int(name: string): number | undefined {
    const v = this.params.get(name);
    if (v === null || v === '') return undefined;
    if (!/^-?\d{1,15}$/.test(v)) throw badRequest(`invalid value for ${name}: ${JSON.stringify(v)}: must be an integer`);
    return Number(v);
  }
}

/** A path's non-empty segments. */
export const pathParts = (path: string): string[] => path.split('/').filter((p) => p !== '');

/** Non-resource paths are answered before routing; anything else under /api or /apis is parsed here. */
export function parseResourcePath(method: string, path: string, query: Query, parts = pathParts(path), types = BUILTIN_TYPES): ResourceRequest {
  let group: string;
  let rest: string[];
  if (parts[0] === 'api') {
    if (parts[1] !== 'v1') throw pathNotFound(path);
    group = '';
    rest = parts.slice(2);
  } else if (parts[0] === 'apis' && parts.length >= 3) {
    group = parts[1];
    rest = parts.slice(3);
    return route(method, path, group, parts[2], rest, query, types);
  } else {
    throw pathNotFound(path);
  }
  return route(method, path, group, 'v1', rest, query, types);
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** namespaces/NS/RESOURCE...: what follows the namespace is a resource, not a Namespace's own status or finalize. */
const namespacedPath = (rest: string[]) => rest[0] === 'namespaces' && rest.length >= 3 && !NAMESPACE_SUBRESOURCES.has(rest[2]!);

function route(method: string, path: string, group: string, version: string, rest: string[], query: Query, types: ServedTypes): ResourceRequest {
  let namespace: string | undefined;
  // namespaces/NS/RESOURCE... is a namespaced path; namespaces, namespaces/NAME and namespaces/NAME/status
  // or /finalize address Namespace objects (as the real RequestInfoFactory's namespaceSubresources).
  if (namespacedPath(rest)) {
    namespace = decodeSegment(rest[1]);
    rest = rest.slice(2);
  }
  if (rest.length === 0 || rest.length > 3) throw pathNotFound(path);
  const type = types.lookup(group, version, rest[0]);
  if (!type) throw pathNotFound(path);
  if (namespace !== undefined && type.scope === 'Cluster') throw pathNotFound(path);
  const name = rest[1] !== undefined ? decodeSegment(rest[1]) : undefined;
  const subresource = rest[2];
  if (subresource !== undefined && !type.subresources.some((s) => s.name === subresource)) throw pathNotFound(path);
  if (name === '') throw pathNotFound(path);
  const verb = verbOf(method, name !== undefined, query);
  if (namespace === undefined && type.scope === 'Namespaced' && name !== undefined) throw pathNotFound(path);
  // A namespaced kind's path across all namespaces only lists and watches, as the real server
  // routes it: a DELETE there must not reach every namespace's objects, nor a POST any of them.
  if (namespace === undefined && type.scope === 'Namespaced' && verb !== 'list' && verb !== 'watch') throw methodNotAllowed();
  return { verb, type, namespace, name, subresource, query };
}

function verbOf(method: string, hasName: boolean, query: Query): Verb {
  const verb = methodVerb(method, hasName, query, false);
  if (verb === undefined) throw methodNotAllowed();
  return verb;
}

/**
 * The verb a method asks of an object (`hasName`) or a collection; undefined for a method no verb
 * stands for. A malformed `watch` throws its 400, or reads as false when `lenient`.
 */
function methodVerb(method: string, hasName: boolean, query: Query, lenient: boolean): Verb | undefined {
  switch (method) {
    case 'GET':
    case 'HEAD':
      if (hasName) return 'get';
      return watching(query, lenient) ? 'watch' : 'list';
    case 'POST':
      // On an object path only subresources (binding, eviction) take a POST; the server checks.
      return 'create';
    case 'PUT':
      return 'update';
    case 'PATCH':
      return 'patch';
    case 'DELETE':
      return hasName ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}

/** The resource half of authorization attributes (auth/authorizer.ts), as a path names it. */
export type PathAttributes = Omit<AuthorizationAttributes, 'user' | 'fieldSelector' | 'path'> & { verb: Verb; apiGroup: string; version: string; resource: string };

/**
 * The resource a path under /api or /apis names by its shape alone, served or not, as the real
 * RequestInfoFactory reads any path: /api/VERSION or /apis/GROUP/VERSION, then namespaces/NS
 * (which a Namespace's own path names too), then RESOURCE/NAME/SUBRESOURCE, anything further
 * ignored. Undefined for a method no verb stands for (authorized by its path then).
 */
export function attributesOfPath(method: string, parts: string[], query: Query): PathAttributes | undefined {
  const core = parts[0] === 'api';
  let rest = parts.slice(core ? 2 : 3);
  const namespace = rest[0] === 'namespaces' && rest.length > 1 ? leniently(rest[1]!) : undefined;
  if (namespacedPath(rest)) rest = rest.slice(2);
  const [resource = '', name, subresource] = rest;
  const verb = methodVerb(method, name !== undefined, query, true); // the router reports a bad watch value
  if (verb === undefined) return undefined;
  return { verb, apiGroup: core ? '' : parts[1]!, version: core ? parts[1]! : parts[2]!, resource,
    ...(namespace !== undefined ? { namespace } : {}), ...(name !== undefined ? { name: leniently(name) } : {}), ...(subresource !== undefined ? { subresource } : {}) };
}

function watching(query: Query, lenient: boolean): boolean {
  try {
    return query.bool('watch');
  } catch (e) {
    if (lenient) return false;
    throw e;
  }
}

/** A segment decoded, or as it is when its percent-encoding is broken (the router answers that 400). */
function leniently(segment: string): string {
  try {
    return decodeSegment(segment);
  } catch {
    return segment;
  }
}

const methodNotAllowed = () => new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');

/** A path segment decoded; namespaces and names end up in stored objects, so they are shared. */
function decodeSegment(s: string): string {
  try {
    return shared(s.includes('%') ? decodeURIComponent(s) : s);
  } catch {
    throw badRequest(`invalid percent-encoding in path segment ${JSON.stringify(s)}`);
  }
}

export function pathNotFound(path: string): StatusError {
  void path;
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}
