// The Status error: every failure a client can see is one of these, with the reason and code
// real API servers use (apimachinery pkg/api/errors). The HTTP status always equals `code`.

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { continue?: string; resourceVersion?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  /** Always set on failures; successful deletes leave it out, as real servers do. */
  code?: number;
}

/** What a Status error names: the plural resource and its group, as in `pods "x" not found`. */
export interface Target {
  group: string;
  resource: string;
  name?: string;
}

export class StatusError extends Error {
  override readonly name = 'StatusError';
  readonly status: Status;

  constructor(code: number, reason: string, message: string, details?: StatusDetails, meta: Status['metadata'] = {}) {
    super(message);
    this.status = { kind: 'Status', apiVersion: 'v1', metadata: meta, status: 'Failure', message, reason, code };
    if (details) this.status.details = details;
  }

  get code(): number {
    return this.status.code ?? 500;
  }

  get reason(): string {
    return this.status.reason ?? '';
  }
}

/** `pods` for the core group, `deployments.apps` elsewhere: how errors name a resource. */
export function qualified(t: Target): string {
  return t.group ? `${t.resource}.${t.group}` : t.resource;
}

function targetDetails(t: Target): StatusDetails {
  const d: StatusDetails = {};
  if (t.name !== undefined) d.name = t.name;
  d.group = t.group;
  d.kind = t.resource;
  return d;
}

export const notFound = (t: Target) =>
  new StatusError(404, 'NotFound', `${qualified(t)} "${t.name}" not found`, targetDetails(t));

export const alreadyExists = (t: Target) =>
  new StatusError(409, 'AlreadyExists', `${qualified(t)} "${t.name}" already exists`, targetDetails(t));

export const conflict = (t: Target, why = 'the object has been modified; please apply your changes to the latest version and try again') =>
  new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(t)} "${t.name}": ${why}`, targetDetails(t));

/**
 * 422: `Pod "x" is invalid: spec.f: Required value`, `Deployment.apps "x" is invalid: ...` (the
 * message names the GroupKind, as NewInvalid does). details.kind is the Kind, not the plural. A
 * cause on the whole object (field `''`) reads `: Too long: ...` in the message, as Go prints its
 * empty path, and carries no field (omitted when empty).
 */
export function invalid(group: string, kind: string, name: string, causes: StatusCause[]): StatusError {
  const list = causes.map((c) => (c.field !== undefined ? `${c.field}: ${c.message}` : `${c.message}`));
  const text = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  const groupKind = group ? `${kind}.${group}` : kind;
  const details = causes.map((c) => (c.field === '' ? { reason: c.reason, message: c.message } : c));
  return new StatusError(422, 'Invalid', `${groupKind} "${name}" is invalid: ${text}`, { name, group, kind, causes: details });
}

export const badRequest = (message: string) => new StatusError(400, 'BadRequest', message);

/** Whether `e` is the server's answer that the object is not there (apimachinery's errors.IsNotFound). */
export const isNotFound = (e: unknown): e is StatusError => e instanceof StatusError && e.status.reason === 'NotFound';
/** Whether `e` is a write that lost a race or a precondition (errors.IsConflict). */
export const isConflict = (e: unknown): e is StatusError => e instanceof StatusError && e.status.reason === 'Conflict';
/** Whether `e` says the object is there already (errors.IsAlreadyExists). */
export const isAlreadyExists = (e: unknown): e is StatusError => e instanceof StatusError && e.status.reason === 'AlreadyExists';
/** Whether `e` asks the client to come back later (errors.IsTooManyRequests): a rate limit, or an eviction its budget refuses. */
export const isTooManyRequests = (e: unknown): e is StatusError => e instanceof StatusError && e.status.reason === 'TooManyRequests';
/** Whether `e` is a refusal of the request (errors.IsForbidden): no permission, a namespace being deleted. */
export const isForbidden = (e: unknown): e is StatusError => e instanceof StatusError && e.status.reason === 'Forbidden';

/** A string list as Go's %q prints it in error messages: `["a" "b"]`. */
export const goQuoted = (list: readonly string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** 403 as NewForbidden words it: `roles.rbac.authorization.k8s.io "r" is forbidden: <why>`. */
export const forbidden = (t: Target, why: string) =>
  new StatusError(403, 'Forbidden', `${qualified(t)}${t.name ? ` "${t.name}"` : ''} is forbidden: ${why}`, targetDetails(t));

export const unauthorized = () => new StatusError(401, 'Unauthorized', 'Unauthorized');

export const gone = (message: string) => new StatusError(410, 'Gone', message);

export const expired = (message: string, continueToken?: string) =>
  new StatusError(410, 'Expired', message, undefined, continueToken ? { continue: continueToken } : {});

export const methodNotAllowed = (verb: string, resource: string) =>
  new StatusError(405, 'MethodNotAllowed', `${verb} is not supported on resources of kind "${resource}"`);

export const notAcceptable = (accepted: string[]) =>
  new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);

export const unsupportedMediaType = (contentType: string, accepted: string[]) =>
  new StatusError(
    415,
    'UnsupportedMediaType',
    `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    contentType ? { causes: [{ reason: 'UnexpectedServerResponse', message: contentType }] } : undefined,
  );

export const tooLarge = (limitBytes: number) =>
  new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limitBytes}`);

export const tooManyRequests = (message: string, retryAfterSeconds: number, causes?: StatusCause[]) =>
  new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds, ...(causes ? { causes } : {}) });

export const timeout = (message: string, retryAfterSeconds: number) =>
  new StatusError(504, 'Timeout', `Timeout: ${message}`, { retryAfterSeconds });

/** A resourceVersion newer than the newest: real servers wait briefly, then answer this 504. */
export const tooLargeResourceVersion = (rv: number, current: number) =>
  new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${rv}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
    retryAfterSeconds: 1,
  });

export const internal = (message: string) =>
  new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });

export const serviceUnavailable = (message: string) => new StatusError(503, 'ServiceUnavailable', message);

/** The success Status that deletes of non-pod objects and evictions answer with. */
export function success(details?: StatusDetails, code?: number): Status {
  const s: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success' };
  if (details) s.details = details;
  if (code !== undefined) s.code = code;
  return s;
}
