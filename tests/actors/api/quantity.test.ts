// Exact quantities: parsed as resource.Quantity parses them, printed as its String() prints them,
// added with its rule for which format a sum keeps.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addQuantities, formatQuantity, milliValue, subtractQuantities, toQuantity, unitValue } from '../../../actors/api/quantity.ts';
import { addLists, exceeding, podTotal, prettyPrint, readResourceList, subtractNonNegative, writeResourceList } from '../../../actors/api/resource-lists.ts';

const canonical = (s: string | number) => formatQuantity(toQuantity(s));

test('quantities print in canonical form: the largest suffix that keeps them whole, binary only from 1Ki', () => {
  const cases: [string | number, string][] = [
    ['1500m', '1500m'], ['1000m', '1'], ['2000', '2k'], ['1.5', '1500m'], ['0.1', '100m'], ['100m', '100m'], ['5n', '5n'],
    ['1Gi', '1Gi'], ['1024Mi', '1Gi'], ['1.5Gi', '1536Mi'], ['0.5Ki', '512'], ['2147483648', '2147483648'],
    ['1e3', '1e3'], ['1.5e3', '1500'], ['12e6', '12e6'], ['-1', '-1'], ['0', '0'], ['0Gi', '0'], [2, '2'], [0.5, '500m'],
    ['0.0000000001', '1n'],
  ];
  for (const [text, want] of cases) assert.is(canonical(text), want, String(text));
});

test('a sum keeps the format of its left side unless that side is zero', () => {
  const sum = (a: string, b: string) => formatQuantity(addQuantities(toQuantity(a), toQuantity(b)));
  assert.is(sum('500m', '1'), '1500m');
  assert.is(sum('1Gi', '2Gi'), '3Gi');
  assert.is(sum('0', '2Gi'), '2Gi');
  assert.is(sum('1G', '1Gi'), '2073741824', 'decimal on the left: no binary suffix');
  assert.is(formatQuantity(subtractQuantities(toQuantity('1'), toQuantity('250m'))), '750m');
  assert.equal([milliValue(toQuantity('0.1m')), unitValue(toQuantity('1500m'))], [1n, 2n], 'rounded up, as MilliValue and Value round');
});

test('resource lists add, subtract without going negative, compare and print as the quota helpers do', () => {
  const a = readResourceList({ cpu: '500m', memory: '1Gi', bad: 'x' });
  const b = readResourceList({ cpu: 1, pods: '1' });
  assert.equal(writeResourceList(addLists(a, b)), { cpu: '1500m', memory: '1Gi', pods: '1' });
  assert.equal(writeResourceList(subtractNonNegative(b, readResourceList({ cpu: '2', memory: '1' }))), { cpu: '0', memory: '0', pods: '1' });
  assert.equal(exceeding(addLists(a, b), readResourceList({ cpu: '1', memory: '2Gi' })), ['cpu']);
  assert.is(prettyPrint(readResourceList({ pods: '2', cpu: '1' })), 'cpu=1,pods=2');
});

test('a pod\'s totals: containers add up, init containers take the largest, sidecars add to everything after them', () => {
  const c = (cpu: string, restartPolicy?: string) => ({ resources: { requests: { cpu } }, ...(restartPolicy ? { restartPolicy } : {}) });
  const spec = { containers: [c('1'), c('500m')], initContainers: [c('3'), c('200m', 'Always'), c('2')] };
  // Containers and the sidecar run together: 1.7; the first init container alone: 3; the last with the sidecar: 2.2.
  assert.is(writeResourceList(podTotal(spec, 'requests')).cpu, '3');
  assert.is(writeResourceList(podTotal({ ...spec, initContainers: [c('200m', 'Always'), c('1600m')] }, 'requests')).cpu, '1800m');
  assert.equal(writeResourceList(podTotal({ containers: [{}] }, 'limits')), {});
});

test.run();
