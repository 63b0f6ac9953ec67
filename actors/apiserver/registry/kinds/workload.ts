// What the four pod-making workloads (Deployments, ReplicaSets, DaemonSets, StatefulSets) share:
// a status subresource, generations, replicas not negative, a selector that selects the
// template, and a template whose containers name images. Their printers share columns too.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { defineKind, type Kind, type KindRules, type ScalePaths } from '../kind.ts';
import { nil } from '../defaults-fields.ts';
import { column, containerCells, fields, int, labelSelectorString, wide } from '../tables-format.ts';
import { containerImages, notNegative, specOf, type Spec } from './rules.ts';

export function validateWorkload(obj: KObject): StatusCause[] {
  const spec = specOf(obj);
  const causes: StatusCause[] = [];
  if (typeof spec.replicas === 'number' && spec.replicas < 0) causes.push(notNegative('spec.replicas', spec.replicas));
  const template = spec.template as Spec | undefined;
  const matchLabels = (spec.selector as { matchLabels?: Record<string, string> } | undefined)?.matchLabels ?? {};
  const labels = ((template?.metadata as { labels?: Record<string, string> } | undefined)?.labels) ?? {};
  const selects = Object.entries(matchLabels).every(([k, v]) => labels[k] === v);
  if (template && !selects)
    causes.push({ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(labels)}: \`selector\` does not match template \`labels\``, field: 'spec.template.metadata.labels' });
  causes.push(...containerImages(template?.spec as Spec | undefined, 'spec.template.spec'));
  return causes;
}

/** Deployments, ReplicaSets and StatefulSets scale by spec.replicas; their Scale's selector is spec.selector as text. */
export const REPLICAS_SCALE: ScalePaths = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
  selector: (obj) => labelSelectorString(fields(obj.spec).selector) ?? '',
};

/** A workload kind: its defaults and printer (and its scale), over the shared rules. */
export function workloadKind(rules: Pick<KindRules, 'defaults' | 'printer' | 'scale'>): Kind {
  return defineKind({ nameRule: 'subdomain', hasStatus: true, hasGeneration: true, validate: validateWorkload, ...rules });
}

/** Defaults most workloads share (pkg/apis/apps/v1 defaults.go). */
export const REPLICAS = nil('replicas', 1);
export const HISTORY = nil('revisionHistoryLimit', 10);

/** spec.replicas; a stored object always has it, as decoding defaults it to 1. */
export const desired = (o: KObject) => int(fields(o.spec).replicas, 1);
export const templateContainers = (o: KObject) => containerCells(fields(o.spec, 'template', 'spec').containers);
export const selectorColumn = column('Selector', 'A label query over pods that should match the replica count.', wide);
