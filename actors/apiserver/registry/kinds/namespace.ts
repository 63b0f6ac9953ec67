// Namespaces (pkg/registry/core/namespace/strategy.go): DNS-label names, the
// kubernetes.io/metadata.name label, spec.finalizers ["kubernetes"] and phase Active; the
// finalize subresource changes spec.finalizers alone; deletion waits for spec.finalizers, and a
// namespace being deleted is Terminating. printNamespace.
import type { KObject } from '../../../api/types.ts';
import { child, fill, nil, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, nameColumn, nameOf, type Printer, text } from '../tables-format.ts';
import { specOf } from './rules.ts';

/**
 * The metadata.name label every namespace carries, spec.finalizers ["kubernetes"] when unset (the
 * namespace strategy's PrepareForCreate), and status.phase Active.
 *
 * A /finalize write that leaves spec.finalizers out would get "kubernetes" back: such writes must
 * send `finalizers: []`, or skip defaulting.
 */
function defaults(ns: KObject): void {
  if (ns.metadata.name) ns.metadata.labels = { ...ns.metadata.labels, 'kubernetes.io/metadata.name': ns.metadata.name };
  fill(child(ns, 'spec'), [nil('finalizers', ['kubernetes'])]);
  fill(child(ns, 'status'), [zero('phase', 'Active')]);
}

const printer: Printer = {
  columns: [nameColumn, column('Status', 'The status of the namespace'), ageColumn],
  cells: (o, nowMs) => [nameOf(o), text(fields(o.status).phase), age(o, nowMs)],
};

export const namespace = defineKind({
  nameRule: 'label',
  hasStatus: true,
  hasGeneration: false,
  defaults,
  printer,
  prepareForCreate(obj) {
    obj.status = { phase: 'Active' };
  },
  subresourceWrites: {
    // finalize changes a namespace's spec.finalizers only.
    finalize(next, current) {
      const finalizers = (next.spec as { finalizers?: unknown } | undefined)?.finalizers;
      Object.assign(next, { ...current, metadata: { ...current.metadata, managedFields: next.metadata.managedFields } });
      next.spec = { ...(next.spec as object), finalizers: finalizers ?? [] };
    },
  },
  blocksRemoval: (obj) => ((specOf(obj).finalizers as unknown[] | undefined)?.length ?? 0) > 0,
  beginTerminating(next) {
    next.status = { ...(next.status as object), phase: 'Terminating' };
  },
});
