// What the real controllers' pod control (controller_utils.go RealPodControl) records on the owner
// of the pods it creates and deletes: the ReplicaSet or DaemonSet, by reference.
import { isNotFound, StatusError } from '../api/status.ts';
import type { EventRecorder, ObjectReference } from '../client/events/index.ts';

/** A create refused because the namespace is going away: the real pod control records nothing for it. */
const namespaceTerminating = (e: unknown) => e instanceof StatusError && (e.status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');

/** The outcome of creating a pod of `owner`: SuccessfulCreate with the pod's name, or FailedCreate with the error. */
export function podCreated(events: EventRecorder, owner: ObjectReference, outcome: { name: string } | { error: unknown }): void {
  if ('name' in outcome) return events.event(owner, 'Normal', 'SuccessfulCreate', `Created pod: ${outcome.name}`);
  if (!namespaceTerminating(outcome.error)) events.event(owner, 'Warning', 'FailedCreate', `Error creating: ${(outcome.error as Error).message}`);
}

/** The outcome of deleting a pod of `owner`: SuccessfulDelete, or FailedDelete unless the pod was gone already. */
export function podDeleted(events: EventRecorder, owner: ObjectReference, name: string, error?: unknown): void {
  if (error === undefined) return events.event(owner, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
  if (!isNotFound(error)) events.event(owner, 'Warning', 'FailedDelete', `Error deleting: ${(error as Error).message}`);
}
