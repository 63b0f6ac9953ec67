// Server-side apply and field ownership: the `application/apply-patch+yaml` patch type, and the
// managedFields bookkeeping every other write does (structured-merge-diff merge/update.go as
// wrapped by apimachinery's managedfields FieldManager).
import { badRequest, StatusError } from '../../api/status.ts';
import type { Json, KObject } from '../../api/types.ts';
import { mergeApplied, removePaths } from './apply-merge.ts';
import { FieldSet, pathString, type Path } from './field-set.ts';
import { isObject, jsonEqual, type JsonObject } from './json-value.ts';
import {
  decodeManagers,
  describeManager,
  encodeManagers,
  isResetRequest,
  managerIdentity,
  withoutSystemFields,
  type Manager,
  type Managers,
} from './managed-fields.ts';
import { compareObjects, fieldSetOf, type Changes } from './object-fields.ts';
import { unclassifiedPatchError } from './patch-errors.ts';
import { fieldShape, rootShape, type Shape } from './shape.ts';

export interface ApplyOptions {
  /** The `fieldManager` query parameter. */
  manager: string;
  /** The `force` query parameter: take over conflicting fields instead of failing. */
  force: boolean;
  /** Schema model of the kind (`V1Pod`); unknown models are merged untyped. */
  model: string;
  /** The resource's version (`v1`, `apps/v1`); the applied object must use it. */
  apiVersion: string;
  /** RFC 3339 time recorded on the manager's entry. */
  now: string;
  /** When given, the applied object's kind must equal it. */
  kind?: string;
  /** A custom resource's shape (from its schema), used instead of `model`'s. */
  shape?: Shape;
  /** With `shape`: whether the resource has a status subresource, whose fields apply then leaves alone. */
  statusSubresource?: boolean;
}

export interface UpdateOptions {
  manager: string;
  model: string;
  apiVersion: string;
  now: string;
  /** `status`, `scale`...: the entry is recorded for that subresource. */
  subresource?: string;
  /** A custom resource's shape (from its schema), used instead of `model`'s. */
  shape?: Shape;
  /** With `shape`: whether the resource has a status subresource. */
  statusSubresource?: boolean;
}

/**
 * Server-side apply of `applied` onto `live` (undefined: the object is created). Returns the new
 * object with `metadata.managedFields` updated; inputs are not changed.
 *
 * Fields the manager applied last time and omits now are removed unless another manager owns
 * them. A change to a field another manager owns fails with 409 Conflict (causes of reason
 * FieldManagerConflict), unless `force`, which moves the field to this manager.
 * 400 when the applied object carries managedFields or is of another version or kind.
 */
export function applyPatch(live: KObject | undefined, applied: KObject, opts: ApplyOptions): KObject {
  checkApplied(applied, opts);
  const shape = opts.shape ?? rootShape(opts.model);
  const managers = live ? decodeManagers(live.metadata?.managedFields, true) : new Map<string, Manager>();
  if (!managers) throw unclassifiedPatchError('failed to decode managed fields: invalid managedFields entries');
  const before = bodyOf(live);
  const config = bodyOf(applied);
  const self = managerIdentity({ manager: opts.manager, operation: 'Apply', apiVersion: opts.apiVersion });
  const previous = managers.get(self);
  const others = [...managers].filter(([id]) => id !== self);
  const configFields = fieldSetOf(config, shape);

  const merged = (mergeApplied(before, config, shape) ?? {}) as JsonObject;
  if (previous) {
    const owned = others.reduce((all, [, m]) => all.union(m.fields), configFields);
    removePaths(merged, unownedPaths(previous.fields, owned), shape);
  }

  const ignored = ignoredFields(opts);
  const changes = withoutIgnored(compareObjects(before, merged, shape), ignored);
  const touched = changes.added.union(changes.modified);
  const conflicts = others.map(([, m]) => ({ m, fields: m.fields.intersection(touched) })).filter((c) => !c.fields.isEmpty());
  if (conflicts.length > 0 && !opts.force) throw applyConflict(conflicts);

  const next = withoutFields(others, touched, changes.removed);
  const changed = !jsonEqual(before, merged);
  next.set(self, {
    manager: opts.manager,
    operation: 'Apply',
    apiVersion: opts.apiVersion,
    time: changed || !previous?.time ? opts.now : previous.time,
    fields: withoutSystemFields(configFields.withoutSubtrees(ignored)),
  });
  return withManagers(merged, next);
}

/**
 * Records a non-apply write (create, update, patch) by `opts.manager`: the fields it added or
 * changed become its own (operation Update) and are taken from every other manager, so a later
 * apply that changes them conflicts. Returns `newObj` with managedFields; inputs are not changed.
 * Managed fields sent in `newObj` replace the stored ones (`[]` clears them), except through a
 * subresource.
 */
export function recordUpdate(oldObj: KObject | undefined, newObj: KObject, opts: UpdateOptions): KObject {
  const shape = opts.shape ?? rootShape(opts.model);
  const managers = startingManagers(oldObj, newObj, opts.subresource);
  const after = bodyOf(newObj);
  const changes = withoutIgnored(compareObjects(bodyOf(oldObj), after, shape), ignoredFields(opts, opts.subresource));
  const touched = changes.added.union(changes.modified);
  const next = withoutFields([...managers], touched, changes.removed);
  const mine = withoutSystemFields(touched.difference(changes.removed));
  if (!mine.isEmpty()) {
    const m: Manager = { manager: opts.manager, operation: 'Update', apiVersion: opts.apiVersion, time: opts.now, fields: mine };
    if (opts.subresource) m.subresource = opts.subresource;
    const id = managerIdentity(m);
    const previous = next.get(id);
    if (previous) m.fields = previous.fields.union(mine);
    // Updating fields it owns already leaves a manager's set as it was: keep that set, and with it
    // the FieldsV1 tree stored for it (a lease renewal then encodes nothing but the time).
    const before = managers.get(id);
    if (before && m.fields.equals(before.fields)) m.fields = before.fields;
    next.set(id, m);
  }
  return withManagers(after, next);
}

