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
 * Strategic merge patch errors the real server does not classify (a list item without its merge
 * key, an unknown `$patch` value). They surface there as a plain Go error, which the apiserver turns
 * into a 500 with an empty reason. Here they are what they are, a request at fault: 422 Invalid with
 * the same Go-formatted message, so clients see a clear 4xx and do not retry a server error.
 */
export const unclassifiedPatchError = (message: string): StatusError =>
  new StatusError(422, 'Invalid', message, { causes: [{ reason: 'FieldValueInvalid', field: 'patch', message }] });

/** 413: a JSON patch longer than the server's operation limit. */
export const tooManyOperations = (limit: number, got: number): StatusError =>
  new StatusError(
    413,
    'RequestEntityTooLarge',
    `Request entity too large: The allowed maximum operations in a JSON patch is ${limit}, got ${got}`,
  );
