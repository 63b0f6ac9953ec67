// The AdmissionReview a webhook is sent and what its answer must be (apiserver
// admission/plugin/webhook/request admissionreview.go). The request is sent in the first version
// the webhook lists that this server speaks (admission.k8s.io/v1 or v1beta1, the same shape); a v1
// answer must be a v1 AdmissionReview with the request's uid, and only a mutating webhook may send
// a patch, always with its patchType. A v1beta1 answer is taken more loosely, as the real server does.
import type { Json } from '../../../api/types.ts';
import { isPlainObject } from '../../../api/types.ts';
import { base64Error } from '../../validation/scalars.ts';
import type { AdmissionAttributes } from '../chain.ts';
import type { Invocation } from './matching.ts';
import { asInvoked, requestFields } from './request.ts';

export const REVIEW_GROUP = 'admission.k8s.io';

/** The version to send, or undefined when the webhook lists none this server speaks. */
export const reviewVersion = (versions: readonly string[]): string | undefined => versions.find((v) => v === 'v1' || v === 'v1beta1');

/** The options object of the request, as meta.k8s.io/v1 CreateOptions, UpdateOptions or DeleteOptions. */
function optionsOf(a: AdmissionAttributes): Record<string, unknown> {
  const o = a.options ?? {};
  const dryRun = a.dryRun ? { dryRun: ['All'] } : {};
  const typeMeta = (kind: string) => ({ kind, apiVersion: 'meta.k8s.io/v1' });
  if (a.operation === 'DELETE') {
    return { ...typeMeta('DeleteOptions'), ...(o.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: o.gracePeriodSeconds } : {}),
      ...(o.preconditions ? { preconditions: o.preconditions } : {}), ...(o.orphanDependents !== undefined ? { orphanDependents: o.orphanDependents } : {}),
      ...(o.propagationPolicy ? { propagationPolicy: o.propagationPolicy } : {}), ...dryRun };
  }
  return { ...typeMeta(a.operation === 'CREATE' ? 'CreateOptions' : 'UpdateOptions'), ...dryRun,
    ...(o.fieldManager ? { fieldManager: o.fieldManager } : {}), ...(o.fieldValidation ? { fieldValidation: o.fieldValidation } : {}) };
}

/** The AdmissionReview sent for `inv`, as JSON text. */
export function reviewRequest(uid: string, version: string, inv: Invocation, a: AdmissionAttributes): string {
  const request = { uid, ...requestFields(inv, a), object: asInvoked(a.object, inv), oldObject: asInvoked(a.old, inv), dryRun: a.dryRun, options: optionsOf(a) };
  return JSON.stringify({ kind: 'AdmissionReview', apiVersion: `${REVIEW_GROUP}/${version}`, request });
}

/** What a valid answer says. */
export interface ReviewResponse {
  allowed: boolean;
  /** The JSON patch's bytes, decoded from base64; empty when there is none. */
  patch: Buffer;
  patchType: string;
  result: unknown;
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

const jsonKind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v);

/** Go's message for a field of the wrong JSON type, as the client's decoding reports it. */
function typeError(field: string, value: unknown, goType: string): Error {
  return new Error(`json: cannot unmarshal ${jsonKind(value)} into Go struct field AdmissionReview.${field} of type ${goType}`);
}

/** `group/version, Kind=kind` as Go prints a GroupVersionKind. */
function gvkString(apiVersion: unknown, kind: unknown): string {
  const av = typeof apiVersion === 'string' ? apiVersion : '';
  const slash = av.indexOf('/');
  return `${slash < 0 ? '' : av.slice(0, slash)}/${slash < 0 ? av : av.slice(slash + 1)}, Kind=${typeof kind === 'string' ? kind : ''}`;
}

