// The fan-out benchmark's watch events: ~1.3 KB pods created in a MemoryStore and published by
// the API server's own Fanout, captured as the exact bytes and subjects it puts on the bus. An
// annotation pads each pod so that one event is `sizeBytes` long on the wire.
import type { KObject } from '../../actors/api/types.ts';
import { objectKey } from '../../actors/apiserver/registry/keys.ts';
import { MemoryStore } from '../../actors/apiserver/storage/memory.ts';
import { Catalogue } from '../../actors/apiserver/catalogue.ts';
import { Fanout } from '../../actors/apiserver/watch/fanout.ts';
import { Deferred, type Body } from '../../transport/bus.ts';
import { MemoryBus } from '../../transport/memory-bus.ts';
import { wallClock } from '../clock.ts';
import { podManifest } from './pod.ts';
import { PODS } from '../../actors/api/model/core.ts';

export const NAMESPACE = 'bench';
export const KEY_PREFIX = '/registry';
/** Every event's object subject starts with this; a watcher of the namespace subscribes to `<it>*`. */
const OBJECT_SUBJECTS = 'orch.w.core.pods.o.>';
const PADDING_ANNOTATION = 'bench.orchsim.io/padding';

export const podName = (i: number) => `bench-pod-${String(i).padStart(6, '0')}`;
export const nodeName = (i: number) => `node-${String(i).padStart(5, '0')}`;
export const podKey = (name: string) => objectKey(KEY_PREFIX, PODS, NAMESPACE, name);

type Spec = { containers: Record<string, unknown>[]; [field: string]: unknown };

/** Parts of the pod dropped, one more each step, when the whole pod is larger than the size asked for. */
const TRIMS: ((spec: Spec, pod: KObject) => void)[] = [
  (spec) => spec.containers.splice(1),
  (spec) => delete spec.containers[0].readinessProbe,
  (spec) => delete spec.tolerations,
  (spec) => delete spec.containers[0].env,
  (_, pod) => delete pod.metadata.annotations,
  (spec) => (delete spec.volumes, delete spec.containers[0].volumeMounts),
];

/** How a bench pod is made to weigh `sizeBytes`: the first `trims` parts dropped, then padding added. */
export interface PodShape {
  trims: number;
  paddingChars: number;
}

/** A running pod bound to `node`, shaped by `shape`. */
export function benchPod(name: string, node: string, shape: PodShape): KObject {
  const pod = podManifest(name, NAMESPACE);
  const spec = { ...(pod.spec as Spec), nodeName: node };
  pod.spec = spec;
  for (const trim of TRIMS.slice(0, shape.trims)) trim(spec, pod);
  if (shape.paddingChars > 0) pod.metadata.annotations = { ...pod.metadata.annotations, [PADDING_ANNOTATION]: 'x'.repeat(shape.paddingChars) };
  pod.status = { phase: 'Running', hostIP: '10.0.0.7', podIP: '10.244.3.17' };
  return pod;
}

export interface CapturedEvents {
  /** The subject each event was published on (its object subject). */
  subjects: string[];
  /** The bytes of each event, revisions 1, 2, ... in order. */
  data: Uint8Array[];
  /** What the Fanout published for each event: the in-process bus hands its value to subscribers. */
  bodies: Body[];
  /** What makes one event `sizeBytes` long: the node-agent case creates pods of this shape. */
  shape: PodShape;
  /** The revision of the first event; the next ones follow one by one. */
  firstRevision: number;
  /** The mean size of one event on the wire. */
  sizeBytes: number;
}

async function capture(count: number, shape: PodShape, initialRevision?: number): Promise<{ subjects: string[]; data: Uint8Array[]; bodies: Body[]; firstRevision: number }> {
  const store = new MemoryStore(initialRevision);
  const bus = new MemoryBus({ clock: wallClock() });
  const fanout = new Fanout(store, bus, KEY_PREFIX, new MemoryBus({ clock: wallClock() }), new Catalogue());
  const firstRevision = store.revision + 1;
  const subjects: string[] = [];
  const data: Uint8Array[] = [];
  const bodies: Body[] = [];
  bus.subscribe(OBJECT_SUBJECTS, (m) => {
    const bytes = m.data;
    subjects.push(m.subject);
    data.push(bytes);
    bodies.push(m.value === undefined ? bytes : new Deferred(m.value, () => bytes));
  });
  for (let i = 0; i < count; i++) await store.create(podKey(podName(i)), benchPod(podName(i), nodeName(i % 100), shape));
  await bus.flush();
  fanout.close();
  await bus.close();
  if (data.length !== count) throw new Error(`captured ${data.length} of ${count} events: the Fanout's subjects changed?`);
  return { subjects, data, bodies, firstRevision };
}

const PROBE_REVISION = 10_000;

/** The fewest trims that fit `sizeBytes`, padded up to it (or every trim, when even that is larger). */
async function shapeFor(sizeBytes: number): Promise<PodShape> {
  for (let trims = 0; trims <= TRIMS.length; trims++) {
    // The second event of a store well into its revisions: its numbers are as long as a run's.
    const size = (await capture(2, { trims, paddingChars: 0 }, PROBE_REVISION)).data[1].length;
    if (size <= sizeBytes) return { trims, paddingChars: sizeBytes - size };
  }
  return { trims: TRIMS.length, paddingChars: 0 };
}

/** `count` ADDED events of distinct pods in one namespace, each about `sizeBytes` long. */
export async function captureEvents(count: number, sizeBytes: number): Promise<CapturedEvents> {
  const shape = await shapeFor(sizeBytes);
  const { subjects, data, bodies, firstRevision } = await capture(count, shape);
  const total = data.reduce((sum, d) => sum + d.length, 0);
  return { subjects, data, bodies, shape, firstRevision, sizeBytes: Math.round(total / count) };
}
