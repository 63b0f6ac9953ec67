// The AdmissionReview a webhook is sent and what its answer must be: the request's fields for a
// create, an update of a subresource, a delete and a Namespace; the answer's checks (uid, type,
// patches only from mutating webhooks); how a denial and a failed answer are worded.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource } from '../../../../actors/api/resources.ts';
import type { Json, KObject } from '../../../../actors/api/types.ts';
import type { AdmissionAttributes } from '../../../../actors/apiserver/admission/chain.ts';
import { serverResponseMessage } from '../../../../actors/apiserver/admission/webhooks/call.ts';
import { denied } from '../../../../actors/apiserver/admission/webhooks/errors.ts';
import type { Invocation } from '../../../../actors/apiserver/admission/webhooks/matching.ts';
import { kindOfRequest } from '../../../../actors/apiserver/admission/webhooks/request.ts';
import { ResponseError, reviewRequest, reviewVersion, verifyResponse } from '../../../../actors/apiserver/admission/webhooks/review.ts';
import { hooksOf } from '../../../../actors/apiserver/admission/webhooks/source.ts';

const PODS = lookupResource('', 'v1', 'pods')!;
const NAMESPACES = lookupResource('', 'v1', 'namespaces')!;
const HOOK = hooksOf({ metadata: { name: 'c' }, webhooks: [{ name: 'h.example.com' }] } as unknown as KObject, true)[0]!;
const JANE = { username: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } };
const POD = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'ns' } } as KObject;

const invocationOf = (a: AdmissionAttributes): Invocation =>
  ({ hook: HOOK, resource: { group: a.type.group, version: a.type.version, resource: a.type.resource }, subresource: a.subresource ?? '', kind: kindOfRequest(a.type, a.subresource) });
const request = (a: AdmissionAttributes, version = 'v1') => JSON.parse(reviewRequest('uid-1', version, invocationOf(a), a));

test('a create is sent with its kind, resource, name, namespace, user, object, dry run flag and CreateOptions', () => {
  const a: AdmissionAttributes = { operation: 'CREATE', type: PODS, namespace: 'ns', name: 'p', dryRun: true, object: POD, user: JANE,
    options: { fieldManager: 'kubectl-create', fieldValidation: 'Strict' } };
  assert.equal(request(a), { kind: 'AdmissionReview', apiVersion: 'admission.k8s.io/v1', request: {
    uid: 'uid-1',
    kind: { group: '', version: 'v1', kind: 'Pod' }, resource: { group: '', version: 'v1', resource: 'pods' },
    requestKind: { group: '', version: 'v1', kind: 'Pod' }, requestResource: { group: '', version: 'v1', resource: 'pods' },
    name: 'p', namespace: 'ns', operation: 'CREATE',
    userInfo: { username: 'jane', uid: 'u-1', groups: ['devs', 'system:authenticated'], extra: { scopes: ['a', 'b'] } },
    object: POD, oldObject: null, dryRun: true,
    options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1', dryRun: ['All'], fieldManager: 'kubectl-create', fieldValidation: 'Strict' },
  } });
  assert.is(request(a, 'v1beta1').apiVersion, 'admission.k8s.io/v1beta1');
});

test('a status update names the subresource both ways and sends the old object and UpdateOptions', () => {
  const old = { ...POD, status: { phase: 'Pending' } };
  const r = request({ operation: 'UPDATE', type: PODS, namespace: 'ns', name: 'p', dryRun: false, subresource: 'status', object: POD, old, options: { fieldManager: 'agent' } }).request;
  assert.is(r.subResource, 'status');
  assert.is(r.requestSubResource, 'status');
  assert.equal(r.oldObject, old);
  assert.equal(r.options, { kind: 'UpdateOptions', apiVersion: 'meta.k8s.io/v1', fieldManager: 'agent' });
  assert.equal(r.userInfo, {}, 'a request nobody authenticated names no user');
});

test('a delete sends no object, the stored one as oldObject, and DeleteOptions', () => {
  const r = request({ operation: 'DELETE', type: PODS, namespace: 'ns', name: 'p', dryRun: false, old: POD, user: JANE,
    options: { gracePeriodSeconds: 0, propagationPolicy: 'Background', preconditions: { uid: 'x' } } }).request;
  assert.is(r.object, null);
  assert.equal(r.oldObject, POD);
  assert.equal(r.options, { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', gracePeriodSeconds: 0, preconditions: { uid: 'x' }, propagationPolicy: 'Background' });
});

test('a Namespace\'s update carries its own name as namespace; its create none', () => {
  const ns = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team' } } as KObject;
  assert.is(request({ operation: 'UPDATE', type: NAMESPACES, name: 'team', dryRun: false, object: ns, old: ns }).request.namespace, 'team');
  assert.is(request({ operation: 'CREATE', type: NAMESPACES, name: 'team', dryRun: false, object: ns }).request.namespace, undefined);
});

test('the first review version the webhook lists that the server speaks is used', () => {
  assert.is(reviewVersion(['v2', 'v1beta1', 'v1']), 'v1beta1');
  assert.is(reviewVersion(['v2']), undefined);
});

const v1 = (response: Record<string, unknown>) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'uid-1', ...response } });

