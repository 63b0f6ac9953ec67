// MutatingWebhookConfiguration and ValidatingWebhookConfiguration (admissionregistration.k8s.io/v1):
// each webhook defaults to failurePolicy Fail, matchPolicy Equivalent, empty namespace and object
// selectors, a 10 s timeout (and, mutating, reinvocationPolicy Never), each rule to scope `*`, a
// service reference to port 443 (pkg/apis/admissionregistration/v1 defaults.go). Generation counts
// changes of the webhooks; printers.go shows NAME WEBHOOKS AGE.
import type { KObject } from '../../../api/types.ts';
import { deepEqual } from '../deep-equal.ts';
import { child, fill, nil, type Fields } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, integer, list, nameColumn, nameOf, type Printer } from '../tables-format.ts';
import { validateWebhookConfiguration, webhooksOf } from '../webhook-configuration-validation.ts';

function defaultWebhook(hook: Fields, mutating: boolean): void {
  fill(hook, [nil('failurePolicy', 'Fail'), nil('matchPolicy', 'Equivalent'), nil('namespaceSelector', {}), nil('objectSelector', {}),
    nil('timeoutSeconds', 10), ...(mutating ? [nil('reinvocationPolicy', 'Never')] : [])]);
  for (const rule of list(hook.rules)) if (rule && typeof rule === 'object') fill(rule as Fields, [nil('scope', '*')]);
  const service = (child(hook, 'clientConfig') as Fields).service;
  if (service && typeof service === 'object') fill(service as Fields, [nil('port', 443)]);
}

const printer: Printer = {
  columns: [nameColumn, column('Webhooks', 'Webhooks indicates the number of webhooks registered in this configuration', integer), ageColumn],
  cells: (o: KObject, nowMs: number) => [nameOf(o), list((o as Fields).webhooks).length, age(o, nowMs)],
};

function webhookConfiguration(mutating: boolean) {
  return defineKind({
    nameRule: 'subdomain',
    hasStatus: false,
    hasGeneration: true,
    specChanged: (next, current) => !deepEqual((next as Fields).webhooks, (current as Fields).webhooks),
    defaults: (o) => webhooksOf(o).forEach((hook) => defaultWebhook(hook, mutating)),
    printer,
    validate: (o) => validateWebhookConfiguration(o, mutating),
  });
}

export const mutatingWebhookConfiguration = webhookConfiguration(true);
export const validatingWebhookConfiguration = webhookConfiguration(false);
