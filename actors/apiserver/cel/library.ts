// The functions Kubernetes adds to CEL for validation rules (apiserver pkg/cel/library), as far as
// this server offers them: the strings extension (from @bufbuild/cel) and the lists library
// (isSorted, sum, min, max, indexOf, lastIndexOf). The regex (find, findAll), URL, IP, CIDR,
// quantity and format libraries are not offered: a rule calling them fails when it runs.
import { celMethod, CelScalar, listType, type CelList, type CelValue } from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import type { CelFunc } from '@bufbuild/cel';

const DYN_LIST = listType(CelScalar.DYN);

type Comparable = bigint | number | string | boolean;

function items(list: CelList): Comparable[] {
  return [...list.values()].map((v) => v as Comparable);
}

function compare(a: Comparable, b: Comparable): number {
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = typeof a === 'bigint' ? a : Number(a);
  const y = typeof b === 'bigint' ? b : Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function extreme(list: CelList, sign: number): CelValue {
  const all = items(list);
  if (all.length === 0) throw new Error(`${sign < 0 ? 'min' : 'max'}(list) argument must not be empty`);
  return all.reduce((best, v) => (compare(v, best) * sign > 0 ? v : best)) as CelValue;
}

function indexOf(list: CelList, value: CelValue, last: boolean): bigint {
  const all = [...list.values()];
  const order = last ? [...all.keys()].reverse() : [...all.keys()];
  for (const i of order) if (compare(all[i] as Comparable, value as Comparable) === 0 && typeof all[i] === typeof value) return BigInt(i);
  return -1n;
}

const LISTS: CelFunc[] = [
  celMethod('isSorted', DYN_LIST, [], CelScalar.BOOL, function () {
    const all = items(this as CelList);
    return all.every((v, i) => i === 0 || compare(all[i - 1] as Comparable, v) <= 0);
  }),
  celMethod('sum', DYN_LIST, [], CelScalar.DYN, function () {
    const all = items(this as CelList);
    if (all.length === 0) return 0n;
    if (typeof all[0] === 'bigint') return all.reduce((s, v) => (s as bigint) + (v as bigint), 0n) as CelValue;
    return all.reduce((s, v) => (s as number) + Number(v), 0) as CelValue;
  }),
  celMethod('min', DYN_LIST, [], CelScalar.DYN, function () {
    return extreme(this as CelList, -1);
  }),
  celMethod('max', DYN_LIST, [], CelScalar.DYN, function () {
    return extreme(this as CelList, 1);
  }),
  celMethod('indexOf', DYN_LIST, [CelScalar.DYN], CelScalar.INT, function (v) {
    return indexOf(this as CelList, v, false);
  }),
  celMethod('lastIndexOf', DYN_LIST, [CelScalar.DYN], CelScalar.INT, function (v) {
    return indexOf(this as CelList, v, true);
  }),
];

export const KUBERNETES_FUNCS: CelFunc[] = [...strings, ...LISTS];
