// Keeps the bootstrap configuration in the store, as the real server's config producer does at
// start and every minute after (kubernetes pkg/registry/flowcontrol/ensurer, rest/storage_flowcontrol.go):
//   - a missing bootstrap object is created, mandatory or suggested;
//   - a mandatory object's spec is put back whenever it differs (the exempt level's `spec.exempt`
//     excepted: operators may tune it);
//   - a suggested object is brought up to date only while it says so: its autoupdate annotation
//     "true", or no readable annotation on an object nobody changed (generation 1); the annotation
//     is then written to say what the server decided;
//   - an object annotated autoupdate "true" that is not part of the bootstrap configuration is deleted.
// Writes go through the registry as the producer's own (field manager
// api-priority-and-fairness-config-producer-v1); a write that fails is tried again next minute.
import type { Clock } from '../../api/env.ts';
import { lookupKind, type ResourceType } from '../../api/resources.ts';
import { StatusError } from '../../api/status.ts';
import { isPlainObject, type KObject } from '../../api/types.ts';
import { collectionKey } from '../registry/keys.ts';
import { kindOf } from '../registry/kinds/index.ts';
import { deepEqual } from '../registry/deep-equal.ts';
import type { Registry } from '../registry/registry.ts';
import {
  AUTOUPDATE_ANNOTATION, EXEMPT, MANDATORY_FLOW_SCHEMAS, MANDATORY_PRIORITY_LEVELS, SUGGESTED_FLOW_SCHEMAS, SUGGESTED_PRIORITY_LEVELS,
} from './bootstrap.ts';

export const PRODUCER = 'api-priority-and-fairness-config-producer-v1';
/** How often the producer looks again (the real one's period). */
export const ENSURE_EVERY_MS = 60_000;

const WRITE = { dryRun: false, fieldManager: PRODUCER, skipAdmission: true } as const;
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const GO_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** The annotation as Go's strconv.ParseBool reads it; undefined when missing or unreadable. */
function autoupdate(obj: KObject): boolean | undefined {
  const v = obj.metadata.annotations?.[AUTOUPDATE_ANNOTATION];
  return v === undefined ? undefined : GO_TRUE.has(v) ? true : GO_FALSE.has(v) ? false : undefined;
}

/** Whether `current`'s spec is what the bootstrap object's defaulted spec says (the exempt level's tunables aside). */
function specEqualish(type: ResourceType, bootstrap: KObject, current: KObject): boolean {
  const expected = structuredClone(bootstrap);
  kindOf(type).defaults(expected);
  const want = expected.spec as Record<string, unknown>;
  const have = current.spec;
  if (type.kind === 'PriorityLevelConfiguration' && bootstrap.metadata.name === EXEMPT) {
    if (!isPlainObject(have) || !isPlainObject(have.exempt)) return false;
    want.exempt = { ...(want.exempt as object), nominalConcurrencyShares: have.exempt.nominalConcurrencyShares, lendablePercent: have.exempt.lendablePercent };
  }
  return deepEqual(want, have);
}

/** The revised object to write, or undefined when `current` is as it should be. */
function revise(type: ResourceType, bootstrap: KObject, current: KObject, mandatory: boolean): KObject | undefined {
  const annotated = autoupdate(current);
  const autoUpdateSpec = mandatory || (annotated ?? current.metadata.generation === 1);
  const updateAnnotation = annotated !== autoUpdateSpec;
  const specChanged = autoUpdateSpec && !specEqualish(type, bootstrap, current);
  if (!updateAnnotation && !specChanged) return undefined;
  const annotations = { ...current.metadata.annotations, ...(updateAnnotation ? { [AUTOUPDATE_ANNOTATION]: String(autoUpdateSpec) } : {}) };
  return { ...current, ...(specChanged ? { spec: structuredClone(bootstrap.spec) } : {}), metadata: { ...current.metadata, annotations } };
}

async function ensureObject(registry: Registry, bootstrap: KObject, mandatory: boolean): Promise<void> {
  const type = lookupKind(bootstrap.apiVersion!, bootstrap.kind!)!;
  const name = bootstrap.metadata.name!;
  const current = await registry.env.store.get(registry.key(type, undefined, name));
  if (!current) {
    await registry.create(type, undefined, structuredClone(bootstrap), WRITE);
    return;
  }
  const revised = revise(type, bootstrap, current, mandatory);
  if (revised) await registry.update(type, undefined, name, () => revised, WRITE);
}

/** Deletes the objects annotated autoupdate "true" that the bootstrap configuration does not name. */
async function removeUnwanted(registry: Registry, bootstraps: readonly KObject[]): Promise<void> {
  const type = lookupKind(bootstraps[0]!.apiVersion!, bootstraps[0]!.kind!)!;
  const wanted = new Set(bootstraps.map((b) => b.metadata.name));
  const { items } = await registry.env.store.list(collectionKey(registry.env.keyPrefix, type, undefined));
  for (const obj of items)
    if (!wanted.has(obj.metadata.name) && autoupdate(obj) === true)
      await registry.delete(type, undefined, obj.metadata.name!, { dryRun: false });
}

/** One pass of the producer. A failing write stops nothing: the next pass tries again. */
export async function ensureBootstrapConfiguration(registry: Registry): Promise<void> {
  const passes: [readonly KObject[], boolean][] = [[SUGGESTED_PRIORITY_LEVELS, false], [SUGGESTED_FLOW_SCHEMAS, false],
    [MANDATORY_PRIORITY_LEVELS, true], [MANDATORY_FLOW_SCHEMAS, true]];
  for (const [objects, mandatory] of passes)
    for (const o of objects) await tolerate(() => ensureObject(registry, o, mandatory));
  await tolerate(() => removeUnwanted(registry, [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS]));
  await tolerate(() => removeUnwanted(registry, [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS]));
}

/** Conflicts, objects gone or come meanwhile, and refusals are left for the next pass. */
async function tolerate(write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (e) {
    if (!(e instanceof StatusError)) throw e;
  }
}

/** Runs the producer every minute on `clock` from now on; returns what stops it. */
export function keepBootstrapConfiguration(registry: Registry, clock: Clock): () => void {
  let timer: unknown;
  let stopped = false;
  const next = () => {
    // A pass that fails outright (the store gone) is tried again next minute, like a failing write.
    timer = clock.setTimeout(() => void ensureBootstrapConfiguration(registry).catch(() => {}).finally(() => stopped || next()), ENSURE_EVERY_MS);
  };
  next();
  return () => {
    stopped = true;
    clock.clearTimeout(timer);
  };
}