function checkApplied(applied: KObject, opts: ApplyOptions): void {
  const managedFields = applied.metadata?.managedFields;
  if (managedFields !== undefined && managedFields !== null) throw badRequest('metadata.managedFields must be nil');
  if (applied.apiVersion !== opts.apiVersion || (opts.kind !== undefined && applied.kind !== opts.kind)) {
    const [group, version] = (applied.apiVersion ?? '').includes('/') ? (applied.apiVersion ?? '').split('/', 2) : ['', applied.apiVersion ?? ''];
    throw badRequest(`invalid object type: ${group}/${version}, Kind=${applied.kind ?? ''}`);
  }
}

function startingManagers(oldObj: KObject | undefined, newObj: KObject, subresource?: string): Managers {
  const storedEntries = oldObj?.metadata?.managedFields;
  const stored = (): Managers => decodeManagers(storedEntries, true) ?? new Map();
  if (subresource) return stored();
  const requested = newObj.metadata?.managedFields;
  if (isResetRequest(requested)) return new Map();
  // Clients send back the entries they read: equal ones are the stored ones, decoded already.
  if (requested !== undefined && storedEntries !== undefined && jsonEqual(requested as Json, storedEntries as unknown as Json)) return stored();
  const sent = decodeManagers(requested);
  return sent && sent.size > 0 ? sent : stored();
}

// Paths the manager owned and no longer applies that nobody else owns: the outermost ones.
function unownedPaths(last: FieldSet, owned: FieldSet): Path[] {
  const doomed: Path[] = [];
  for (const node of last.nodes()) {
    if (node.length === 1 && ['f:apiVersion', 'f:kind', 'f:metadata'].includes(node[0])) continue;
    if (owned.covers(node) || doomed.some((d) => d.every((e, i) => node[i] === e))) continue;
    doomed.push(node);
  }
  return doomed;
}

// Fields the resource's strategy resets, which no manager owns through this endpoint: `status`
// through the main resource, `spec` through the status subresource.
function ignoredFields(opts: { model: string; shape?: Shape; statusSubresource?: boolean }, subresource?: string): string[] {
  if (subresource === 'status') return ['f:spec'];
  if (subresource) return [];
  if (opts.shape) return opts.statusSubresource ? ['f:status'] : [];
  return fieldShape(rootShape(opts.model), 'status').kind === 'untyped' ? [] : ['f:status'];
}

function withoutIgnored(c: Changes, ignored: string[]): Changes {
  return { added: c.added.withoutSubtrees(ignored), modified: c.modified.withoutSubtrees(ignored), removed: c.removed.withoutSubtrees(ignored) };
}

function withoutFields(managers: [string, Manager][], ...sets: FieldSet[]): Managers {
  const next: Managers = new Map();
  for (const [id, m] of managers) {
    const fields = sets.reduce((f, s) => f.difference(s), m.fields);
    if (!fields.isEmpty()) next.set(id, { ...m, fields });
  }
  return next;
}

/**
 * The object without managedFields ({} for an absent object): a new top level and metadata, the
 * rest shared with `obj`. Nothing below writes into it except `metadata.managedFields`, and stored
 * objects are never modified, so versions may share unchanged subtrees.
 */
function bodyOf(obj: KObject | undefined): JsonObject {
  if (!obj) return {};
  const body = { ...(obj as unknown as JsonObject) };
  if (isObject(body.metadata)) {
    const { managedFields: _, ...metadata } = body.metadata;
    body.metadata = metadata;
  }
  return body;
}

function withManagers(body: JsonObject, managers: Managers): KObject {
  const metadata: JsonObject = isObject(body.metadata) ? body.metadata : {};
  body.metadata = metadata;
  const entries = encodeManagers(managers);
  if (entries) metadata.managedFields = entries as unknown as JsonObject[];
  return body as unknown as KObject;
}

// 409 as apimachinery's NewConflictError words it; causes carry reason FieldManagerConflict.
function applyConflict(conflicts: { m: Manager; fields: FieldSet }[]): StatusError {
  const byManager = [...conflicts].sort((a, b) => (managerIdentity(a.m) < managerIdentity(b.m) ? -1 : 1));
  const list = byManager.flatMap((c) => c.fields.paths().map((p) => ({ m: c.m, field: pathString(p) })));
  const causes = list.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describeManager(c.m)}`, field: c.field }));
  const message =
    list.length === 1
      ? `Apply failed with 1 conflict: conflict with ${describeManager(list[0].m)}: ${list[0].field}`
      : `Apply failed with ${list.length} conflicts: ${byManager
          .flatMap((c) => [`conflicts with ${describeManager(c.m)}:`, ...c.fields.paths().map((p) => `- ${pathString(p)}`)])
          .join('\n')}`;
  return new StatusError(409, 'Conflict', message, { causes });
}
