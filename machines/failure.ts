// Why an invoked actor failed, as a machine keeps it in its context (`error`) for its host to show.

/** The message of an `xstate.error.actor.*` event's error (or the error itself, as text). */
export function failureMessage(event: unknown): string {
  const error = (event as { error?: unknown }).error;
  return String((error as { message?: string } | undefined)?.message ?? error);
}
