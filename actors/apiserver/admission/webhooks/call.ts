// One webhook call, from the invocation to a valid answer (the callHook of the real mutating and
// validating dispatchers): the dry-run rule, the review in a version the webhook speaks, a uid from
// the seeded random source, the POST, and the answer read and verified. Every failure to get a
// valid answer is a WebhookCallError, for the webhook's failurePolicy to decide; whether the answer
// allows is the caller's to read.
import { uuid, type Random } from '../../../api/env.ts';
import type { Json } from '../../../api/types.ts';
import { isPlainObject } from '../../../api/types.ts';
import type { AdmissionAttributes } from '../chain.ts';
import { CallFailure, postReview, type Answer } from './client.ts';
import { dryRunUnsupported, WebhookCallError } from './errors.ts';
import type { Invocation } from './matching.ts';
import { ResponseError, reviewRequest, reviewVersion, verifyResponse, type ReviewResponse } from './review.ts';
import type { StoreReader } from './service-resolver.ts';

export interface CallDeps {
  /** Where review uids come from. */
  random: Random;
  /** Where service references are resolved. */
  read: StoreReader;
}

const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];
const MAX_UNSTRUCTURED_TEXT = 2048;

/**
 * client-go's message for a non-2xx answer: a failed Status's own message, else the generic one
 * for its code (apimachinery NewGenericServerResponse), quoting a text body.
 */
export function serverResponseMessage(answer: Answer): string {
  try {
    const doc = JSON.parse(answer.text) as unknown;
    if (isPlainObject(doc) && doc.kind === 'Status' && doc.status === 'Failure' && typeof doc.message === 'string') return doc.message;
  } catch { /* not a Status */ }
  const text = /^text\//i.test(answer.contentType.trim()) ? answer.text.slice(0, MAX_UNSTRUCTURED_TEXT).trim() : 'unknown';
  switch (answer.code) {
    case 409: return 'the server reported a conflict';
    case 404: return 'the server could not find the requested resource';
    case 400: return 'the server rejected our request for an unknown reason';
    case 401: return 'the server has asked for the client to provide credentials';
    case 403: case 415: return text;
    case 406: return text === '' || text === 'unknown' ? 'the server was unable to respond with a content type that the client supports' : text;
    case 405: return 'the server does not allow this method on the requested resource';
    case 422: return 'the server rejected our request due to an error in our request';
    case 503: return 'the server is currently unable to handle the request';
    case 504: return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    case 429: return 'the server has received too many requests and has asked us to try again later';
    default: return answer.code >= 500 ? `an error on the server (${JSON.stringify(text)}) has prevented the request from succeeding`
      : `the server responded with the status code ${answer.code} but did not return more information`;
  }
}

/** Calls the webhook of `inv` about the request; rejects with a WebhookCallError, or the 400 of a dry run it may not see. */
export async function callWebhook(inv: Invocation, a: AdmissionAttributes, mutating: boolean, deps: CallDeps): Promise<ReviewResponse> {
  const hook = inv.hook;
  if (a.dryRun && !NO_SIDE_EFFECTS.includes(hook.sideEffects)) throw dryRunUnsupported(hook.name);
  const version = reviewVersion(hook.admissionReviewVersions);
  const failed = (reason: string) => new WebhookCallError(hook.name, reason);
  if (!version) throw failed('could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)');
  const uid = uuid(deps.random);
  let answer: Answer;
  try {
    answer = await postReview(hook, reviewRequest(uid, version, inv, a), deps.read);
  } catch (e) {
    if (!(e instanceof CallFailure)) throw e;
    throw failed(e.stage === 'client' ? `could not get REST client: ${e.message}` : `failed to call webhook: ${e.message}`);
  }
  if (answer.code < 200 || answer.code > 206) throw failed(`failed to call webhook: ${serverResponseMessage(answer)}`);
  let json: Json;
  try {
    json = JSON.parse(answer.text) as Json;
  } catch (e) {
    throw failed(`failed to call webhook: couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
  try {
    return verifyResponse(json, uid, version, mutating);
  } catch (e) {
    if (!(e instanceof ResponseError)) throw e;
    throw failed(e.kind === 'decode' ? `failed to call webhook: ${e.message}` : `received invalid webhook response: ${e.message}`);
  }
}
