// Admission webhooks for tests: answers a test's webhook server gives (allow, deny, patch, warn),
// and webhook configurations pointing at it, with the server's certificate as their caBundle.
import type { ReceivedReview, WebhookReply, WebhookServer } from './webhook-server.ts';

/** An AdmissionReview v1 answer to `review`, its uid echoed. */
export function answer(review: ReceivedReview, response: Record<string, unknown>): WebhookReply {
  return { json: { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.body.request.uid, ...response } } };
}

export const allow = (review: ReceivedReview): WebhookReply => answer(review, { allowed: true });

export const deny = (message: string, code?: number) => (review: ReceivedReview): WebhookReply =>
  answer(review, { allowed: false, status: { message, ...(code ? { code } : {}) } });

/** Allows with this JSON patch. */
export const patch = (ops: unknown[]) => (review: ReceivedReview): WebhookReply =>
  answer(review, { allowed: true, patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify(ops)).toString('base64') });

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** A webhook of a configuration calling `server` at `path`, on configmap creates unless `overrides` say otherwise. */
export function hookFor(server: WebhookServer, name: string, overrides: Record<string, unknown> = {}, path = '/admit'): Record<string, unknown> {
  return {
    name,
    clientConfig: { url: `${server.url}${path}`, caBundle: b64(server.caPem) },
    rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...overrides,
  };
}

export function configuration(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', name: string, webhooks: Record<string, unknown>[]) {
  return { apiVersion: 'admissionregistration.k8s.io/v1', kind, metadata: { name }, webhooks };
}

export const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
export const VALIDATING = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
