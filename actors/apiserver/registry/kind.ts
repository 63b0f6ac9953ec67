// A kind's rules: everything the generic registry, the Table encoder and the delete handler need
// to know about one stored kind, in the place that kind is described (kinds/<kind>.ts), as the
// real server's per-kind strategy does (PrepareForCreate, PrepareForUpdate, Validate,
// ValidateUpdate, the TableConvertor, CheckGracefulDelete). The registry names no kind: it asks
// `kindOf(type)` (kinds/index.ts).
import type { StatusCause } from '../../api/status.ts';
import type { ResourceType } from '../../api/resources.ts';
import type { Json, KObject } from '../../api/types.ts';
import type { Shape } from '../patch/shape.ts';
import type { NameRule } from '../validation/names.ts';
import { deepEqual } from './deep-equal.ts';
import type { Allocator, AllocatorSettings } from './allocator.ts';
import type { Printer } from './tables-format.ts';

/**
 * Where a kind with a `scale` subresource keeps its replicas: JSON paths such as `.spec.replicas`
 * (a CustomResourceDefinition's subresources.scale). `labelSelectorPath` names a string field
 * holding the selector in its text form; without one the selector is the empty string.
 */
export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /** How a built-in kind states its selector (a LabelSelector object as text), instead of a path. */
  selector?(obj: KObject): string;
}

/**
 * How a kind without a client model (a custom resource) reads what clients send: its schema
 * prunes unknown fields (reporting them for fieldValidation), gives server-side apply its shape,
 * and may refuse strategic merge patches.
 */
export interface BodySchema {
  prune(body: Record<string, Json>): { object: Record<string, Json>; unknown: string[] };
  shape: Shape;
  strategicMerge: boolean;
}

/**
 * A kind served as another representation of a stored resource (events.k8s.io/v1 Events are core
 * v1 Events): objects live as `of`'s, converted on the way in and out.
 */
export interface KindView {
  of: ResourceType;
  toStored(obj: KObject): KObject;
  fromStored(obj: KObject): KObject;
}

export interface Kind {
  readonly nameRule: NameRule;
  /** The main resource ignores status changes and the status subresource ignores everything else. */
  readonly hasStatus: boolean;
  /** metadata.generation starts at 1 and grows whenever the spec (or deletionTimestamp) changes. */
  readonly hasGeneration: boolean;
  /** A PUT on a missing name creates the object (AllowCreateOnUpdate). */
  readonly allowCreateOnUpdate: boolean;
  /** A DELETE answers with the object even once it left the store, not with a Status. */
  readonly returnsDeletedObject: boolean;
  /** The Table printer; none prints the default Name and Created At. */
  readonly printer: Printer | undefined;
  /** Fills the kind's defaults in place, on create and on update; idempotent. */
  defaults(obj: KObject): void;
  /** What a create keeps of what was sent: by default, kinds with a status start without one. */
  prepareForCreate(obj: KObject): void;
  /** What an update of the main resource keeps or adds, after status is taken from the stored object (changed in place). */
  prepareForUpdate(next: KObject, current: KObject): void;
  /** Makes the allocator of the server's pools the kind's objects draw from (allocator.ts); none for most kinds. */
  readonly allocator: ((settings: AllocatorSettings) => Allocator) | undefined;
  /**
   * Writes to subresources other than status, by name: `next` becomes `current` with what the
   * subresource may change taken from the body (`next`, changed in place).
   */
  readonly subresourceWrites: Readonly<Record<string, (next: KObject, current: KObject) => void>>;
  /**
   * The kind's validation of what is written: a create (`old` undefined), or an update of the main
   * resource or of `subresource`. Kinds whose checks differ on update may instead add them in `validateUpdate`.
   */
  validate(obj: KObject, old: KObject | undefined, subresource: string | undefined): StatusCause[];
  /** Checks only updates make (immutable fields), after `validate`. */
  validateUpdate(obj: KObject, old: KObject): StatusCause[];
  /** Seconds before a delete removes the object; 0 removes it at once (when no finalizer holds it). */
  gracePeriodSeconds(obj: KObject, requested: number | undefined): number;
  /** Deletion waits while this holds, besides metadata.finalizers (a namespace's spec.finalizers). */
  blocksRemoval(obj: KObject): boolean;
  /**
   * What a first delete request writes before the object's machine decides (the cleanup finalizer a
   * CustomResourceDefinition's deletion waits for): `obj` itself when nothing.
   */
  prepareForDelete(obj: KObject): KObject;
  /** What changes, besides the deletion metadata, when an object begins terminating (changed in place). */
  beginTerminating(next: KObject): void;
  /** Whether an update changes what metadata.generation counts (kinds with generations): the spec, by default. */
  specChanged(next: KObject, current: KObject): boolean;
  /**
   * The apiVersion objects are stored at when it is not the type's own: a custom resource served at
   * several versions stores every object at its storage version.
   */
  readonly storageApiVersion: string | undefined;
  /** Where the objects of a view kind live; undefined for the kinds stored as themselves. */
  readonly view: KindView | undefined;
  /** How request bodies are read when the kind has no client model (custom resources); built-in kinds have none. */
  readonly schema: BodySchema | undefined;
  /** The `scale` subresource's view of the object, for kinds that serve one. */
  readonly scale: ScalePaths | undefined;
  /** Why a DELETE of this name is refused with 403 (a system PriorityClass), or undefined. */
  deleteForbidden(name: string): string | undefined;
}

/** The rules a kind states; the rest take the defaults below. */
export type KindRules = Partial<Omit<Kind, 'nameRule' | 'hasStatus' | 'hasGeneration'>> & Pick<Kind, 'nameRule' | 'hasStatus' | 'hasGeneration'>;

const NO_CAUSES: StatusCause[] = [];
const nothing = () => {};

export function defineKind(rules: KindRules): Kind {
  return {
    allowCreateOnUpdate: false,
    returnsDeletedObject: false,
    printer: undefined,
    defaults: nothing,
    prepareForCreate: rules.hasStatus ? (obj) => void delete obj.status : nothing,
    prepareForUpdate: nothing,
    allocator: undefined,
    subresourceWrites: {},
    validate: () => NO_CAUSES,
    validateUpdate: () => NO_CAUSES,
    gracePeriodSeconds: () => 0,
    blocksRemoval: () => false,
    prepareForDelete: (obj) => obj,
    beginTerminating: nothing,
    specChanged: (next, current) => !deepEqual(next.spec, current.spec),
    scale: undefined,
    storageApiVersion: undefined,
    schema: undefined,
    view: undefined,
    deleteForbidden: () => undefined,
    ...rules,
  };
}

/** A kind with no rules of its own: DNS-subdomain names, no status split, no generation. */
export const PLAIN: Kind = defineKind({ nameRule: 'subdomain', hasStatus: false, hasGeneration: false });
