// `manifests:` — files of Node, Pod and PodTemplate objects (a cluster written as manifests, or
// exported from one with `kubectl get -o yaml`), each object becoming one pool or workload.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NodePool, Workload } from './types.ts';
import { Field, isMapping } from './field.ts';
import { poolFromNode } from './pools.ts';
import { nonEmptyString } from './schema.ts';
import { workloadFromPod, workloadFromTemplate } from './workloads.ts';
import { yamlDocuments } from './yaml-documents.ts';

const FILES_MAX = 100;
const OBJECTS_MAX = 100_000;
const KINDS_RULE = 'must be Node, Pod or PodTemplate, or a List of them';

/** A pool or workload with the field of its name, for errors about duplicates. */
export interface Sourced<T> {
  value: T;
  nameAt: Field;
}

export interface Manifests {
  nodePools: Sourced<NodePool>[];
  workloads: Sourced<Workload>[];
}

/**
 * The pools and workloads of the files `f` names (one path or a list), read synchronously,
 * relative paths against `dir`. Each Node is a pool of one named after it; each Pod a workload of
 * one pod at the start, named after it and in its namespace; each PodTemplate likewise.
 */
export function readManifests(f: Field, dir: string): Manifests {
  const out: Manifests = { nodePools: [], workloads: [] };
  if (!f.present) return out;
  const files = Array.isArray(f.value) ? f.list('files', { nonEmpty: true, max: FILES_MAX }) : [f];
  for (const file of files) {
    const path = nonEmptyString(file);
    const objects = yamlDocuments(readText(file, resolve(dir, path)), path).flatMap((doc, i) => listItems(new Field(path, `documents[${i}]`, doc)));
    if (objects.length > OBJECTS_MAX) file.fail(`must hold at most ${OBJECTS_MAX} objects, has ${objects.length}`);
    for (const object of objects) add(out, object);
  }
  return out;
}

function readText(f: Field, path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    return f.fail(`cannot read the manifests file (${(e as Error).message})`);
  }
}

/** A document's objects: none for an empty document, the items of a List, or the object itself. */
function listItems(doc: Field): Field[] {
  if (!doc.present) return [];
  if (!isMapping(doc.value)) doc.fail(`must be an object: ${KINDS_RULE}`);
  const kind = doc.child('kind').value;
  if (typeof kind === 'string' && kind.endsWith('List')) return doc.child('items').list('objects');
  return [doc];
}

function add(out: Manifests, f: Field): void {
  const nameAt = f.child('metadata').child('name');
  switch (f.child('kind').value) {
    case 'Node':
      out.nodePools.push({ value: poolFromNode(f), nameAt });
      return;
    case 'Pod':
      out.workloads.push({ value: workloadFromPod(f), nameAt });
      return;
    case 'PodTemplate':
      out.workloads.push({ value: workloadFromTemplate(f), nameAt });
      return;
    default:
      f.child('kind').fail(KINDS_RULE);
  }
}