/** The response of a decoded answer, its fields' types checked; throws what decoding would. */
function decodeResponse(r: Record<string, unknown>): ReviewResponse {
  const check = (field: string, ok: (v: unknown) => boolean, goType: string) => {
    if (r[field] !== undefined && r[field] !== null && !ok(r[field])) throw typeError(`response.${field}`, r[field], goType);
  };
  const stringList = (v: unknown) => Array.isArray(v) && v.every((s) => typeof s === 'string');
  const stringMap = (v: unknown) => isPlainObject(v) && Object.values(v).every((s) => typeof s === 'string');
  check('uid', (v) => typeof v === 'string', 'types.UID');
  check('allowed', (v) => typeof v === 'boolean', 'bool');
  check('status', isPlainObject, 'v1.Status');
  check('patch', (v) => typeof v === 'string', '[]uint8');
  check('patchType', (v) => typeof v === 'string', 'v1.PatchType');
  check('warnings', stringList, '[]string');
  check('auditAnnotations', stringMap, 'map[string]string');
  const patch = typeof r.patch === 'string' ? r.patch : '';
  const bad = patch ? base64Error(patch) : null;
  if (bad) throw new Error(bad);
  return { allowed: r.allowed === true, patch: Buffer.from(patch, 'base64'), patchType: typeof r.patchType === 'string' ? r.patchType : '',
    result: r.status, warnings: (r.warnings as string[] | undefined) ?? [], auditAnnotations: (r.auditAnnotations as Record<string, string> | undefined) ?? {} };
}

/**
 * Decodes the webhook's answer (`json`, already parsed) as the review of `uid`; throws a
 * ResponseError: 'decode' when the client could not read it, 'invalid' when it is no valid answer.
 */
export function verifyResponse(json: Json, uid: string, version: string, mutating: boolean): ReviewResponse {
  if (!isPlainObject(json)) throw new ResponseError('decode', `json: cannot unmarshal ${jsonKind(json)} into Go value of type v1.AdmissionReview`);
  const raw = json.response;
  if (raw !== undefined && raw !== null && !isPlainObject(raw)) throw new ResponseError('decode', typeError('response', raw, 'v1.AdmissionResponse').message);
  let response: ReviewResponse | undefined;
  try {
    response = isPlainObject(raw) ? decodeResponse(raw) : undefined;
  } catch (e) {
    throw new ResponseError('decode', (e as Error).message);
  }
  if (!response) throw new ResponseError('invalid', 'webhook response was absent');
  if (version === 'v1beta1') return mutating && response.patch.length > 0 ? { ...response, patchType: 'JSONPatch' } : { ...response, patch: Buffer.alloc(0), patchType: '' };
  const invalid = (message: string) => new ResponseError('invalid', message);
  if (isPlainObject(raw) && raw.uid !== uid) throw invalid(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(typeof raw.uid === 'string' ? raw.uid : '')}`);
  if (json.apiVersion !== `${REVIEW_GROUP}/v1` || json.kind !== 'AdmissionReview')
    throw invalid(`expected webhook response of ${REVIEW_GROUP}/v1, Kind=AdmissionReview, got ${gvkString(json.apiVersion, json.kind)}`);
  const hasPatchType = isPlainObject(raw) && raw.patchType !== undefined && raw.patchType !== null;
  if (!mutating) {
    if (response.patch.length > 0) throw invalid('validating webhook may not return response.patch');
    if (hasPatchType) throw invalid('validating webhook may not return response.patchType');
    return response;
  }
  if (response.patch.length > 0 && !hasPatchType) throw invalid('webhook returned response.patch but not response.patchType');
  if (response.patch.length === 0 && hasPatchType) throw invalid('webhook returned response.patchType but not response.patch');
  if (hasPatchType && response.patchType === '') throw invalid('webhook returned invalid response.patchType of ""');
  return response;
}

export class ResponseError extends Error {
  override readonly name = 'ResponseError';
  constructor(readonly kind: 'decode' | 'invalid', message: string) {
    super(message);
  }
}
