// The events the real agent (the kubelet) records, for the steps this simulated agent takes. The
// source is `kubelet` on the node's name; node events are about the node as the real agent
// refers to it (kind Node, no apiVersion, its name as uid), in the `default` namespace.
//
//   registered            Starting, NodeHasSufficientMemory, NodeHasNoDiskPressure,
//                         NodeHasSufficientPID, NodeAllocatableEnforced, NodeReady
//   memory pressure       NodeHasInsufficientMemory; NodeHasSufficientMemory when it ends
//   evicting a pod        EvictionThresholdMet (Warning) on the node, Evicted (Warning) on the pod
//   rejecting a pod       OutOfpods (Warning) on the pod
//   ContainerCreating     Pulling, for each image to pull
//   Running               Pulled, Created, Started, for each container
//   stopping containers   Killing
//   a failed run restarts BackOff (Warning); Pulled, Created, Started again when it runs
//
// There are no real images: an image is present on the node once a pod pulled it there; one
// pulled takes the pod's creating time, and its size is a number drawn from its name, the same
// on every run.
import { formatDuration } from '../api/duration.ts';
import { NO_EVENTS, type EventRecorder, type ObjectReference } from '../client/events/index.ts';
import { digest } from './pod-runtime.ts';
import type { Container, Pod } from '../api/model/core.ts';

/** A container as the runtime knows it. */
/** What the agent reads of a stored pod's container, whose image validation has required. */
export type ContainerSpec = Pick<Container, 'name' | 'imagePullPolicy'> & { image: string };

/** The image size reported for a simulated pull: 5 to 250 MB, fixed by the image's name. */
const imageSize = (image: string) => 5_000_000 + (parseInt(digest(image).slice(0, 8), 16) % 245_000_000);

export class AgentEvents {
  readonly #node: ObjectReference;
  /** Images pulled to this node (the real agent's image store). */
  readonly #images = new Set<string>();

  constructor(readonly recorder: EventRecorder, readonly nodeName: string) {
    this.#node = { kind: 'Node', name: nodeName, uid: nodeName };
  }

  /** Whether events are recorded at all (a pod's runtime needs nothing for them otherwise). */
  get recording(): boolean {
    return this.recorder !== NO_EVENTS;
  }

  /** The node registered, or reported again after a restart: the real agent's start and its first status. */
  registered(): void {
    const r = this.recorder, node = this.#node;
    r.event(node, 'Normal', 'Starting', 'Starting kubelet.');
    for (const reason of ['NodeHasSufficientMemory', 'NodeHasNoDiskPressure', 'NodeHasSufficientPID']) this.#status(reason);
    r.event(node, 'Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
    this.#status('NodeReady');
  }

  /** The MemoryPressure condition changed at a status check. */
  pressure(under: boolean): void {
    this.#status(under ? 'NodeHasInsufficientMemory' : 'NodeHasSufficientMemory');
  }

  /** A pod evicted for memory: why, on the node and on the pod (with the real annotations). */
  evicting(pod: ObjectReference, message: string, container: string, usageBytes: number): void {
    this.recorder.event(this.#node, 'Warning', 'EvictionThresholdMet', 'Attempting to reclaim memory');
    this.recorder.event(pod, 'Warning', 'Evicted', message, { annotations: {
      offending_containers: container, offending_containers_usage: `${Math.ceil(usageBytes / 1024)}Ki`, starved_resource: 'memory',
    } });
  }

  /** A pod the node has no room for. */
  rejected(pod: ObjectReference, reason: string, message: string): void {
    this.recorder.event(pod, 'Warning', reason, message);
  }

  /** The pod's containers are being created: the images to pull are pulled now. Which ones, by container (for `running`). */
  creating(pod: (fieldPath: string) => ObjectReference, containers: readonly ContainerSpec[]): boolean[] {
    const pulls = containers.map((c) => this.#pulls(c));
    containers.forEach((c, i) => pulls[i] && this.recorder.event(pod(fieldPath(c)), 'Normal', 'Pulling', `Pulling image "${c.image}"`));
    return pulls;
  }

  /**
   * The containers run, `creatingMs` after their creation began: pulled (those `creating` pulled;
   * without it, those to pull now) or present, created, started.
   */
  running(pod: (fieldPath: string) => ObjectReference, containers: readonly ContainerSpec[], creatingMs: number, pulls?: readonly boolean[]): void {
    containers.forEach((c, i) => {
      const ref = pod(fieldPath(c));
      const pulled = pulls ? pulls[i] : this.#pulls(c);
      // A restart pulls as it runs again: no creating step said so before.
      if (pulled && !pulls) this.recorder.event(ref, 'Normal', 'Pulling', `Pulling image "${c.image}"`);
      if (pulled) {
        const took = formatDuration(creatingMs);
        this.recorder.event(ref, 'Normal', 'Pulled', `Successfully pulled image "${c.image}" in ${took} (${took} including waiting). Image size: ${imageSize(c.image)} bytes.`);
        this.#images.add(c.image);
      } else this.recorder.event(ref, 'Normal', 'Pulled', `Container image "${c.image}" already present on machine`);
      this.recorder.event(ref, 'Normal', 'Created', `Created container: ${c.name}`);
      this.recorder.event(ref, 'Normal', 'Started', `Started container ${c.name}`);
    });
  }

  /** The containers failed and wait to be restarted. */
  backOff(pod: (fieldPath: string) => ObjectReference, containers: readonly ContainerSpec[]): void {
    for (const c of containers) {
      const ref = pod(fieldPath(c));
      this.recorder.event(ref, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${ref.name}_${ref.namespace}(${ref.uid})`);
    }
  }

  stopping(pod: (fieldPath: string) => ObjectReference, containers: readonly ContainerSpec[]): void {
    for (const c of containers) this.recorder.event(pod(fieldPath(c)), 'Normal', 'Killing', `Stopping container ${c.name}`);
  }

  stop(): void {
    this.recorder.stop();
  }

  /** Pulled on this pod's start: always with `Always`; with `IfNotPresent` when not on the node yet; never with `Never`. */
  #pulls(c: ContainerSpec): boolean {
    const policy = c.imagePullPolicy ?? 'IfNotPresent';
    return policy === 'Always' || (policy === 'IfNotPresent' && !this.#images.has(c.image));
  }

  #status(reason: string): void {
    this.recorder.event(this.#node, 'Normal', reason, `Node ${this.nodeName} status is now: ${reason}`);
  }
}

const fieldPath = (c: ContainerSpec) => `spec.containers{${c.name}}`;

/** The containers of a pod's spec, as the runtime needs them for events. */
export const containersOf = (pod: Pod): ContainerSpec[] => (pod.spec?.containers ?? []) as ContainerSpec[];
