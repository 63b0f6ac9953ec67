// The binding subresource: the scheduler's assignment of a pod to a node (eviction.ts is the
// other pod subresource that is an operation).
import { conflict, invalid, success } from '../../api/status.ts';
import { isPlainObject } from '../../api/types.ts';
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
