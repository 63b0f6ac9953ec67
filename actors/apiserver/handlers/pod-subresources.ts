// Pod subresources that are operations: binding (the scheduler's assignment) and eviction
// (a delete that respects PodDisruptionBudgets).
import { lookupResource } from '../../api/resources.ts';
import { parseLabelSelector } from '../../api/selectors.ts';
import { conflict, invalid, StatusError, success, tooManyRequests } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { timestamp } from '../../api/env.ts';
import type { Registry } from '../registry/registry.ts';
import { target } from '../registry/registry.ts';
import type { ApiRequest, ResourceRequest } from '../request.ts';
import { checkObject, dryRun, fieldValidation, parseBody } from './decode.ts';
import { encodeStatus, type EncodeContext } from './encode.ts';
import { fieldManager } from './field-manager.ts';
import type { ApiResponse } from './response.ts';
import { withFields } from '../../api/objects.ts';

type Obj = Record<string, unknown>;

export async function handleBinding(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const { object } = checkObject(parseBody(req),
    { apiVersion: 'v1', kind: 'Binding', group: '', version: 'v1' }, fieldValidation(r.query, 'CreateOptions'));
  const node = isPlainObject(object.target) ? String((object.target as Obj).name ?? '') : '';
  if (!node) throw invalid('', 'Binding', r.name!, [{ reason: 'FieldValueRequired', field: 'target.name', message: 'Required value' }]);
  if (object.metadata.name && object.metadata.name !== r.name)
    throw invalid('', 'Binding', r.name!, [{ reason: 'FieldValueInvalid', field: 'metadata.name', message: `Invalid value: "${object.metadata.name}": must match the pod name` }]);
  fieldManager(r.query, req.headers['user-agent'], 'CreateOptions'); // checked as any create's options, though nothing records it
  // As the real BindingREST: straight to storage (no pod admission, validation or managed fields),
  // refused for a pod being deleted or already bound, and for another pod of the same name (uid).
  const uid = typeof object.metadata.uid === 'string' && object.metadata.uid ? object.metadata.uid : undefined;
  await registry.guaranteedUpdate(r.type, r.namespace, r.name!, (pod) => {
    const spec = (pod.spec ?? {}) as Obj;
    if (pod.metadata.deletionTimestamp) throw conflict(target(r.type, r.name), `pod ${r.name} is being deleted, cannot be assigned to a host`);
    if (spec.nodeName) throw conflict(target(r.type, r.name), `pod ${r.name} is already assigned to node "${String(spec.nodeName)}"`);
    const status = (pod.status ?? {}) as Obj;
    const conditions = ((status.conditions as Obj[] | undefined) ?? []).filter((c) => c.type !== 'PodScheduled');
    conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: timestamp(registry.env.clock.now()) });
    return { ...pod, spec: withFields(spec, { nodeName: node }), status: withFields(status, { conditions }) };
  }, { dryRun: dryRun(r.query.params.getAll('dryRun'), 'CreateOptions'), ...(uid ? { uid } : {}) });
  return encodeStatus(ctx, success(undefined, 201), 201);
}

const pdbType = lookupResource('policy', 'v1', 'poddisruptionbudgets')!;

export async function handleEviction(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const { object } = checkObject(parseBody(req),
    { apiVersion: 'policy/v1', kind: 'Eviction', group: 'policy', version: 'v1' }, 'Ignore', ['policy/v1', 'policy/v1beta1']);
  const del = isPlainObject(object.deleteOptions) ? (object.deleteOptions as Obj) : {};
  const dry = dryRun(Array.isArray(del.dryRun) ? del.dryRun.map(String) : r.query.params.getAll('dryRun'), 'DeleteOptions');
  const pod = await registry.get(r.type, r.namespace, r.name!);
  const phase = String((pod.status as Obj | undefined)?.phase ?? '');
  // Pods that are not running, or already terminating, do not count against a budget.
  const guarded = !pod.metadata.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed' && phase !== 'Pending';
  const grace = typeof del.gracePeriodSeconds === 'number' ? del.gracePeriodSeconds : undefined;
  const pre = isPlainObject(del.preconditions) ? (del.preconditions as Obj) : {};
  const preconditions = { ...(pre.uid ? { uid: String(pre.uid) } : {}), ...(pre.resourceVersion ? { resourceVersion: String(pre.resourceVersion) } : {}) };
  const opts = { dryRun: dry, preconditions, ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}) };
  if (guarded) {
    // The delete's checks (preconditions: 409) run as a dry run first, so a refused eviction charges no budget.
    await registry.delete(r.type, r.namespace, r.name!, { ...opts, dryRun: true });
    await chargeBudget(registry, pod, dry);
  }
  await registry.delete(r.type, r.namespace, r.name!, opts);
  return encodeStatus(ctx, success(undefined, 201), 201);
}

async function chargeBudget(registry: Registry, pod: KObject, dry: boolean): Promise<void> {
  const pdbs = (await registry.list(pdbType, pod.metadata.namespace, {})).items.filter((pdb) => {
    const selector = ((pdb.spec ?? {}) as Obj).selector as Obj | undefined;
    const labels = selector?.matchLabels as Record<string, string> | undefined;
    const match = parseLabelSelector(labels ? Object.entries(labels).map(([k, v]) => `${k}=${v}`).join(',') : undefined);
    return selector !== undefined && (match ? match(pod) : true);
  });
  if (pdbs.length === 0) return;
  if (pdbs.length > 1) throw new StatusError(500, 'InternalError', 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
  const pdb = pdbs[0];
  const status = (pdb.status ?? {}) as Obj;
  const refuse = (why: string) => tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10, [{ reason: 'DisruptionBudget', message: why }]);
  if ((Number(status.observedGeneration ?? 0)) < (pdb.metadata.generation ?? 0))
    throw refuse(`The disruption budget ${pdb.metadata.name} is still being processed by the server.`);
  const allowed = Number(status.disruptionsAllowed ?? 0);
  if (allowed <= 0)
    throw refuse(`The disruption budget ${pdb.metadata.name} needs ${Number(status.desiredHealthy ?? 0)} healthy pods and has ${Number(status.currentHealthy ?? 0)} currently`);
  await registry.update(pdbType, pdb.metadata.namespace, pdb.metadata.name!, (cur) => {
    const s = (cur!.status ?? {}) as Obj;
    const disrupted = { ...((s.disruptedPods as Obj | undefined) ?? {}), [pod.metadata.name!]: timestamp(registry.env.clock.now()) };
    return { ...cur!, status: { ...s, disruptionsAllowed: Number(s.disruptionsAllowed ?? 0) - 1, disruptedPods: disrupted } };
  }, { dryRun: dry, fieldManager: 'orch-apiserver', subresource: 'status' });
}
