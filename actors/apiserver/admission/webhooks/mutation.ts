// A mutating webhook's JSON patch, applied as the real mutating dispatcher applies it: to the
// object as JSON, then decoded back into the kind (fields it does not have dropped, fields of the
// wrong type a 500; a custom object pruned by its schema) and defaulted again, as the scheme's
// defaulting runs on every patched object.
// A patch that does not decode is a call failure (failurePolicy decides); one that cannot apply
// is a 500 whatever the policy.
import { apiVersionOf } from '../../../api/resources.ts';
import { internal, StatusError } from '../../../api/status.ts';
import type { Json, KObject } from '../../../api/types.ts';
import { isPlainObject } from '../../../api/types.ts';
import { applyJsonPatch } from '../../patch/json-patch.ts';
import { goJsonKind } from '../../patch/json-value.ts';
import { deepEqual } from '../../registry/deep-equal.ts';
import type { BodySchema } from '../../registry/kind.ts';
import { kindOf } from '../../registry/kinds/index.ts';
import { checkSchema } from '../../validation/schema.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { cannotPatch, WebhookCallError } from './errors.ts';
import type { ReviewResponse } from './review.ts';

function decodePatch(name: string, bytes: Buffer): Json[] {
  const undecodable = (why: string) => new WebhookCallError(name, `received undecodable patch in webhook response: ${why}`);
  let ops: Json;
  try {
    ops = JSON.parse(bytes.toString('utf8')) as Json;
  } catch (e) {
    throw undecodable((e as Error).message);
  }
  if (ops === null) return [];
  if (!Array.isArray(ops)) throw undecodable(`json: cannot unmarshal ${goJsonKind(ops)} into Go value of type jsonpatch.Patch`);
  const bad = ops.find((op) => op !== null && !isPlainObject(op));
  if (bad !== undefined) throw undecodable(`json: cannot unmarshal ${goJsonKind(bad)} into Go value of type jsonpatch.Operation`);
  return ops;
}

/** The patched object as its kind reads it: a custom object pruned by its schema, a built-in one by its type (a wrong type is a 500). */
function decode(a: AdmissionAttributes, patched: Record<string, Json>, schema: BodySchema | undefined): KObject {
  if (schema) return schema.prune(patched).object as unknown as KObject;
  const report = checkSchema(String(patched.apiVersion), a.type.kind, patched);
  if (report.typeErrors.length > 0) throw internal(report.typeErrors.map((c) => c.message).join(', '));
  return report.pruned as unknown as KObject;
}

/** Applies the webhook's patch to `a.object` in place; answers whether the object changed. */
export function applyWebhookPatch(name: string, response: ReviewResponse, a: AdmissionAttributes): boolean {
  if (response.patch.length === 0) return false;
  const ops = decodePatch(name, response.patch);
  if (ops.length === 0) return false;
  const object = a.object;
  if (!object) throw cannotPatch(name);
  if (response.patchType !== 'JSONPatch') throw new WebhookCallError(name, `unsupported patch type ${JSON.stringify(response.patchType)}`);
  let patched: Json;
  try {
    patched = applyJsonPatch(object as unknown as Json, ops);
  } catch (e) {
    if (e instanceof StatusError) throw internal(e.cause instanceof Error ? e.cause.message : e.message);
    throw e;
  }
  if (!isPlainObject(patched)) throw internal(`json: cannot unmarshal ${goJsonKind(patched)} into Go value of type ${a.type.kind}`);
  const kind = kindOf(a.type);
  // The webhook saw the object at its invocation's version; it goes back as it came (a custom object at its storage version).
  const decoded = decode(a, { ...patched, apiVersion: object.apiVersion ?? apiVersionOf(a.type), kind: a.type.kind }, kind.schema);
  if (!isPlainObject(decoded.metadata)) decoded.metadata = {};
  kind.defaults(decoded);
  const changed = !deepEqual(object, decoded);
  for (const key of Object.keys(object)) delete (object as unknown as Record<string, unknown>)[key];
  Object.assign(object, decoded);
  return changed;
}
