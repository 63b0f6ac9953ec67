// PATCH: JSON patch, merge patch, strategic merge patch, and server-side apply.
import { timestamp } from '../../api/env.ts';
import { apiVersionOf } from '../../api/resources.ts';
import { invalid, notFound, StatusError, unsupportedMediaType } from '../../api/status.ts';
import { isPlainObject, type Json, type KObject } from '../../api/types.ts';
import { parseJson, parseYaml } from '../codec/json.ts';
import { patchType, type PatchType } from '../negotiation.ts';
import { applyPatch } from '../patch/apply.ts';
import { applyJsonPatch } from '../patch/json-patch.ts';
import { applyMergePatch } from '../patch/merge-patch.ts';
import { applyStrategicMergePatch } from '../patch/strategic-merge-patch.ts';
import type { BodySchema } from '../registry/kind.ts';
import { kindOf } from '../registry/kinds/index.ts';
import { target, type Registry } from '../registry/registry.ts';
import { asUser, type ApiRequest, type ResourceRequest } from '../request.ts';
import { checkNesting } from '../validation/nesting.ts';
import { checkSchema, modelName } from '../validation/schema.ts';
import { bodyText, checkObject, copiedBody, dryRun, expectOf, fieldValidation, warningHeaders, type FieldValidation } from './decode.ts';
import { encodeObject, type EncodeContext } from './encode.ts';
import { fieldManager } from './field-manager.ts';
import type { ApiResponse } from './response.ts';

function patchInvalid(message: string): StatusError {
  return invalid('', '', '', [{ reason: 'FieldValueInvalid', field: 'patch', message }]);
}

/**
 * Checks a patched object against the schema; problems are 422s on the `patch` field, as real servers
 * answer. `patchProblems` (duplicate keys in the patch itself) come first, as patch.go lists them.
 */
function checkPatched(obj: Json, apiVersion: string, kind: string, mode: FieldValidation, warnings: string[], patchProblems: string[],
  schema: BodySchema | undefined): KObject {
  if (!isPlainObject(obj)) throw patchInvalid('Invalid value: the patched object must be a JSON object');
  if (obj.metadata === null || obj.metadata === undefined)
    throw invalid('', '', '', [{ reason: 'FieldValueRequired', field: 'metadata', message: 'Required value: a patch may not remove metadata' }]);
  checkNesting(obj, 'the patched object');
  const report = schema ? prunedReport(obj, schema) : checkSchema(apiVersion, kind, obj);
  if (report.typeErrors.length > 0) throw patchInvalid(`Invalid value: ${JSON.stringify(JSON.stringify(obj).slice(0, 200))}: ${report.typeErrors.map((c) => c.message).join(', ')}`);
  const problems = [...patchProblems, ...report.unknown.map((f) => `unknown field "${f}"`)];
  if (mode === 'Strict' && problems.length > 0) throw patchInvalid(`Invalid value: ${JSON.stringify(JSON.stringify(obj).slice(0, 200))}: strict decoding error: ${problems.join(', ')}`);
  if (mode === 'Warn') warnings.push(...problems);
  return report.pruned as unknown as KObject;
}

/** A custom object's patched body as its schema reads it: unknown fields pruned and reported, values left to its validation. */
function prunedReport(obj: Record<string, Json>, schema: BodySchema): { typeErrors: { message: string }[]; unknown: string[]; pruned: Json } {
  const { object, unknown } = schema.prune(obj);
  return { typeErrors: [], unknown, pruned: object };
}

function applyNonApply(kind: PatchType, current: KObject, patch: Json, model: string): Json {
  const base = current as unknown as Json;
  if (kind === 'json') return applyJsonPatch(base, patch);
  if (kind === 'merge') return applyMergePatch(base, patch);
  return applyStrategicMergePatch(base, patch, model);
}

export async function handlePatch(req: ApiRequest, r: ResourceRequest, registry: Registry, ctx: EncodeContext): Promise<ApiResponse> {
  const kind = patchType(req.headers['content-type']);
  const q = r.query;
  const mode = fieldValidation(q, 'PatchOptions');
  const dry = dryRun(q.params.getAll('dryRun'), 'PatchOptions');
  const force = q.bool('force');
  const apiVersion = apiVersionOf(r.type);
  const model = modelName(apiVersion, r.type.kind);
  const schema = kindOf(r.type).schema;
  const warnings: string[] = [];
  // Custom resources take no strategic merge patches: nothing says how their lists merge.
  if (kind === 'strategic' && schema && !schema.strategicMerge)
    throw unsupportedMediaType(req.headers['content-type'] ?? '', ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);

  if (kind !== 'apply') {
    if (q.has('force'))
      throw invalid('meta.k8s.io', 'PatchOptions', '', [{ reason: 'FieldValueForbidden', field: 'force', message: 'Forbidden: may not be specified for non-apply patch' }]);
    const manager = fieldManager(q, req.headers['user-agent'], 'PatchOptions');
    const copied = copiedBody(req);
    const { value: patch, duplicates } = copied !== undefined ? { value: copied, duplicates: [] } : parseJson(bodyText(req.body));
    checkNesting(patch, 'the patch');
    // A merge or strategic patch is decoded strictly too (kjson.UnmarshalStrict into a map): its
    // duplicate keys are problems like the patched object's unknown fields.
    const patchProblems = kind === 'json' || mode === 'Ignore' ? [] : duplicates.map((d) => `duplicate field "${d}"`);
    const result = await registry.update(r.type, r.namespace, r.name!, (current) => {
      // Types that create on PUT (leases, events) still need an object to patch.
      if (!current) throw notFound(target(r.type, r.name));
      warnings.length = 0; // a retry after a write race patches again: warn once
      return checkPatched(applyNonApply(kind, current, patch, model), apiVersion, r.type.kind, mode, warnings, patchProblems, schema);
    }, { dryRun: dry, fieldManager: manager, ...(r.subresource ? { subresource: r.subresource } : {}), ...asUser(req) });
    return encodeObject(ctx, result.object, 200, warningHeaders(warnings));
  }

  const manager = fieldManager(q, req.headers['user-agent'], 'PatchOptions', true);
  const parsed = parseYaml(bodyText(req.body));
  checkNesting(parsed.value, 'the applied object');
  if (mode === 'Strict' && parsed.duplicates.length > 0)
    throw new StatusError(400, 'BadRequest', `error strict decoding YAML: ${parsed.duplicates.map((d) => `duplicate field "${d}"`).join(', ')}`);
  const { object: applied, warnings: w } = checkObject({ value: parsed.value, duplicates: mode === 'Warn' ? parsed.duplicates : [] }, expectOf(r.type), mode, undefined, schema);
  warnings.push(...w);
  if (!applied.metadata.name) applied.metadata.name = r.name;
  const now = timestamp(registry.env.clock.now());
  const result = await registry.update(r.type, r.namespace, r.name!,
    (current) => applyPatch(current, applied, { manager, force, model, apiVersion, now, ...(schema ? { shape: schema.shape, statusSubresource: kindOf(r.type).hasStatus } : {}) }),
    { dryRun: dry, fieldManager: manager, applied: true, forceAllowCreate: true, ...(r.subresource ? { subresource: r.subresource } : {}), ...asUser(req) });
  return encodeObject(ctx, result.object, result.created ? 201 : 200, warningHeaders(warnings));
}
