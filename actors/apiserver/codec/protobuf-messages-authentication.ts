// authentication.k8s.io/v1 kinds (k8s.io/api authentication/v1 generated.proto): TokenRequest,
// the body of serviceaccounts/token that kubectl create token sends as Protobuf; TokenReview; and
// SelfSubjectReview, which kubectl auth whoami sends.
import { ObjectMeta } from './protobuf-messages-meta.ts';
import { message } from './protobuf-schema.ts';

// extra is map<string, ExtraValue{items=1}>: in JSON, a map of string arrays.
const UserInfo = message('UserInfo', [
  [1, 'username', 'string'],
  [2, 'uid', 'string'],
  [3, 'groups', 'string', 'list'],
  [4, 'extra', 'stringList', 'map'],
]);

// The proto names field 4 uID; its JSON name is uid.
const BoundObjectReference = message('BoundObjectReference', [
  [1, 'kind', 'string'],
  [2, 'apiVersion', 'string'],
  [3, 'name', 'string'],
  [4, 'uid', 'string'],
]);

// audiences has no omitempty and expirationSeconds is a pointer: both mean something when empty or 0.
const TokenRequestSpec = message('TokenRequestSpec', [
  [1, 'audiences', 'string', 'list', 'keep'],
  [3, 'boundObjectRef', BoundObjectReference],
  [4, 'expirationSeconds', 'int64', 'keep'],
  [5, 'attestations', 'stringList', 'map'],
]);

export const TokenRequest = message('TokenRequest', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', TokenRequestSpec, 'keep'],
  [3, 'status', message('TokenRequestStatus', [
    [1, 'token', 'string', 'keep'],
    [2, 'expirationTimestamp', 'time'],
  ])],
]);

export const TokenReview = message('TokenReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'spec', message('TokenReviewSpec', [
    [1, 'token', 'string'],
    [2, 'audiences', 'string', 'list'],
  ]), 'keep'],
  [3, 'status', message('TokenReviewStatus', [
    [1, 'authenticated', 'bool'],
    [2, 'user', UserInfo, 'keep'],
    [3, 'error', 'string'],
    [4, 'audiences', 'string', 'list'],
  ])],
]);

export const SelfSubjectReview = message('SelfSubjectReview', [
  [1, 'metadata', ObjectMeta, 'keep'],
  [2, 'status', message('SelfSubjectReviewStatus', [[1, 'userInfo', UserInfo, 'keep']])],
]);
