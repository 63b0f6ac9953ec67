// The priority expander's ConfigMap as the real one reads it: `priorities` holds a YAML mapping of
// integer priority to node group name regexes; anything else is ignored with the real reason.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { ConfigMap } from '../../../actors/api/model/core.ts';
import { parsePriorities, priorityOf, readPriorities } from '../../../actors/cluster-autoscaler/priorities.ts';

const map = (data?: Record<string, string>): ConfigMap => ({ metadata: { name: 'cluster-autoscaler-priority-expander', namespace: 'kube-system' }, ...(data ? { data } : {}) });

test('priorities map each integer to its patterns, and a group takes the highest priority that matches it', () => {
  const p = parsePriorities('10:\n  - .*-spot-.*\n  - spot\n50:\n  - gpu$\n-1: [".*"]\n');
  assert.equal([...p.keys()].sort((a, b) => a - b), [-1, 10, 50]);
  assert.is(priorityOf(p, 'eu-spot-large'), 10);
  assert.is(priorityOf(p, 'a-gpu'), 50);
  assert.is(priorityOf(p, 'gpu-pool'), -1, 'an anchored pattern does not match in the middle');
  assert.is(priorityOf(new Map(), 'x'), undefined);
});

test('a ConfigMap without the priorities key, or with a wrong document, is ignored with the real reasons', () => {
  assert.equal(readPriorities(map()), { invalid: "Wrong configmap for priority expander, doesn't contain priorities key. Ignoring update." });
  assert.equal(readPriorities(map({ priorities: '' })), {
    invalid: 'Wrong configuration for priority expander: priority configuration in cluster-autoscaler-priority-expander configmap is empty; please provide valid configuration. Ignoring update.' });
  const notInt = readPriorities(map({ priorities: 'high: [spot]\n' }));
  assert.ok('invalid' in notInt && notInt.invalid.startsWith("Wrong configuration for priority expander: Can't parse YAML with priorities in the configmap:"), JSON.stringify(notInt));
  const badRegex = readPriorities(map({ priorities: '10: ["spot("]\n' }));
  assert.ok('invalid' in badRegex && badRegex.invalid.startsWith("Wrong configuration for priority expander: Can't compile regexp rule for priority 10 and rule spot(:"), JSON.stringify(badRegex));
  const notList = readPriorities(map({ priorities: '10: spot\n' }));
  assert.ok('invalid' in notList);
  const yamlError = readPriorities(map({ priorities: '10: [spot\n' }));
  assert.ok('invalid' in yamlError);
  const ok = readPriorities(map({ priorities: '10: [spot]\n' }));
  assert.ok('priorities' in ok && priorityOf(ok.priorities, 'spot') === 10);
});

test.run();
