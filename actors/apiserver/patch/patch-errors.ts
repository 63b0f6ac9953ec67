// How patch failures reach clients, matching apiserver pkg/endpoints/handlers/patch.go.
import { badRequest, StatusError } from '../../api/status.ts';

/**
 * A patch that decoded but cannot be applied to the object (a JSON patch op on a missing path,
 * a failed `test`). The real server answers NewGenericServerResponse(422, ...), whose message is
 * fixed and drops the reason; kubectl prints "The request is invalid: the server rejected our
 * request due to an error in our request". The reason is kept on `cause` for logs only.
 */
export function patchNotApplicable(reasonForLogs: string): StatusError {
  const e = new StatusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {});
  e.cause = new Error(reasonForLogs);
  return e;
}

/** A patch document that does not decode, or a strategic directive in the wrong format: 400. */
export const malformedPatch = (message: string): StatusError => badRequest(message);

/**
 * Patch errors the real server does not classify (an unknown `$patch` value, a list item without
 * its merge key, a directive of the wrong type): plain Go errors there, which the apiserver answers
 * as a 500 whose Status has no reason (StatusReasonUnknown) and the error's text as its message.
 * Answered the same here, so clients see what a real cluster shows them.
 */
export function unclassifiedPatchError(message: string): StatusError {
  const e = new StatusError(500, '', message);
  delete e.status.reason;
  return e;
}

/** 413: a JSON patch longer than the server's operation limit. */
export const tooManyOperations = (limit: number, got: number): StatusError =>
  new StatusError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: The allowed maximum operations in a JSON patch is ${limit}, got ${got}`,
  );
