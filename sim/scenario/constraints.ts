// Taints a pool's nodes carry and the tolerations a workload's pods bring, checked by the rules
// the API server applies (core validation's validateTaints / validateTolerations), so that a bad
// one is reported against the scenario file rather than as a failed create mid-run.
import type { Taint, Toleration } from '../../actors/scheduler/framework.ts';
import type { Field } from './field.ts';
import { integer, labelKey, labelValue, oneOf, optional } from './schema.ts';

const EFFECTS = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;
const TAINT_FIELDS = ['key', 'value', 'effect'];
/** A Node manifest's taints may carry the time the taint was added, which the pool drops. */
const MANIFEST_TAINT_FIELDS = [...TAINT_FIELDS, 'timeAdded'];
const TOLERATION_FIELDS = ['key', 'operator', 'value', 'effect', 'tolerationSeconds'];
const TAINTS_MAX = 100;
const TOLERATIONS_MAX = 100;
const INT64_SAFE_MAX = Number.MAX_SAFE_INTEGER;

export function taints(f: Field, options: { fromManifest: boolean } = { fromManifest: false }): Taint[] {
  if (!f.present) return [];
  const seen = new Set<string>();
  return f.list('taints', { max: TAINTS_MAX }).map((t) => {
    t.mapping(options.fromManifest ? MANIFEST_TAINT_FIELDS : TAINT_FIELDS);
    const taint: Taint = { key: labelKey(t.child('key')), effect: oneOf(t.child('effect'), EFFECTS) };
    if (t.child('value').present) taint.value = labelValue(t.child('value'));
    // The API server allows one taint per key and effect.
    const id = `${taint.key}:${taint.effect}`;
    if (seen.has(id)) t.error(`duplicate taint: key ${JSON.stringify(taint.key)} with effect ${taint.effect} is already listed`);
    seen.add(id);
    return taint;
  });
}

export function tolerations(f: Field): Toleration[] {
  if (!f.present) return [];
  return f.list('tolerations', { max: TOLERATIONS_MAX }).map((t) => {
    t.mapping(TOLERATION_FIELDS);
    const given = (name: string) => t.child(name).present;
    const out: Toleration = {};
    const key = optional(t.child('key'), (k) => (k.value === '' ? '' : labelKey(k)), '');
    if (given('key')) out.key = key;
    const operator = optional(t.child('operator'), (o) => oneOf(o, ['Exists', 'Equal'] as const), 'Equal');
    if (given('operator')) out.operator = operator;
    const value = optional(t.child('value'), labelValue, '');
    if (given('value')) out.value = value;
    const effect = optional(t.child('effect'), (e) => oneOf(e, ['', ...EFFECTS] as const), '');
    if (given('effect')) out.effect = effect;
    if (key === '' && operator !== 'Exists') t.child('operator').error('must be Exists when key is empty (an empty key with Exists tolerates every taint)');
    if (operator === 'Exists' && value !== '') t.child('value').error('must be empty when operator is Exists');
    if (given('tolerationSeconds')) {
      if (effect !== 'NoExecute') t.child('effect').error('must be NoExecute when tolerationSeconds is set');
      out.tolerationSeconds = integer(t.child('tolerationSeconds'), -INT64_SAFE_MAX, INT64_SAFE_MAX, 'an integer number of seconds');
    }
    return out;
  });
}
