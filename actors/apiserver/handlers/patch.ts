// PATCH: JSON patch, merge patch, strategic merge patch, and server-side apply. Each result is
// what the real PatchResource stores: the patched JSON decoded as the kind (unknown fields pruned,
// nulls gone as Go decodes them), its name checked against the URL, then validated whole, so a
// patch that changes nothing but JSON spelling changes nothing stored.
import { timestamp } from '../../api/env.ts';
import { apiVersionOf, type ResourceType } from '../../api/resources.ts';
import { badRequest, invalid, notFound, StatusError, unsupportedMediaType } from '../../api/status.ts';
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
import { admissionOptions, type ApiRequest, type ResourceRequest } from '../request.ts';
import { checkNesting } from '../validation/nesting.ts';
import { checkSchema, modelName, type SchemaReport } from '../validation/schema.ts';
import { bodyText, checkObject, copiedBody, dryRun, expectOf, fieldValidation, requiredProblems, warningHeaders, type FieldValidation } from './decode.ts';
import { encodeObject, type EncodeContext } from './encode.ts';
import { fieldManager } from './field-manager.ts';
import type { ApiResponse } from './response.ts';

function patchInvalid(message: string): StatusError {
  return invalid('', '', '', [{ reason: 'FieldValueInvalid', field: 'patch', message }]);
}

/** What decoding a patched object found: custom objects have no required fields here (their schema's validation has them). */
type Decoded = Pick<SchemaReport, 'pruned' | 'missing'>;

/**
 * Decodes a patched object as the kind (a custom object as its schema prunes it); problems are
 * 422s on the `patch` field, as real servers answer. `patchProblems` (duplicate keys in the patch
 * itself) come first, as patch.go lists them.
 */
function decodePatched(obj: Json, type: ResourceType, schema: BodySchema | undefined, mode: FieldValidation, warnings: string[], patchProblems: string[]): Decoded {
  if (!isPlainObject(obj)) throw patchInvalid('Invalid value: the patched object must be a JSON object');
  checkNesting(obj, 'the patched object');
  const report = schema ? prunedReport(obj, schema) : checkSchema(apiVersionOf(type), type.kind, obj);
  if (report.typeErrors.length > 0) throw patchInvalid(`Invalid value: ${JSON.stringify(JSON.stringify(obj).slice(0, 200))}: ${report.typeErrors.map((c) => c.message).join(', ')}`);
  const problems = [...patchProblems, ...report.unknown.map((f) => `unknown field "${f}"`)];
  if (mode === 'Strict' && problems.length > 0) throw patchInvalid(`Invalid value: ${JSON.stringify(JSON.stringify(obj).slice(0, 200))}: strict decoding error: ${problems.join(', ')}`);
  if (mode === 'Warn') warnings.push(...problems);
  return report;
}

/** A custom object's patched body as its schema reads it: unknown fields pruned and reported, values left to its validation. */
function prunedReport(obj: Record<string, Json>, schema: BodySchema): Pick<SchemaReport, 'typeErrors' | 'unknown' | 'pruned' | 'missing'> {
  const { object, unknown } = schema.prune(obj);
  return { typeErrors: [], unknown, pruned: object, missing: [] };
}

/**
 * What the real patcher checks of the result before admission (rest.EnsureObjectNamespaceMatches-
 * RequestNamespace, then checkName), and the required fields the kind's validation then asks for:
 * a patch that empties metadata (`{"metadata":{"$patch":"delete"}}`) is refused, not stored nameless.
 */
function checkResult(report: Decoded, r: ResourceRequest): KObject {
  const obj = report.pruned as unknown as KObject;
  const meta = (isPlainObject(obj.metadata) ? obj.metadata : {}) as KObject['metadata'];
  const namespace = r.type.scope === 'Namespaced' ? r.namespace ?? '' : '';
  if (namespace && meta.namespace && meta.namespace !== namespace)
    throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (!meta.name) throw badRequest(`the name of the object (${r.name} based on URL) was undeterminable: name must be provided`);
  if (meta.name !== r.name) throw badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${r.name})`);
  const missing = requiredProblems(report as SchemaReport, r.type.group);
  if (missing.length > 0) throw invalid(r.type.group, r.type.kind, meta.name, missing);
  return obj;
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
  const subresource = r.subresource ? { subresource: r.subresource } : {};
  const model = modelName(apiVersionOf(r.type), r.type.kind);
  const schema = kindOf(r.type).schema;
  const warnings: string[] = [];
  // Custom resources take no strategic merge patches: nothing says how their lists merge.
  if (kind === 'strategic' && schema && !schema.strategicMerge)
    throw unsupportedMediaType('', ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);

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
      return checkResult(decodePatched(applyNonApply(kind, current, patch, model), r.type, schema, mode, warnings, patchProblems), r);
    }, { dryRun: dry, fieldManager: manager, ...subresource, ...admissionOptions(req, r, warnings) });
    return encodeObject(ctx, result.object, 200, warningHeaders(warnings));
  }

  const manager = fieldManager(q, req.headers['user-agent'], 'PatchOptions', true);
  const parsed = parseYaml(bodyText(req.body));
  checkNesting(parsed.value, 'the applied object');
  if (mode === 'Strict' && parsed.duplicates.length > 0)
    throw new StatusError(400, 'BadRequest', `error strict decoding YAML: ${parsed.duplicates.map((d) => `duplicate field "${d}"`).join(', ')}`);
  // The configuration is only type-checked: what it leaves out, the live object may hold.
  const { object: applied, warnings: w } = checkObject({ value: parsed.value, duplicates: mode === 'Warn' ? parsed.duplicates : [] }, expectOf(r.type), mode,
    undefined, schema, { applyConfiguration: true });
  warnings.push(...w);
  const now = timestamp(registry.env.clock.now());
  const options = { manager, force: q.bool('force'), model, apiVersion: apiVersionOf(r.type), now,
    ...(schema ? { shape: schema.shape, statusSubresource: kindOf(r.type).hasStatus } : {}) };
  const result = await registry.update(r.type, r.namespace, r.name!,
    (current) => checkResult(decodePatched(applyPatch(current, applied, options) as unknown as Json, r.type, schema, 'Ignore', [], []), r),
    { dryRun: dry, fieldManager: manager, applied: true, forceAllowCreate: true, ...subresource, ...admissionOptions(req, r, warnings) });
  return encodeObject(ctx, result.object, result.created ? 201 : 200, warningHeaders(warnings));
}
