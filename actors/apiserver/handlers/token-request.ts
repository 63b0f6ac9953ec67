// POST .../namespaces/<ns>/serviceaccounts/<name>/token: a TokenRequest (authentication.k8s.io/v1)
// answered 201 with a signed token, as the real TokenREST answers it. Checked in its order: the
// body's name and namespace match the path (422); the service account exists (404);
// spec.expirationSeconds (default 3600) is from 10 minutes to 2^32 seconds (422); a
// spec.boundObjectRef names a stored Pod, Secret or Node of matching uid (404, 400, 409), a Pod
// running as this service account. Then --service-account-max-token-expiration caps the lifetime
// (with a warning), and a pod-bound token asked for 3607 seconds, the node agents' projected
// token, lasts a year with --service-account-extend-token-expiration. Nothing is stored.
import { timestamp, uuid } from '../../api/env.ts';
import { lookupResource, type ResourceType } from '../../api/resources.ts';
import { badRequest, conflict, invalid, type StatusCause } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import type { ServiceAccountTokens } from '../auth/service-accounts.ts';
import type { NodeRef, ObjectRef, TokenSpec } from '../auth/service-account-tokens.ts';
import type { Registry } from '../registry/registry.ts';
import { pathNotFound, type ApiRequest, type ResourceRequest } from '../request.ts';
import { checkObject, fieldValidation, parseBody, warningHeaders, type Decoded } from './decode.ts';
import { encodeObject, outputFor, type EncodeContext } from './encode.ts';
import type { ApiResponse } from './response.ts';

type Obj = Record<string, unknown>;

const GROUP = 'authentication.k8s.io';
const KIND = 'TokenRequest';
const EXPECT = { apiVersion: `${GROUP}/v1`, kind: KIND, group: GROUP, version: 'v1' };
const MIN_EXPIRATION_SECONDS = 600;
const MAX_EXPIRATION_SECONDS = 2 ** 32;
const DEFAULT_EXPIRATION_SECONDS = 3600;
/** What node agents ask for their projected tokens (WarnOnlyBoundTokenExpirationSeconds), and how long such tokens then last. */
const NODE_AGENT_EXPIRATION_SECONDS = 3607;
const EXTENDED_EXPIRATION_SECONDS = 365 * 24 * 3600;

const types = {
  pods: lookupResource('', 'v1', 'pods')!,
  secrets: lookupResource('', 'v1', 'secrets')!,
  nodes: lookupResource('', 'v1', 'nodes')!,
};

export interface TokenRequestDeps {
  registry: Registry;
  /** Undefined without --service-account-issuer and a signing key: the subresource is then not served. */
  tokens: ServiceAccountTokens | undefined;
}

/** The kind the answer is encoded as (its group's media types, Protobuf among them once the message is known). */
function answerType(r: ResourceRequest): ResourceType {
  return { ...r.type, group: GROUP, version: 'v1', kind: KIND, virtual: true };
}

/**
 * The spec as decoding defaults it: the Go type sends `audiences: null` when empty and may leave
 * the whole spec out, which the schema's required fields would otherwise refuse.
 */
function withDefaults(decoded: Decoded): Decoded {
  const body = decoded.value;
  if (!isPlainObject(body)) return decoded;
  const spec = isPlainObject(body.spec) ? body.spec : body.spec === undefined || body.spec === null ? {} : undefined;
  if (!spec) return decoded;
  if (spec.audiences === undefined || spec.audiences === null) spec.audiences = [];
  if (spec.expirationSeconds === undefined || spec.expirationSeconds === null) spec.expirationSeconds = DEFAULT_EXPIRATION_SECONDS;
  body.spec = spec;
  return decoded;
}

