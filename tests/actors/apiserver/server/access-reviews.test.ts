// Access reviews: virtual kinds the configured authorizer answers (201, never stored), as
// `kubectl auth can-i` uses them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Authorizer } from '../../../../actors/apiserver/auth/authorizer.ts';
import { ANONYMOUS } from '../../../../actors/apiserver/auth/authorizer.ts';
import { handleReview } from '../../../../actors/apiserver/handlers/reviews.ts';
import { parseResourcePath, Query } from '../../../../actors/apiserver/request.ts';
import { startServer } from '../../../helpers/in-process-server.ts';

const SSAR = '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews';
const SAR = '/apis/authorization.k8s.io/v1/subjectaccessreviews';
const canI = (verb: string, resource: string, namespace?: string) => ({
  apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview',
  spec: { resourceAttributes: { verb, resource, ...(namespace ? { namespace } : {}) } },
});

test('a self-subject access review under AlwaysAllow answers 201 with status.allowed true', async () => {
  const h = await startServer();
  const r = await h.post(SSAR, canI('delete', 'pods', 'default'));
  assert.is(r.status, 201);
  assert.is(r.json.kind, 'SelfSubjectAccessReview');
  assert.is(r.json.apiVersion, 'authorization.k8s.io/v1');
  assert.equal(r.json.spec, canI('delete', 'pods', 'default').spec);
  assert.equal(r.json.status, { allowed: true });
});

test('a review body without apiVersion and kind is answered with them', async () => {
  const h = await startServer();
  const r = await h.post(SSAR, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
  assert.is(r.status, 201);
  assert.is(r.json.kind, 'SelfSubjectAccessReview');
  assert.is(r.json.apiVersion, 'authorization.k8s.io/v1');
});

test('a review of a non-resource path is answered too', async () => {
  const h = await startServer();
  const r = await h.post(SSAR, { spec: { nonResourceAttributes: { path: '/healthz', verb: 'get' } } });
  assert.is(r.status, 201);
  assert.is(r.json.status.allowed, true);
});

test('a subject access review names any user and is answered for that user', async () => {
  const h = await startServer();
  const r = await h.post(SAR, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview',
    spec: { user: 'alice', groups: ['dev'], resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments' } } });
  assert.is(r.status, 201);
  assert.is(r.json.kind, 'SubjectAccessReview');
  assert.is(r.json.status.allowed, true);
});

test('reviews are never stored: the revision does not move', async () => {
  const h = await startServer();
  const before = h.revision();
  await h.post(SSAR, canI('get', 'pods'));
  await h.post(SAR, { spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'pods' } } });
  assert.is(h.revision(), before);
});

test('a review with neither or both attribute kinds answers 422', async () => {
  const h = await startServer();
  const neither = await h.post(SSAR, { spec: {} });
  assert.is(neither.status, 422);
  assert.is(neither.json.reason, 'Invalid');
  assert.is(neither.json.details.kind, 'SelfSubjectAccessReview');
  const both = await h.post(SSAR, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' }, nonResourceAttributes: { path: '/', verb: 'get' } } });
  assert.is(both.status, 422);
});

test('under the AlwaysDeny authorization mode the review itself is forbidden', async () => {
  const h = await startServer({ authorizationMode: ['AlwaysDeny'] });
  const r = await h.post(SSAR, canI('get', 'pods'));
  assert.is(r.status, 403);
  assert.is(r.json.reason, 'Forbidden');
  assert.is(r.json.message, 'selfsubjectaccessreviews.authorization.k8s.io is forbidden: User "system:anonymous" cannot create resource "selfsubjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope: Everything is forbidden.');
});

/** The review of `get pods` answered by `authorizer` directly (handle() would let system:masters or the chain decide first). */
function reviewBy(authorizer: Authorizer) {
  const query = new Query(new URLSearchParams());
  const r = parseResourcePath('POST', SSAR, query);
  const body = Buffer.from(JSON.stringify(canI('get', 'pods')));
  return handleReview({ method: 'POST', url: SSAR, headers: {}, body }, r, authorizer, ANONYMOUS, { type: r.type, accept: undefined, query, read: false, nowMs: 0 });
}

test('a denied review answers status.allowed false, denied true and the authorizer reason', () => {
  const denyPods: Authorizer = { authorize: (a) => (a.resource === 'pods' ? { decision: 'deny', reason: 'pods are off limits' } : { decision: 'allow', reason: '' }) };
  const res = reviewBy(denyPods);
  assert.not.instance(res, Promise, 'a synchronous authorizer answers at once');
  const { status, body } = res as Awaited<typeof res>;
  assert.is(status, 201);
  assert.equal(JSON.parse(String(body)).status, { allowed: false, denied: true, reason: 'pods are off limits' });
});

test('an authorizer that answers later, with an evaluation error, is waited for and its error reported', async () => {
  const unsure: Authorizer = { authorize: async () => ({ decision: 'noOpinion', reason: '', evaluationError: 'webhook unreachable' }) };
  const res = await reviewBy(unsure);
  assert.is(res.status, 201);
  assert.equal(JSON.parse(String(res.body)).status, { allowed: false, evaluationError: 'webhook unreachable' });
});

test('reviews only answer create: GET on the collection answers 405', async () => {
  const h = await startServer();
  const r = await h.get(SSAR);
  assert.is(r.status, 405);
  assert.is(r.json.reason, 'MethodNotAllowed');
});

test.run();
