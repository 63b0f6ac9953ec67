// POST /apis/authentication.k8s.io/v1/tokenreviews: whether a bearer token authenticates, and as
// whom, as the real TokenReview REST answers (pkg/registry/authentication/tokenreview). The token
// goes through the same authenticators as a request's Authorization header, for spec.audiences
// (--api-audiences when empty); nothing is stored. The status is written as Go writes it:
// `authenticated` only when true, `user` always (empty when the token names nobody), the
// audiences the token is good for, and the authenticator's error.
import { badRequest, internal } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import type { ApiRequest, ResourceRequest } from '../request.ts';
import { checkObject, expectOf, fieldValidation, parseBody, warningHeaders } from './decode.ts';
import { encodeObject, outputFor, type EncodeContext } from './encode.ts';
import type { ApiResponse } from './response.ts';

export async function handleTokenReview(req: ApiRequest, r: ResourceRequest, authenticator: Authenticator, ctx: EncodeContext): Promise<ApiResponse> {
  outputFor({ ...ctx, read: false }, r.type.kind); // a 406 before any work
  const { object, warnings } = checkObject(parseBody(req), expectOf(r.type), fieldValidation(r.query, 'CreateOptions'));
  const spec = (isPlainObject(object.spec) ? object.spec : {}) as Record<string, unknown>;
  const token = typeof spec.token === 'string' ? spec.token : '';
  if (token === '') throw badRequest('token is required for TokenReview in authentication');
  const asked = Array.isArray(spec.audiences) ? spec.audiences.map(String) : [];
  const outcome = await authenticator.review(token, asked.length ? asked : undefined);
  // The audiences the authenticators answered for must meet those asked: the real server treats a miss as its own fault.
  if (outcome.user && asked.length && !(outcome.audiences ?? []).some((a) => asked.includes(a))) throw internal('error validating audience');
  const status: Record<string, unknown> = {};
  if (outcome.user) {
    const { username, uid, groups, extra } = outcome.user;
    status.authenticated = true;
    status.user = { username, ...(uid ? { uid } : {}), ...(groups.length ? { groups } : {}), ...(extra && Object.keys(extra).length ? { extra } : {}) };
    if (outcome.audiences?.length) status.audiences = outcome.audiences;
  } else {
    status.user = {};
  }
  if (outcome.error) status.error = outcome.error;
  const { apiVersion, kind } = expectOf(r.type);
  const answer: KObject = { kind, apiVersion, ...object, metadata: { ...object.metadata, creationTimestamp: null }, status };
  return encodeObject({ ...ctx, read: false }, answer, 201, warningHeaders(warnings));
}
