// The schema of every built-in kind, derived at run time from @kubernetes/client-node's generated
// models rather than written by hand: each model class's `attributeTypeMap` gives a field's JSON name,
// type and format; the declaration files add required fields and descriptions (model-docs.ts).
// Validation and OpenAPI both read models through here, and each model is built once.
import * as k8s from '@kubernetes/client-node';
import { modelDocs } from './model-docs.ts';

/** A field's type, as Go's JSON decoder would see it. */
export type FieldType =
  | { kind: 'string' }
  /** []byte: a base64 string (Secret.data). */
  | { kind: 'bytes' }
  | { kind: 'boolean' }
  | { kind: 'integer'; format: 'int32' | 'int64' }
  | { kind: 'number' }
  /** metav1.Time (RFC 3339) or MicroTime. */
  | { kind: 'time'; micro: boolean }
  | { kind: 'intOrString' }
  /** resource.Quantity: a string such as `500m` or `1Gi`, or a bare number. */
  | { kind: 'quantity' }
  /** runtime.RawExtension and other free-form JSON: anything goes. */
  | { kind: 'raw' }
  | { kind: 'model'; model: string }
  | { kind: 'array'; items: FieldType }
  | { kind: 'map'; values: FieldType };

export interface Field {
  /** The JSON name. */
  name: string;
  type: FieldType;
  required: boolean;
  description: string | undefined;
}

export interface Model {
  /** The client class: `V1PodSpec`, `CoreV1Event`. */
  className: string;
  /** The Go type name: `PodSpec`, `Event`. */
  goName: string;
  /** The Go package alias Go's error messages use: `v1`. */
  goPackage: string;
  description: string;
  /** By JSON name, in the order the class declares them (alphabetical). */
  fields: ReadonlyMap<string, Field>;
  required: readonly string[];
}

// The client flattens resource.Quantity to `string`; these fields hold quantities, which the real
// decoder also accepts as bare JSON numbers (`cpu: 1`). Keyed by Go type and JSON field.
const QUANTITY_FIELDS = new Set([
  'ResourceRequirements.limits',
  'ResourceRequirements.requests',
  'VolumeResourceRequirements.limits',
  'VolumeResourceRequirements.requests',
  'NodeStatus.capacity',
  'NodeStatus.allocatable',
  'PodSpec.overhead',
  'ContainerStatus.allocatedResources',
  'PersistentVolumeClaimStatus.capacity',
  'PersistentVolumeClaimStatus.allocatedResources',
  'PersistentVolumeSpec.capacity',
  'EmptyDirVolumeSource.sizeLimit',
  'ResourceFieldSelector.divisor',
  'LimitRangeItem.max',
  'LimitRangeItem.min',
  'LimitRangeItem.default',
  'LimitRangeItem.defaultRequest',
  'LimitRangeItem.maxLimitRequestRatio',
  'ResourceQuotaSpec.hard',
  'ResourceQuotaStatus.hard',
  'ResourceQuotaStatus.used',
]);

/** The quantity overrides, for a test that checks each still names a string field. */
export const quantityFields = (): readonly string[] => [...QUANTITY_FIELDS];

interface Attribute {
  name: string;
  baseName: string;
  type: string;
  format: string;
}

const VERSION_PREFIX = /^(?:[A-Z][a-z]+)?(V\d+(?:(?:alpha|beta)\d+)?)(?=[A-Z])/;

/** `V1PodSpec` → `PodSpec`; `CoreV1Event` → `Event`. */
export function goNameOf(className: string): string {
  return className.replace(VERSION_PREFIX, '');
}

function goPackageOf(className: string): string {
  return (VERSION_PREFIX.exec(className)?.[1] ?? 'v1').toLowerCase();
}

function attributesOf(className: string): Attribute[] | null {
  const cls = (k8s as unknown as Record<string, { attributeTypeMap?: unknown } | undefined>)[className];
  const map = cls?.attributeTypeMap;
  return Array.isArray(map) ? (map as Attribute[]) : null;
}

function parseType(type: string, format: string, quantity: boolean): FieldType {
  const array = /^Array<(.+)>$/.exec(type);
  if (array) return { kind: 'array', items: parseType(array[1] as string, format, quantity) };
  const map = /^\{ \[key: string\]: (.+); \}$/.exec(type);
  if (map) return { kind: 'map', values: parseType(map[1] as string, format, quantity) };
  switch (type) {
    case 'string':
      if (quantity) return { kind: 'quantity' };
      return format === 'byte' ? { kind: 'bytes' } : { kind: 'string' };
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
      return format === 'int32' || format === 'int64' ? { kind: 'integer', format } : { kind: 'number' };
    case 'Date':
      return { kind: 'time', micro: false };
    case 'V1MicroTime':
      return { kind: 'time', micro: true };
    case 'IntOrString':
      return { kind: 'intOrString' };
    case 'any':
      return { kind: 'raw' };
    default:
      return attributesOf(type) ? { kind: 'model', model: type } : { kind: 'raw' };
  }
}

const models = new Map<string, Model | null>();

/** The model of a client class, or undefined when no such class exists. */
export function model(className: string): Model | undefined {
  let found = models.get(className);
  if (found === undefined) {
    found = build(className);
    models.set(className, found);
  }
  return found ?? undefined;
}

function build(className: string): Model | null {
  const attributes = attributesOf(className);
  if (!attributes) return null;
  const docs = modelDocs(className);
  const goName = goNameOf(className);
  const fields = new Map<string, Field>();
  const required: string[] = [];
  for (const a of attributes) {
    const doc = docs?.fields.get(a.name);
    const type = parseType(a.type, a.format, QUANTITY_FIELDS.has(`${goName}.${a.baseName}`));
    const isRequired = doc?.required ?? false;
    fields.set(a.baseName, { name: a.baseName, type, required: isRequired, description: doc?.description });
    if (isRequired) required.push(a.baseName);
  }
  return { className, goName, goPackage: goPackageOf(className), description: docs?.description ?? '', fields, required };
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/**
 * The client class of a kind: `V1<Kind>` for most, with the group's first word in front where two
 * groups share a kind name (`CoreV1Event` vs `EventsV1Event`). Undefined for kinds with no model.
 */
export function modelForKind(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = capitalize(slash < 0 ? apiVersion : apiVersion.slice(slash + 1));
  const groupWord = group ? capitalize(group.split('.')[0] as string) : 'Core';
  for (const name of [`${groupWord}${version}${kind}`, `${version}${kind}`]) if (model(name)) return name;
  return undefined;
}

/** The model of a served kind (or its List), for OpenAPI and explain. */
export function describeKind(apiVersion: string, kind: string): Model | undefined {
  const name = modelForKind(apiVersion, kind);
  return name ? model(name) : undefined;
}

/** Every model a kind's objects can contain, the kind's own first, each once. */
export function reachableModels(roots: readonly string[]): string[] {
  const seen = new Set<string>();
  const order: string[] = [];
  const todo = [...roots];
  for (let i = 0; i < todo.length; i++) {
    const name = todo[i] as string;
    if (seen.has(name)) continue;
    const m = model(name);
    if (!m) continue;
    seen.add(name);
    order.push(name);
    for (const f of m.fields.values()) {
      const inner = innermost(f.type);
      if (inner.kind === 'model' && !seen.has(inner.model)) todo.push(inner.model);
    }
  }
  return order;
}

/** The element type under any arrays and maps. */
export function innermost(type: FieldType): FieldType {
  let t = type;
  while (t.kind === 'array' || t.kind === 'map') t = t.kind === 'array' ? t.items : t.values;
  return t;
}
