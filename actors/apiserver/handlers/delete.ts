// DELETE of one object and deletecollection. Options come from the body; from the query only
// when the body is empty, as real servers read them.
import { forbidden, invalid, isNotFound, success } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { kindOf } from '../registry/kinds/index.ts';
import type { DeleteOptions, Registry } from '../registry/registry.ts';
import { admissionOptions, type ApiRequest, type ResourceRequest } from '../request.ts';
import { bodyText, dryRun, parseBody, warningHeaders } from './decode.ts';
import { encodeList, encodeObject, encodeStatus, type EncodeContext } from './encode.ts';
import { planList } from './read.ts';
import type { ApiResponse } from './response.ts';

const POLICIES = ['Orphan', 'Background', 'Foreground'];

function optionsInvalid(field: string, message: string) {
  return invalid('meta.k8s.io', 'DeleteOptions', '', [{ reason: 'FieldValueInvalid', field, message }]);
}

export function deleteOptions(req: ApiRequest, r: ResourceRequest): DeleteOptions {
  if (req.value !== undefined || bodyText(req.body).trim() !== '') {
    // Decoded by its Content-Type like any body: an unknown type is a 415, never read as JSON.
    const body = parseBody(req).value;
    if (!isPlainObject(body)) throw optionsInvalid('', 'Invalid value: DeleteOptions must be a JSON object');
    return deleteOptionsFrom(body);
  }
  const q = r.query;
  return deleteOptionsFrom({
    ...(q.has('gracePeriodSeconds') ? { gracePeriodSeconds: q.int('gracePeriodSeconds') } : {}),
    ...(q.has('propagationPolicy') ? { propagationPolicy: q.string('propagationPolicy') } : {}),
    ...(q.has('orphanDependents') ? { orphanDependents: q.bool('orphanDependents') } : {}),
    dryRun: q.params.getAll('dryRun'),
  });
}

/** DeleteOptions from their JSON fields, checked as the real server checks them (an eviction's too). */
export function deleteOptionsFrom(b: Record<string, unknown>): DeleteOptions {
  const grace = b.gracePeriodSeconds;
  if (grace !== undefined && grace !== null && !(typeof grace === 'number' && Number.isInteger(grace)))
    throw optionsInvalid('gracePeriodSeconds', `Invalid value: ${JSON.stringify(grace)}: must be an integer`);
  const policy = b.propagationPolicy;
  if (policy !== undefined && policy !== null && !POLICIES.includes(String(policy)))
    throw invalid('meta.k8s.io', 'DeleteOptions', '', [{ reason: 'FieldValueNotSupported', field: 'propagationPolicy',
      message: `Unsupported value: ${JSON.stringify(policy)}: supported values: "Foreground", "Background", "Orphan", "nil"` }]);
  if (policy && b.orphanDependents !== undefined && b.orphanDependents !== null)
    throw optionsInvalid('propagationPolicy', 'Invalid value: orphanDependents and deletionPropagation cannot be both set');
  const dry = b.dryRun ?? [];
  if (!Array.isArray(dry)) throw optionsInvalid('dryRun', `Invalid value: ${JSON.stringify(dry)}: must be a list`);
  const pre = isPlainObject(b.preconditions) ? b.preconditions : undefined;
  const opts: DeleteOptions = { dryRun: dryRun(dry.map(String), 'DeleteOptions') };
  if (typeof grace === 'number') opts.gracePeriodSeconds = grace;
  if (policy) opts.propagationPolicy = String(policy);
  else if (typeof b.orphanDependents === 'boolean') opts.orphanDependents = b.orphanDependents;
  if (pre) opts.preconditions = { ...(pre.uid ? { uid: String(pre.uid) } : {}), ...(pre.resourceVersion ? { resourceVersion: String(pre.resourceVersion) } : {}) };
  return opts;
}

/**
 * Kinds that return the deleted object (pods) answer with it; others with a success Status once it is gone, and with
 * the object (deletionTimestamp, finalizers) while it stays. A kept object answers 202 only when
 * the request said orphanDependents=false, as the real server does (for compatibility it answers
 * 200 to every other delete that does not remove at once, propagationPolicy=Foreground too).
 */
function deletedResponse(r: ResourceRequest, obj: KObject, removed: boolean, opts: DeleteOptions, ctx: EncodeContext, headers: Record<string, string[]>): ApiResponse {
  const code = !removed && opts.orphanDependents === false ? 202 : 200;
  if (!removed || kindOf(r.type).returnsDeletedObject) return encodeObject(ctx, obj, code, headers);
  return encodeStatus(ctx, success({ name: obj.metadata.name, group: r.type.group, kind: r.type.resource, uid: obj.metadata.uid }), 200, headers);
}

export async function handleDelete(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const warnings: string[] = [];
  const opts = { ...deleteOptions(req, r), ...admissionOptions(req, r, warnings) };
  // As the real kind's REST Delete refuses it; a collection delete goes by each object's storage delete, which does not.
  const refused = kindOf(r.type).deleteForbidden(r.name!);
  if (refused) throw forbidden({ group: r.type.group, resource: r.type.resource, name: r.name }, refused);
  const { object, removed } = await registry.delete(r.type, r.namespace, r.name!, opts);
  return deletedResponse(r, object, removed, opts, ctx, warningHeaders(warnings));
}

/**
 * Deletes every object the selectors match (one page when `limit` is set), each as a delete of it
 * alone with the same options (so a propagation policy holds each the same way); answers the list
 * of deleted objects.
 */
export async function handleDeleteCollection(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const warnings: string[] = [];
  const opts = { ...deleteOptions(req, r), ...admissionOptions(req, r, warnings) };
  const plan = planList(r, registry);
  const listed = await registry.list(r.type, r.namespace, { revision: plan.revision, after: plan.after, limit: plan.limit, filter: plan.filter });
  const deleted: KObject[] = [];
  for (const item of listed.items) {
    try {
      const result = await registry.delete(r.type, item.metadata.namespace, item.metadata.name!, opts);
      deleted.push(result.object);
    } catch (e) {
      // Deleted meanwhile by someone else: not an error for a collection delete.
      if (!isNotFound(e)) throw e;
    }
  }
  return encodeList({ ...ctx, read: false }, deleted, { resourceVersion: String(registry.env.store.revision) }, 200, warningHeaders(warnings));
}
