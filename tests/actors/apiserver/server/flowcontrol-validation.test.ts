// The flowcontrol.apiserver.k8s.io/v1 kinds as stored objects: their defaults, and their
// validation with the real field errors (kubernetes pkg/apis/flowcontrol/v1 defaults.go and
// pkg/apis/flowcontrol/validation, 1.32).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type Reply } from '../../../helpers/in-process-server.ts';

const GROUP = 'flowcontrol.apiserver.k8s.io';
const FS = `/apis/${GROUP}/v1/flowschemas`;
const PL = `/apis/${GROUP}/v1/prioritylevelconfigurations`;

const schema = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'FlowSchema', metadata: { name }, spec });
const level = (name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/v1`, kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const everything = [{ subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }];

function causes(r: Reply): string[] {
  assert.is(r.status, 422, r.text);
  return r.json.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
}

test('defaults: precedence 1000, 30 shares, lendable 0, and 64 queues in hands of 8 of at most 50 each', async () => {
  const h = await startServer({ enablePriorityAndFairness: false });
  const pl = await h.post(PL, level('mine', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } }));
  assert.equal(pl.json.spec, { type: 'Limited', limited: { nominalConcurrencyShares: 30, lendablePercent: 0,
    limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } } } });
  const jail = await h.post(PL, level('jail', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } }));
  assert.is(jail.json.spec.limited.nominalConcurrencyShares, 0, 'zero is kept: a level with no seats of its own');
  const fs = await h.post(FS, schema('mine', { priorityLevelConfiguration: { name: 'mine' }, rules: everything }));
  assert.is(fs.json.spec.matchingPrecedence, 1000);
  assert.is(fs.json.metadata.generation, 1);
});

test('a schema\'s precedence, distinguisher, level and rules are checked in the real words', async () => {
  const h = await startServer();
  assert.equal(causes(await h.post(FS, schema('bad', { priorityLevelConfiguration: { name: '' }, matchingPrecedence: 1, distinguisherMethod: { type: 'ByGroup' },
    rules: [
      { subjects: [], resourceRules: [{ verbs: ['*', 'get'], apiGroups: [], resources: ['pods'] }] },
      { subjects: [{ kind: 'ServiceAccount', serviceAccount: { name: 'x', namespace: 'Team_A' }, user: { name: 'u' } }, { kind: 'Robot' }],
        nonResourceRules: [{ verbs: ['fly'], nonResourceURLs: ['/a/*/b', 'healthz'] }] },
      { subjects: [{ kind: 'User', user: { name: 'u' } }] },
    ] }))), [
    'spec.matchingPrecedence: Invalid value: 1: only the schema named \'exempt\' may have matchingPrecedence 1',
    'spec.distinguisherMethod.type: Unsupported value: {"type":"ByGroup"}: supported values: "ByNamespace", "ByUser"',
    'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
    'spec.rules[0].subjects: Required value: subjects must contain at least one value',
    'spec.rules[0].resourceRules[0].verbs: Invalid value: []string{"*", "get"}: if \'*\' is present, must not specify other verbs',
    'spec.rules[0].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'spec.rules[0].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
    'spec.rules[1].subjects[0].serviceAccount.namespace: Invalid value: "Team_A": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')',
    'spec.rules[1].subjects[0].user: Forbidden: user is forbidden when subject kind is not \'User\'',
    'spec.rules[1].subjects[1].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
    'spec.rules[1].nonResourceRules[0].verbs: Unsupported value: []string{"fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
    'spec.rules[1].nonResourceRules[0].nonResourceURLs[0]: Invalid value: "/a/*/b": wildcard can only do suffix matching',
    'spec.rules[1].nonResourceRules[0].nonResourceURLs[1]: Invalid value: "healthz": must start with slash',
    'spec.rules[2]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
  ]);
  assert.equal(causes(await h.post(FS, schema('far', { priorityLevelConfiguration: { name: 'x' }, matchingPrecedence: 10001, rules: everything }))),
    ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']);
});

test('a level\'s type, shares, percentages and queuing are checked in the real words', async () => {
  const h = await startServer();
  assert.equal(causes(await h.post(PL, level('bad', { type: 'Limited', limited: { nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -5,
    limitResponse: { type: 'Queue', queuing: { queues: 1024, handSize: 7, queueLengthLimit: -1 } } } }))), [
    'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
    'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
    'spec.limited.borrowingLimitPercent: Invalid value: -5: if specified, must be a non-negative integer',
    'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: -1: must be positive',
    'spec.limited.limitResponse.queuing.handSize: Invalid value: 7: required entropy bits of deckSize 1024 and handSize 7 should not be greater than 60',
  ]);
  assert.equal(causes(await h.post(PL, level('odd', { type: 'Exempt', limited: { limitResponse: { type: 'Reject', queuing: { queues: 1 } } } }))), [
    'spec.type: Invalid value: "Exempt": type must be \'Exempt\' if and only if name is \'exempt\'',
    'spec.limited: Forbidden: must be nil if the type is not Limited',
  ]);
  assert.equal(causes(await h.post(PL, level('none', { type: 'Limited' }))), ['spec.limited: Required value: must not be empty when type is Limited']);
  assert.equal(causes(await h.post(PL, level('hand', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 4, handSize: 5 } } } }))),
    ['spec.limited.limitResponse.queuing.handSize: Invalid value: 5: should not be greater than queues (4)']);
});

test.run();
