// The `scale` subresource (GET, PUT, PATCH): an autoscaling/v1 Scale view of any object whose
// kind says where its replicas live (registry/kind.ts ScalePaths), as the real ScaleREST of
// Deployments, ReplicaSets, StatefulSets and custom resources serves it. A write changes the
// object's desired replicas through its kind's update rules (a new generation, validation,
// admission), at the Scale's resourceVersion when it names one.
import { invalid, StatusError } from '../../api/status.ts';
import { isPlainObject, type Json, type KObject } from '../../api/types.ts';
import { bodyText, checkObject, dryRun, fieldValidation, parseBody, warningHeaders } from './decode.ts';
import { encodeObject, type EncodeContext } from './encode.ts';
import { fieldManager } from './field-manager.ts';
import type { ApiResponse } from './response.ts';
import { parseJson } from '../codec/json.ts';
import { patchType } from '../negotiation.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.ts';
import type { ScalePaths } from '../registry/kind.ts';
import { kindOf } from '../registry/kinds/index.ts';
import type { Registry } from '../registry/registry.ts';
import { admissionOptions, type ApiRequest, type ResourceRequest } from '../request.ts';
import { checkNesting } from '../validation/nesting.ts';

const SCALE = { apiVersion: 'autoscaling/v1', kind: 'Scale', group: 'autoscaling', version: 'v1' };

/** `.spec.replicas` → ['spec', 'replicas']. */
const segments = (path: string): string[] => path.split('.').filter((s) => s !== '');

function read(obj: unknown, path: string): unknown {
  let v = obj;
  for (const key of segments(path)) v = isPlainObject(v) ? v[key] : undefined;
  return v;
}

/** `obj` with the value at `path` replaced, every object on the way copied (the stored one is shared). */
function written(obj: KObject, path: string, value: number): KObject {
  const keys = segments(path);
  const set = (o: Record<string, unknown>, i: number): Record<string, unknown> => {
    const key = keys[i]!;
    if (i === keys.length - 1) return { ...o, [key]: value };
    const inner = isPlainObject(o[key]) ? (o[key] as Record<string, unknown>) : {};
    return { ...o, [key]: set(inner, i + 1) };
  };
  return set(obj as Record<string, unknown>, 0) as KObject;
}

/** The Scale of `obj`, as scaleFromDeployment and the custom resource ScaleREST make it. */
function scaleOf(obj: KObject, paths: ScalePaths): KObject {
  const { name, namespace, uid, resourceVersion, creationTimestamp } = obj.metadata;
  const specReplicas = read(obj, paths.specReplicasPath);
  const statusReplicas = read(obj, paths.statusReplicasPath);
  const selector = paths.selector ? paths.selector(obj) : paths.labelSelectorPath ? read(obj, paths.labelSelectorPath) : undefined;
  return {
    kind: 'Scale', apiVersion: 'autoscaling/v1',
    metadata: { name, ...(namespace !== undefined ? { namespace } : {}), uid, resourceVersion, creationTimestamp },
    spec: { ...(typeof specReplicas === 'number' ? { replicas: specReplicas } : {}) },
    status: { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0, ...(typeof selector === 'string' && selector ? { selector } : {}) },
  };
}

/** A Scale asks for replicas that are a whole number, not negative (ValidateScale). */
function checkedReplicas(scale: KObject): number {
  const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas ?? 0;
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0)
    throw invalid('autoscaling', 'Scale', scale.metadata.name ?? '', [{ reason: 'FieldValueInvalid', field: 'spec.replicas',
      message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0` }]);
  return replicas;
}

function applyScalePatch(req: ApiRequest, scale: KObject): KObject {
  const type = patchType(req.headers['content-type']);
  const { value: patch } = parseJson(bodyText(req.body));
  checkNesting(patch, 'the patch');
  const base = scale as unknown as Json;
  if (type === 'apply') throw new StatusError(415, 'UnsupportedMediaType', 'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json');
  const patched = type === 'json' ? applyJsonPatch(base, patch) : type === 'merge' ? applyMergePatch(base, patch) : applyStrategicMergePatch(base, patch, 'V1Scale');
  if (!isPlainObject(patched)) throw invalid('autoscaling', 'Scale', scale.metadata.name ?? '', [{ reason: 'FieldValueInvalid', field: 'patch', message: 'Invalid value: the patched object must be a JSON object' }]);
  return patched as unknown as KObject;
}

export async function handleScale(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const paths = kindOf(r.type).scale!;
  // A Scale has no Table form: a request for one is answered in JSON, as for any kind without a printer.
  const scaleCtx = { ...ctx, read: false };
  if (r.verb === 'get') return encodeObject(scaleCtx, scaleOf(await registry.get(r.type, r.namespace, r.name!), paths));
  const optionsKind = r.verb === 'patch' ? 'PatchOptions' : 'UpdateOptions';
  const warnings: string[] = [];
  const opts = { dryRun: dryRun(r.query.params.getAll('dryRun'), optionsKind), fieldManager: fieldManager(r.query, req.headers['user-agent'], optionsKind),
    ...admissionOptions(req, r, warnings) };
  const body = r.verb === 'update' ? checkObject(parseBody(req), SCALE, fieldValidation(r.query, optionsKind)).object : undefined;
  const result = await registry.update(r.type, r.namespace, r.name!, (current) => {
    if (!current) throw new Error('the scale subresource never creates');
    const scale = body ?? applyScalePatch(req, scaleOf(current, paths));
    const replicas = checkedReplicas(scale);
    const next = written(current, paths.specReplicasPath, replicas);
    // A Scale naming a resourceVersion is a precondition on the object's (the registry refuses a stale one).
    const rv = scale.metadata?.resourceVersion;
    return { ...next, metadata: { ...next.metadata, resourceVersion: rv || undefined } };
  }, opts);
  return encodeObject(scaleCtx, scaleOf(result.object, paths), 200, warningHeaders(warnings));
}