const fieldInvalid = (field: string, value: unknown, why: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${JSON.stringify(value)}: ${why}` });

/** The create of a TokenRequest; any verb lands here when tokens are off, for the 404 of a subresource that is not served. */
export async function handleTokenRequest(req: ApiRequest, r: ResourceRequest, deps: TokenRequestDeps, ctx: EncodeContext): Promise<ApiResponse> {
  const tokens = deps.tokens;
  if (!tokens) throw pathNotFound(req.url);
  const out: EncodeContext = { ...ctx, type: answerType(r), read: false };
  outputFor(out, KIND); // a 406 before any work
  const { object, warnings } = checkObject(withDefaults(parseBody(req)), EXPECT, fieldValidation(r.query, 'CreateOptions'));
  const name = r.name!;
  const namespace = r.namespace!;
  const meta = object.metadata;
  if (meta.name && meta.name !== name) throw invalid(GROUP, KIND, name, [fieldInvalid('metadata.name', meta.name, 'must match the service account name if specified')]);
  if (meta.namespace && meta.namespace !== namespace)
    throw invalid(GROUP, KIND, name, [fieldInvalid('metadata.namespace', meta.namespace, 'must match the service account namespace if specified')]);
  const sa = await deps.registry.get(r.type, namespace, name);
  const spec = object.spec as Obj;
  const audiences = (spec.audiences as string[]).length ? (spec.audiences as string[]) : tokens.apiAudiences;
  let expirationSeconds = spec.expirationSeconds as number;
  if (expirationSeconds < MIN_EXPIRATION_SECONDS)
    throw invalid(GROUP, KIND, '', [fieldInvalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes')]);
  if (expirationSeconds > MAX_EXPIRATION_SECONDS)
    throw invalid(GROUP, KIND, '', [fieldInvalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds')]);
  const bound = isPlainObject(spec.boundObjectRef) ? await boundObject(spec.boundObjectRef as Obj, name, namespace, deps.registry) : {};
  if (tokens.maxExpirationSeconds > 0 && expirationSeconds > tokens.maxExpirationSeconds) {
    warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${tokens.maxExpirationSeconds} seconds`);
    expirationSeconds = tokens.maxExpirationSeconds;
  }
  const extended = tokens.extendExpiration && bound.pod !== undefined && expirationSeconds === NODE_AGENT_EXPIRATION_SECONDS
    && audiences.every((a) => tokens.apiAudiences.includes(a));
  const nowMs = ctx.nowMs;
  const tokenSpec: TokenSpec = { namespace, serviceAccount: { name, uid: String(sa.metadata.uid) }, ...bound, audiences, nowMs, jti: uuid(tokens.random),
    expirationSeconds: extended ? EXTENDED_EXPIRATION_SECONDS : expirationSeconds, ...(extended ? { warnAfterSeconds: expirationSeconds } : {}) };
  const token = await tokens.issuer.sign(tokenSpec);
  const { uid: _u, resourceVersion: _rv, generation: _g, creationTimestamp: _c, managedFields: _m, ...kept } = meta;
  const answer: KObject = {
    kind: KIND, apiVersion: EXPECT.apiVersion,
    metadata: { ...kept, name, namespace, creationTimestamp: timestamp(nowMs) },
    spec: { ...spec, audiences, expirationSeconds },
    status: { token, expirationTimestamp: timestamp(nowMs + expirationSeconds * 1000) },
  };
  return encodeObject(out, answer, 201, warningHeaders(warnings));
}

type Bound = { pod?: ObjectRef; secret?: ObjectRef; node?: NodeRef };

/** The object a token is bound to, read and checked; a pod-bound token names the pod's node too (its uid when the Node is stored). */
async function boundObject(ref: Obj, saName: string, namespace: string, registry: Registry): Promise<Bound> {
  const apiVersion = String(ref.apiVersion ?? '');
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const kind = String(ref.kind ?? '');
  const name = String(ref.name ?? '');
  let obj: KObject;
  let bound: Bound;
  if (group === '' && kind === 'Pod') {
    obj = await registry.get(types.pods, namespace, name);
    const spec = (obj.spec ?? {}) as Obj;
    if (spec.serviceAccountName !== saName)
      throw badRequest(`cannot bind token for serviceaccount ${JSON.stringify(saName)} to pod running with different serviceaccount name.`);
    const nodeName = typeof spec.nodeName === 'string' ? spec.nodeName : '';
    const node = nodeName ? await registry.env.store.get(registry.key(types.nodes, undefined, nodeName)) : undefined;
    bound = { pod: { name, uid: String(obj.metadata.uid) }, ...(nodeName ? { node: node ? { name: nodeName, uid: String(node.metadata.uid) } : { name: nodeName } } : {}) };
  } else if (group === '' && kind === 'Secret') {
    obj = await registry.get(types.secrets, namespace, name);
    bound = { secret: { name, uid: String(obj.metadata.uid) } };
  } else if (group === '' && kind === 'Node') {
    obj = await registry.get(types.nodes, undefined, name);
    bound = { node: { name, uid: String(obj.metadata.uid) } };
  } else {
    const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    throw badRequest(`cannot bind token to object of type ${group}/${version}, Kind=${kind}`);
  }
  const uid = typeof ref.uid === 'string' ? ref.uid : '';
  if (uid && uid !== obj.metadata.uid)
    throw conflict({ group, resource: kind, name },
      `the UID in the bound object reference (${uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  return bound;
}
