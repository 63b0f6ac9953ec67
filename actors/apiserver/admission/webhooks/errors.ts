// How webhook outcomes reach clients, as apiserver's webhook errors package and
// pkg/util/webhook error.go word them:
// - a failure to talk to the webhook (unreachable, too slow, an answer that is not a valid review)
//   is a WebhookCallError; the webhook's failurePolicy decides: Ignore goes on as if it allowed,
//   Fail answers 500 "Internal error occurred: failed calling webhook ...";
// - a webhook that answers allowed: false denies with its own Status, 400 at least, the message
//   prefixed with `admission webhook "<name>" denied the request`;
// - a dry run reaching a webhook with side effects is a 400, whatever the failurePolicy.
import { internal, StatusError, type Status } from '../../../api/status.ts';
import { isPlainObject } from '../../../api/types.ts';

/** A failure to call a webhook (ErrCallingWebhook); `reason` is what Go's error chain would say. */
export class WebhookCallError extends Error {
  override readonly name = 'WebhookCallError';
  constructor(readonly webhook: string, reason: string) {
    super(`failed calling webhook "${webhook}": ${reason}`);
  }
}

/** What failurePolicy Fail answers a call failure with. */
export const failedClosed = (e: WebhookCallError): StatusError => internal(e.message);

/**
 * The denial of webhook `name` with the Status it answered (webhookerrors.ToStatusErr): its code
 * when 400 or more (else 400), its reason and details, its message after the webhook's name.
 */
export function denied(name: string, result: unknown): StatusError {
  const r = isPlainObject(result) ? result : {};
  const deniedBy = `admission webhook ${JSON.stringify(name)} denied the request`;
  const message = typeof r.message === 'string' && r.message ? `${deniedBy}: ${r.message}`
    : typeof r.reason === 'string' && r.reason ? `${deniedBy}: ${r.reason}` : `${deniedBy} without explanation`;
  const code = typeof r.code === 'number' && Number.isInteger(r.code) && r.code >= 400 ? r.code : 400;
  const e = new StatusError(code, typeof r.reason === 'string' ? r.reason : '', message, isPlainObject(r.details) ? r.details as Status['details'] : undefined,
    isPlainObject(r.metadata) ? r.metadata as Status['metadata'] : {});
  // A Status without a reason leaves the field out, and kubectl then prints no "(Reason)".
  if (!e.status.reason) delete e.status.reason;
  return e;
}

export const dryRunUnsupported = (name: string): StatusError =>
  new StatusError(400, 'BadRequest', `admission webhook ${JSON.stringify(name)} does not support dry run`);

/** A mutating webhook's patch for a request with no object to patch (a DELETE). */
export const cannotPatch = (name: string): StatusError =>
  internal(`admission webhook ${JSON.stringify(name)} attempted to modify the object, which is not supported for this operation`);
