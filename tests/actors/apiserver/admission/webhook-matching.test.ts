// Which webhooks a request calls: rules (operations, groups, versions, resources and subresources,
// scope), matchPolicy Equivalent against another served version, the object and namespace
// selectors, and the configuration kinds that are never sent to webhooks.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lookupResource, type ResourceType } from '../../../../actors/api/resources.ts';
import { StatusError } from '../../../../actors/api/status.ts';
import type { KObject } from '../../../../actors/api/types.ts';
import type { AdmissionAttributes, AdmissionLookup } from '../../../../actors/apiserver/admission/chain.ts';
import { equivalentResources, invocationFor, isExempt, matchRules } from '../../../../actors/apiserver/admission/webhooks/matching.ts';
import { requestNamespace } from '../../../../actors/apiserver/admission/webhooks/request.ts';
import { hooksOf, type Hook } from '../../../../actors/apiserver/admission/webhooks/source.ts';
import { compileCondition, conditionsMatch } from '../../../../actors/apiserver/admission/webhooks/match-conditions.ts';

const type = (group: string, resource: string) => lookupResource(group, 'v1', resource)!;
const PODS = type('', 'pods');
const NODES = type('', 'nodes');
const NAMESPACES = type('', 'namespaces');
const DEPLOYMENTS = type('apps', 'deployments');

/** One webhook, its configuration defaulted as the server stores it. */
function hook(fields: Record<string, unknown>): Hook {
  const webhook = { name: 'h.example.com', failurePolicy: 'Fail', matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, timeoutSeconds: 10,
    sideEffects: 'None', admissionReviewVersions: ['v1'], clientConfig: { url: 'https://h.example.com' }, ...fields };
  return hooksOf({ metadata: { name: 'config' }, webhooks: [webhook] } as unknown as KObject, false)[0]!;
}

const rule = (resources: string[], more: Record<string, unknown> = {}) => ({ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources, scope: '*', ...more });

function attrs(t: ResourceType, more: Partial<AdmissionAttributes> = {}): AdmissionAttributes {
  return { operation: 'CREATE', type: t, name: 'x', namespace: t.scope === 'Namespaced' ? 'ns' : undefined, dryRun: false,
    object: { metadata: { name: 'x' } } as KObject, ...more };
}

const noAccount = () => Promise.reject(new Error('no service account is read'));
const noLookup: AdmissionLookup = { getNamespace: () => Promise.reject(new Error('the namespace must not be read')), getServiceAccount: noAccount };
const calls = (h: Hook, a: AdmissionAttributes, lookup = noLookup) => invocationFor(h, a, lookup, []);

test('operations match exactly or by *; a rule for CONNECT or DELETE does not take a create', () => {
  assert.ok(matchRules(hook({ rules: [rule(['pods'], { operations: ['CREATE'] })] }), attrs(PODS), []));
  assert.ok(matchRules(hook({ rules: [rule(['pods'], { operations: ['*'] })] }), attrs(PODS, { operation: 'DELETE' }), []));
  assert.not.ok(matchRules(hook({ rules: [rule(['pods'], { operations: ['CONNECT', 'DELETE'] })] }), attrs(PODS), []));
});

test('groups and versions match exactly or by *, the core group as ""', () => {
  assert.ok(matchRules(hook({ rules: [rule(['pods'], { apiGroups: [''], apiVersions: ['v1'] })] }), attrs(PODS), []));
  assert.not.ok(matchRules(hook({ rules: [rule(['pods'], { apiGroups: ['apps'] })] }), attrs(PODS), []));
  assert.not.ok(matchRules(hook({ rules: [rule(['deployments'], { apiVersions: ['v1beta1'] })] }), attrs(DEPLOYMENTS), []));
  assert.ok(matchRules(hook({ rules: [rule(['deployments'], { apiGroups: ['apps'] })] }), attrs(DEPLOYMENTS), []));
});

test('a resource without a subresource takes only the main resource; pods/status, */status, pods/* and */* take the subresource', () => {
  const status = attrs(PODS, { operation: 'UPDATE', subresource: 'status' });
  assert.not.ok(matchRules(hook({ rules: [rule(['pods'])] }), status, []));
  assert.not.ok(matchRules(hook({ rules: [rule(['*'])] }), status, []));
  for (const r of ['pods/status', '*/status', 'pods/*', '*/*']) assert.ok(matchRules(hook({ rules: [rule([r])] }), status, []), r);
  assert.ok(matchRules(hook({ rules: [rule(['*/status'])] }), attrs(DEPLOYMENTS, { subresource: 'status' }), []));
  assert.not.ok(matchRules(hook({ rules: [rule(['pods/status'])] }), attrs(PODS), []), 'pods/status does not take pods');
  assert.ok(matchRules(hook({ rules: [rule(['pods/*'])] }), attrs(PODS), []), 'pods/* takes pods too');
});

test('scope Namespaced takes namespaced objects only, Cluster the rest and Namespaces themselves', () => {
  const namespaced = hook({ rules: [rule(['*'], { scope: 'Namespaced' })] });
  const cluster = hook({ rules: [rule(['*'], { scope: 'Cluster' })] });
  const namespaceUpdate = attrs(NAMESPACES, { operation: 'UPDATE', name: 'team-a' });
  assert.is(requestNamespace(namespaceUpdate), 'team-a', 'a Namespace\'s request carries its own name as namespace');
  assert.ok(matchRules(namespaced, attrs(PODS), []));
  assert.not.ok(matchRules(namespaced, attrs(NODES), []));
  assert.not.ok(matchRules(namespaced, namespaceUpdate, []));
  assert.ok(matchRules(cluster, namespaceUpdate, []));
  assert.ok(matchRules(cluster, attrs(NODES), []));
  assert.not.ok(matchRules(cluster, attrs(PODS), []));
});