function failure(json: unknown, mutating = false, version = 'v1'): string {
  try {
    verifyResponse(json as Json, 'uid-1', version, mutating);
  } catch (e) {
    assert.instance(e, ResponseError);
    return `${(e as ResponseError).kind}: ${(e as Error).message}`;
  }
  return 'accepted';
}

test('an answer must be a v1 AdmissionReview about the request\'s uid', () => {
  assert.is(failure({ ...v1({ allowed: true }), apiVersion: undefined, kind: undefined }),
    'invalid: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=');
  assert.is(failure({ ...v1({ allowed: true }), apiVersion: 'admission.k8s.io/v1beta1' }),
    'invalid: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview');
  assert.is(failure(v1({ allowed: true, uid: 'other' })), 'invalid: expected response.uid="uid-1", got "other"');
  assert.is(failure({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }), 'invalid: webhook response was absent');
  assert.is(failure(v1({ allowed: 'yes' })), 'decode: json: cannot unmarshal string into Go struct field AdmissionReview.response.allowed of type bool');
  assert.is(failure(v1({ allowed: true, patch: '!!', patchType: 'JSONPatch' }), true), 'decode: illegal base64 data at input byte 0');
  assert.is(failure([]), 'decode: json: cannot unmarshal array into Go value of type v1.AdmissionReview');
});

test('only a mutating webhook may patch, and always with the patch type; a v1beta1 answer is read loosely', () => {
  const patch = Buffer.from('[]').toString('base64');
  assert.is(failure(v1({ allowed: true, patch, patchType: 'JSONPatch' })), 'invalid: validating webhook may not return response.patch');
  assert.is(failure(v1({ allowed: true, patchType: 'JSONPatch' })), 'invalid: validating webhook may not return response.patchType');
  assert.is(failure(v1({ allowed: true, patch }), true), 'invalid: webhook returned response.patch but not response.patchType');
  assert.is(failure(v1({ allowed: true, patchType: 'JSONPatch' }), true), 'invalid: webhook returned response.patchType but not response.patch');
  const ok = verifyResponse(v1({ allowed: true, patch, patchType: 'JSONPatch', warnings: ['careful'] }) as Json, 'uid-1', 'v1', true);
  assert.equal([ok.allowed, ok.patch.toString(), ok.patchType, ok.warnings], [true, '[]', 'JSONPatch', ['careful']]);
  const loose = verifyResponse({ response: { allowed: true, uid: 'whatever', patch } }, 'uid-1', 'v1beta1', true);
  assert.equal([loose.patch.toString(), loose.patchType], ['[]', 'JSONPatch'], 'v1beta1 patches are JSON patches');
});

test('a denial carries the webhook\'s message, reason and code (400 at least), or says it came without explanation', () => {
  const e = denied('h.example.com', { code: 403, reason: 'Forbidden', message: 'not here' });
  assert.equal([e.code, e.status.reason, e.message], [403, 'Forbidden', 'admission webhook "h.example.com" denied the request: not here']);
  const bare = denied('h.example.com', undefined);
  assert.equal([bare.code, bare.status.reason, bare.message], [400, undefined, 'admission webhook "h.example.com" denied the request without explanation']);
  assert.is(denied('h.example.com', { reason: 'Nope', code: 200 }).message, 'admission webhook "h.example.com" denied the request: Nope');
  assert.is(denied('h.example.com', { reason: 'Nope', code: 200 }).code, 400);
});

test('an answer other than 2xx reads as client-go reads it: a failed Status\'s message, else the generic words for its code', () => {
  assert.is(serverResponseMessage({ code: 500, contentType: 'text/plain', text: 'boom\n' }), 'an error on the server ("boom") has prevented the request from succeeding');
  assert.is(serverResponseMessage({ code: 502, contentType: 'application/octet-stream', text: 'boom' }), 'an error on the server ("unknown") has prevented the request from succeeding');
  assert.is(serverResponseMessage({ code: 404, contentType: 'text/plain', text: 'nope' }), 'the server could not find the requested resource');
  assert.is(serverResponseMessage({ code: 500, contentType: 'application/json', text: JSON.stringify({ kind: 'Status', status: 'Failure', message: 'db down' }) }), 'db down');
  assert.is(serverResponseMessage({ code: 302, contentType: '', text: '' }), 'the server responded with the status code 302 but did not return more information');
});

test.run();
