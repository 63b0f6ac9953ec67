// Webhook configurations with every field set, for the Protobuf round trips: a url and a service
// reference, rules with the embedded Rule's fields, both selectors, the pointer fields, and the
// mutating webhook's reinvocationPolicy.
import type { KObject } from '../../../../actors/api/types.ts';

const common = {
  clientConfig: { service: { namespace: 'hooks', name: 'svc', path: '/mutate', port: 8443 }, caBundle: Buffer.from('-----BEGIN CERTIFICATE-----').toString('base64') },
  rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: ['', 'apps'], apiVersions: ['v1'], resources: ['pods', 'pods/status'], scope: 'Namespaced' }],
  failurePolicy: 'Ignore',
  matchPolicy: 'Exact',
  namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a', 'b'] }] },
  objectSelector: { matchLabels: { watched: 'yes' } },
  sideEffects: 'NoneOnDryRun',
  timeoutSeconds: 5,
  admissionReviewVersions: ['v1', 'v1beta1'],
  matchConditions: [{ name: 'not-system', expression: "!request.userInfo.username.startsWith('system:')" }],
};

export const admissionObjects: Record<string, KObject> = {
  MutatingWebhookConfiguration: {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'MutatingWebhookConfiguration', metadata: { name: 'inject', generation: 2 },
    webhooks: [{ name: 'inject.example.com', ...common, reinvocationPolicy: 'IfNeeded' },
      { name: 'url.example.com', clientConfig: { url: 'https://hooks.example.com:9443/m' }, sideEffects: 'None', admissionReviewVersions: ['v1'] }],
  } as KObject,
  ValidatingWebhookConfiguration: {
    apiVersion: 'admissionregistration.k8s.io/v1', kind: 'ValidatingWebhookConfiguration', metadata: { name: 'policy' },
    webhooks: [{ name: 'policy.example.com', ...common }],
  } as KObject,
};