test('matchPolicy Equivalent calls a webhook whose rule names another served version, as that version; Exact does not', () => {
  const v1beta1: ResourceType = { ...DEPLOYMENTS, version: 'v1beta1' };
  const equivalents = equivalentResources(DEPLOYMENTS, [DEPLOYMENTS, v1beta1, PODS]);
  assert.equal(equivalents, [v1beta1]);
  const rules = [rule(['deployments'], { apiGroups: ['apps'], apiVersions: ['v1beta1'] })];
  const found = matchRules(hook({ rules }), attrs(DEPLOYMENTS), equivalents);
  assert.equal(found && { resource: found.resource, kind: found.kind },
    { resource: { group: 'apps', version: 'v1beta1', resource: 'deployments' }, kind: { group: 'apps', version: 'v1beta1', kind: 'Deployment' } });
  assert.not.ok(matchRules(hook({ rules, matchPolicy: 'Exact' }), attrs(DEPLOYMENTS), equivalents));
  assert.equal(equivalentResources(DEPLOYMENTS, [DEPLOYMENTS, PODS]), [], 'a resource served at one version has no equivalent');
});

test('the webhook configuration kinds are exempt; other admissionregistration-looking kinds are not', () => {
  assert.ok(isExempt(type('admissionregistration.k8s.io', 'validatingwebhookconfigurations')));
  assert.ok(isExempt(type('admissionregistration.k8s.io', 'mutatingwebhookconfigurations')));
  assert.not.ok(isExempt(PODS));
});

test('the object selector matches the new or the old object\'s labels; a delete has only the old', async () => {
  const h = hook({ rules: [rule(['pods'])], objectSelector: { matchLabels: { watched: 'yes' } } });
  const labelled = { metadata: { name: 'x', labels: { watched: 'yes' } } } as KObject;
  const plain = { metadata: { name: 'x' } } as KObject;
  assert.ok(await calls(h, attrs(PODS, { object: labelled })));
  assert.not.ok(await calls(h, attrs(PODS, { object: plain })));
  assert.ok(await calls(h, attrs(PODS, { operation: 'UPDATE', object: plain, old: labelled })), 'an update removing the label is still seen');
  assert.ok(await calls(h, attrs(PODS, { operation: 'DELETE', object: undefined, old: labelled })));
  assert.not.ok(await calls(h, attrs(PODS, { operation: 'DELETE', object: undefined, old: plain })));
});

test('the namespace selector reads the namespace\'s labels; a Namespace\'s create and update use its own', async () => {
  const h = hook({ rules: [rule(['*'])], namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['a'] }] } });
  const namespaces: Record<string, KObject> = { ns: { metadata: { name: 'ns', labels: { team: 'a' } } } as KObject, other: { metadata: { name: 'other' } } as KObject };
  const lookup: AdmissionLookup = { getNamespace: (name) => Promise.resolve(namespaces[name]), getServiceAccount: noAccount };
  assert.ok(await calls(h, attrs(PODS), lookup));
  assert.not.ok(await calls(h, attrs(PODS, { namespace: 'other' }), lookup));
  assert.ok(await calls(h, attrs(NODES)), 'a cluster-scoped object other than a Namespace is always selected, without a read');
  assert.ok(await calls(h, attrs(NAMESPACES, { name: 'new', object: { metadata: { name: 'new', labels: { team: 'a' } } } as KObject })));
  assert.not.ok(await calls(h, attrs(NAMESPACES, { name: 'new' })));
  assert.ok(await calls(h, attrs(NAMESPACES, { operation: 'DELETE', name: 'ns', object: undefined }), lookup), 'a Namespace\'s delete reads it');
  const missing = await Promise.resolve(calls(h, attrs(PODS, { namespace: 'gone' }), lookup)).catch((e: unknown) => e);
  assert.instance(missing, StatusError);
  assert.is((missing as StatusError).code, 404);
  assert.is((missing as StatusError).message, 'namespaces "gone" not found');
});

test('matchConditions: true when all hold, false at the first false one, else the errors as Go aggregates them', async () => {
  const h = hook({ rules: [rule(['pods'])] });
  const inv = (await calls(h, attrs(PODS)))!;
  const check = (...expressions: string[]) => conditionsMatch(expressions.map((e, i) => compileCondition(`c${i}`, e)), inv, attrs(PODS));
  assert.is(check("object.metadata.name == 'x'", "request.resource.resource == 'pods' && request.namespace == 'ns'", 'oldObject == null'), true);
  assert.is(check('object.nope', 'false'), false, 'a false condition decides even after an error');
  assert.equal(check('object.nope', '1'), { error: "[expression 'object.nope' resulted in error: no such key: nope, expression '1' resulted in error: cel expression must evaluate to a bool]" });
  assert.equal(compileCondition('c', 'authorizer != null').error,
    "compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')");
});

test('a request no rule takes is decided without reading the namespace, whatever the selectors', () => {
  const h = hook({ rules: [rule(['nodes'])], namespaceSelector: { matchLabels: { team: 'a' } } });
  assert.is(calls(h, attrs(PODS)), undefined);
});

test.run();
