// Access reviews: virtual kinds answered by the configured authorizer and never stored.
import type { ResourceRequest } from '../request.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import type { Authorizer, UserInfo } from '../auth/authorizer.ts';
import type { ApiRequest } from '../request.ts';
import { checkObject, expectOf, fieldValidation, parseBody, warningHeaders } from './decode.ts';
import { encodeObject, type EncodeContext } from './encode.ts';
import type { ApiResponse } from './response.ts';
import { invalid } from '../../api/status.ts';

type Attrs = Record<string, unknown>;

export function handleReview(req: ApiRequest, r: ResourceRequest, authorizer: Authorizer, user: UserInfo, ctx: EncodeContext): ApiResponse {
  const { object, warnings } = checkObject(parseBody(req), expectOf(r.type), fieldValidation(r.query, 'CreateOptions'));
  const spec = (isPlainObject(object.spec) ? object.spec : {}) as Attrs;
  const res = isPlainObject(spec.resourceAttributes) ? (spec.resourceAttributes as Attrs) : undefined;
  const nonRes = isPlainObject(spec.nonResourceAttributes) ? (spec.nonResourceAttributes as Attrs) : undefined;
  if ((res === undefined) === (nonRes === undefined))
    throw invalid(r.type.group, r.type.kind, '', [{ reason: 'FieldValueRequired', field: 'spec.resourceAttributes',
      message: 'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified' }]);
  const subject: UserInfo = r.type.kind === 'SubjectAccessReview'
    ? { username: String(spec.user ?? ''), groups: Array.isArray(spec.groups) ? spec.groups.map(String) : [] }
    : user;
  const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
  const decision = authorizer.authorize(res
    ? { user: subject, verb: String(res.verb ?? ''), namespace: str(res.namespace), apiGroup: str(res.group), resource: str(res.resource),
        subresource: str(res.subresource), name: str(res.name) }
    : { user: subject, verb: String(nonRes!.verb ?? ''), path: str(nonRes!.path) });
  const status: Attrs = { allowed: decision.decision === 'allow' };
  if (decision.decision === 'deny') status.denied = true;
  if (decision.reason) status.reason = decision.reason;
  // The body may leave out apiVersion and kind (client-node does); the answer always names them.
  const { apiVersion, kind } = expectOf(r.type);
  const answer: KObject = { kind, apiVersion, ...object, metadata: { ...object.metadata, creationTimestamp: null }, status };
  return encodeObject({ ...ctx, read: false }, answer, 201, warningHeaders(warnings));
}
