// The Protobuf forms of PriorityClass, ResourceQuota and LimitRange (k8s.io/api generated.proto),
// which kubectl's `create priorityclass` and `create quota` send: every field survives a round trip.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { KObject } from '../../../../actors/api/types.ts';
import { decodeProtobuf, encodeProtobuf, supportsProtobuf } from '../../../../actors/apiserver/codec/protobuf.ts';
import { listOf } from './protobuf-fixtures.ts';

const objects: Record<string, KObject> = {
  PriorityClass: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' },
    value: 1000, globalDefault: true, description: 'urgent', preemptionPolicy: 'Never' },
  'PriorityClass of value 0': { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'zero' }, value: 0 },
  ResourceQuota: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q', namespace: 'team' },
    spec: { hard: { pods: '10', 'requests.cpu': '1500m', 'count/deployments.apps': '3' }, scopes: ['NotTerminating'],
      scopeSelector: { matchExpressions: [{ scopeName: 'PriorityClass', operator: 'In', values: ['high', 'low'] }, { scopeName: 'BestEffort', operator: 'Exists' }] } },
    status: { hard: { pods: '10' }, used: { pods: '2' } } },
  LimitRange: { apiVersion: 'v1', kind: 'LimitRange', metadata: { name: 'limits', namespace: 'team' },
    spec: { limits: [
      { type: 'Container', max: { cpu: '2' }, min: { memory: '64Mi' }, default: { cpu: '500m' }, defaultRequest: { cpu: '250m' }, maxLimitRequestRatio: { cpu: '4' } },
      { type: 'Pod', max: { memory: '1Gi' } },
    ] } },
};

for (const [name, obj] of Object.entries(objects)) {
  test(`a ${name} survives encode then decode unchanged, and so does a list of them`, () => {
    assert.equal(decodeProtobuf(encodeProtobuf(obj)), obj);
    const list = listOf(obj, 2);
    assert.ok(supportsProtobuf(String(list.apiVersion), String(list.kind)));
    assert.equal(decodeProtobuf(encodeProtobuf(list)), list);
  });
}

test.run();
