// Reviews: virtual kinds answered by the configured authorizer (or the authenticated user) and
// never stored. SubjectAccessReview asks about anyone, LocalSubjectAccessReview about anyone in
// one namespace, SelfSubjectAccessReview about the requester (`kubectl auth can-i`),
// SelfSubjectRulesReview lists the requester's rules (`auth can-i --list`), and
// SelfSubjectReview says who the requester is (`auth whoami`).
import type { ResourceRequest } from '../request.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { decided, type AuthorizationAttributes, type Authorizer, type UserInfo } from '../auth/authorizer.ts';
import type { PolicyRule } from '../auth/rbac-rules.ts';
import type { ApiRequest } from '../request.ts';
import { checkObject, expectOf, fieldValidation, parseBody, warningHeaders } from './decode.ts';
import { encodeObject, type EncodeContext } from './encode.ts';
import type { ApiResponse } from './response.ts';
import { badRequest, invalid, type StatusCause } from '../../api/status.ts';

type Attrs = Record<string, unknown>;

const str = (v: unknown) => (v === undefined || v === null ? undefined : String(v));
const strings = (v: unknown) => (Array.isArray(v) ? v.map(String) : []);

/** A promise only when the authorizer answered with one (a webhook asked). */
export function handleReview(req: ApiRequest, r: ResourceRequest, authorizer: Authorizer, user: UserInfo, ctx: EncodeContext): ApiResponse | Promise<ApiResponse> {
  const { object, warnings } = checkObject(parseBody(req), expectOf(r.type), fieldValidation(r.query, 'CreateOptions'));
  const spec = (isPlainObject(object.spec) ? object.spec : {}) as Attrs;
  const respond = (status: Attrs) => {
    // The body may leave out apiVersion and kind (client-node does); the answer always names them.
    const { apiVersion, kind } = expectOf(r.type);
    const metadata = { ...object.metadata, creationTimestamp: null };
    const answered: KObject = { kind, apiVersion, ...object, metadata, status };
    return encodeObject({ ...ctx, read: false }, answered, 201, warningHeaders(warnings));
  };
  const status = answer(r, spec, authorizer, user);
  return status instanceof Promise ? status.then(respond) : respond(status);
}

function answer(r: ResourceRequest, spec: Attrs, authorizer: Authorizer, user: UserInfo): Attrs | Promise<Attrs> {
  const kind = r.type.kind;
  const fail = (causes: StatusCause[]) => invalid(r.type.group, kind, '', causes);
  switch (kind) {
    case 'SelfSubjectReview':
      return { userInfo: { username: user.username, ...(user.uid ? { uid: user.uid } : {}), groups: user.groups, ...(user.extra ? { extra: user.extra } : {}) } };
    case 'SelfSubjectRulesReview': {
      const rules = authorizer.rulesFor?.(user, String(spec.namespace ?? '')) ?? { resourceRules: [], nonResourceRules: [], incomplete: true, errors: [] };
      return {
        resourceRules: rules.resourceRules.map(resourceRule),
        nonResourceRules: rules.nonResourceRules.map((x) => ({ verbs: x.verbs, nonResourceURLs: x.nonResourceURLs })),
        incomplete: rules.incomplete,
        ...(rules.errors.length ? { evaluationError: rules.errors.join(', ') } : {}),
      };
    }
  }
  const res = isPlainObject(spec.resourceAttributes) ? (spec.resourceAttributes as Attrs) : undefined;
  const nonRes = isPlainObject(spec.nonResourceAttributes) ? (spec.nonResourceAttributes as Attrs) : undefined;
  if ((res === undefined) === (nonRes === undefined))
    throw fail([{ reason: 'FieldValueRequired', field: 'spec.resourceAttributes', message: 'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified' }]);
  let subject = user;
  if (kind === 'SubjectAccessReview' || kind === 'LocalSubjectAccessReview') {
    subject = { username: String(spec.user ?? ''), groups: strings(spec.groups), ...(spec.uid ? { uid: String(spec.uid) } : {}) };
    if (!subject.username && subject.groups.length === 0)
      throw fail([{ reason: 'FieldValueInvalid', field: 'spec.user', message: 'Invalid value: "": at least one of user or group must be specified' }]);
  }
  if (kind === 'LocalSubjectAccessReview') {
    if (nonRes) throw fail([{ reason: 'FieldValueInvalid', field: 'spec.nonResourceAttributes', message: `Invalid value: ${JSON.stringify(nonRes)}: disallowed on this kind of request` }]);
    if (str(res!.namespace) !== r.namespace) throw badRequest(`spec.resourceAttributes.namespace must match namespace: ${r.namespace}`);
  }
  const attrs: AuthorizationAttributes = res
    ? { user: subject, verb: String(res.verb ?? ''), namespace: str(res.namespace), apiGroup: str(res.group), resource: str(res.resource),
        subresource: str(res.subresource) || undefined, name: str(res.name), version: str(res.version) || undefined }
    : { user: subject, verb: String(nonRes!.verb ?? ''), path: str(nonRes!.path) };
  const fieldSelector = res && isPlainObject(res.fieldSelector) ? str((res.fieldSelector as Attrs).rawSelector) : undefined;
  if (fieldSelector) attrs.fieldSelector = fieldSelector;
  return decided(authorizer.authorize(attrs), (d) => {
    const status: Attrs = { allowed: d.decision === 'allow' };
    if (d.decision === 'deny') status.denied = true;
    if (d.reason) status.reason = d.reason;
    if (d.evaluationError) status.evaluationError = d.evaluationError;
    return status;
  });
}

function resourceRule(x: PolicyRule): Attrs {
  return { verbs: x.verbs, apiGroups: x.apiGroups ?? [], resources: x.resources ?? [], ...(x.resourceNames?.length ? { resourceNames: x.resourceNames } : {}) };
}
