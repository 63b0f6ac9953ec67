// PodDisruptionBudgets refuse what the real server refuses, with its messages: both minAvailable
// and maxUnavailable, a negative count, a string that is not a percentage or is over 100%, an
// invalid selector, an unknown unhealthyPodEvictionPolicy; their status writes refuse negative
// counts and malformed conditions. A budget with neither field, or an empty selector, is valid.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer } from '../../../helpers/in-process-server.ts';

const PDBS = '/apis/policy/v1/namespaces/default/poddisruptionbudgets';
const budget = (name: string, spec: object) => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name }, spec });

const refusals: [string, object, string[]][] = [
  ['both', { minAvailable: 1, maxUnavailable: '10%' }, ['spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:1, MaxUnavailable:"10%"}: minAvailable and maxUnavailable cannot be both set']],
  ['negative', { minAvailable: -1 }, ['spec.minAvailable: Invalid value: -1: must be greater than or equal to 0']],
  ['not-percent', { maxUnavailable: 'half' }, ['spec.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"half"}: a valid percent string must be a numeric string followed by an ending \'%\' (e.g. \'1%\',  or \'93%\', regex used for validation is \'[0-9]+%\')']],
  ['over', { minAvailable: '101%' }, ['spec.minAvailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%']],
  ['operator', { selector: { matchExpressions: [{ key: 'app', operator: 'Equals', values: ['web'] }] } }, ['spec.selector.matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator']],
  ['values', { selector: { matchExpressions: [{ key: 'app', operator: 'In' }, { key: 'tier', operator: 'Exists', values: ['x'] }] } },
    ["spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      "spec.selector.matchExpressions[1].values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"]],
  ['policy', { unhealthyPodEvictionPolicy: 'Never' }, ['spec.unhealthyPodEvictionPolicy: Unsupported value: "Never": supported values: "AlwaysAllow", "IfHealthyBudget"']],
];

for (const [name, spec, messages] of refusals)
  test(`a budget with ${name === 'both' ? 'both fields' : `a bad ${name}`} answers 422 naming each field`, async () => {
    const h = await startServer();
    const r = await h.post(PDBS, budget(name, spec));
    assert.is(r.status, 422);
    assert.equal(r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`), messages);
  });

test('budgets with neither field, an empty selector, integer and percentage counts are valid', async () => {
  const h = await startServer();
  for (const [name, spec] of [['none', {}], ['all', { selector: {} }], ['int', { minAvailable: 0 }], ['pct', { maxUnavailable: '100%' }],
    ['always', { minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' }]] as const)
    assert.is((await h.post(PDBS, budget(name, spec))).status, 201, name);
});

test('a status write refuses negative counts and conditions without a reason or a known status', async () => {
  const h = await startServer();
  const created = (await h.post(PDBS, budget('web', { minAvailable: 1 }))).json;
  const r = await h.put(`${PDBS}/web/status`, { ...created, status: { disruptionsAllowed: -1, currentHealthy: 0, desiredHealthy: 1, expectedPods: 0,
    conditions: [{ type: 'DisruptionAllowed', status: 'Maybe', lastTransitionTime: '2026-01-01T00:00:00Z', reason: '', message: '' },
      { type: 'Other', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: 'not ok', message: '' }] } });
  assert.is(r.status, 422);
  assert.equal(r.json.details.causes.map((c: { field: string }) => c.field),
    ['status.conditions[0].status', 'status.conditions[0].reason', 'status.conditions[1].reason', 'status.disruptionsAllowed']);
  assert.is(r.json.details.causes[2].message, "Invalid value: \"not ok\": a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')");
});

test.run();
