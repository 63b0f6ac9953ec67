// The DaemonSet controller, as the real one runs one pod per eligible node:
//
// - A node is eligible when the set's nodeSelector matches its labels and the pod tolerates its
//   NoSchedule and NoExecute taints (with the tolerations the real controller adds to every
//   daemon pod: not-ready, unreachable, disk-pressure, memory-pressure, pid-pressure,
//   unschedulable). Each eligible node without a pod of the set gets one, pinned to it by a
//   required node affinity on metadata.name, for the scheduler to bind; pods on nodes no longer
//   eligible (or gone) are deleted.
// - History: every template is stored as a ControllerRevision (revisions.ts: `<set>-<hash>`, its
//   `data` the pod template, `revision` counting up, owned by the set), the pods labelled with its
//   hash (`controller-revision-hash`); a template seen before gets its old revision renumbered
//   newest, which is how a rollback looks. Revisions beyond revisionHistoryLimit (10) not in use go.
// - RollingUpdate (the default): pods of an older revision are deleted while no more than
//   maxUnavailable (1) of the set's pods are unavailable; OnDelete: only new pods use the template.
// - Status: desiredNumberScheduled, currentNumberScheduled, numberMisscheduled, numberReady,
//   updatedNumberScheduled, numberAvailable, numberUnavailable, observedGeneration, and
//   collisionCount once a revision name collided.
// - Each pod created or deleted is recorded on the set, as the real pod control records it.
import { isReady } from '../../api/fields.ts';
import { isConflict, isNotFound } from '../../api/status.ts';
import type { KObject } from '../../api/types.ts';
import { cacheKey } from '../../client/cache.ts';
import { selectorFromSet } from '../../scheduler/label-selector.ts';
import type { Taint, Toleration } from '../../scheduler/framework.ts';
import { tolerationsTolerate } from '../../scheduler/plugins/taint-toleration.ts';
import { QueuedController, type QueuedControllerInit } from '../queued-controller.ts';
import { referenceTo } from '../../client/events/index.ts';
import { podCreated, podDeleted } from '../pod-control-events.ts';
import { taintsOf } from '../node-taints.ts';
import { controllerRef, ownedRevisions, REVISION_HASH, revisionHash, syncRevision, truncateHistory } from './revisions.ts';
import { CONTROLLER_REVISIONS, DAEMONSETS } from '../../api/model/apps.ts';
import { NODES, PODS, type Pod } from '../../api/model/core.ts';

/** The tolerations every daemon pod gets (the real AddOrUpdateDaemonPodTolerations). */
const DAEMON_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];

type Rec = Record<string, unknown>;
interface DaemonSetSpec {
  selector?: { matchLabels?: Record<string, string> };
  template?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Rec & { nodeSelector?: Record<string, string>; tolerations?: Toleration[] } };
  updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number } };
  revisionHistoryLimit?: number;
}

const owned = (o: KObject, uid: string | undefined) => (o.metadata.ownerReferences ?? []).some((r) => r.controller && r.uid === uid);
const nodeOf = (pod: Pod) => pod.spec;
/** The node a daemon pod is for: where it is bound, else the node its affinity pins it to. */
const targetNode = (pod: KObject) => nodeOf(pod)?.nodeName ?? nodeOf(pod)?.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms?.[0]?.matchFields?.[0]?.values?.[0];

export class DaemonSetController extends QueuedController {
  constructor(init: QueuedControllerInit) {
    super('daemonset-controller', init);
    const all = () => { for (const ds of init.informers.get(DAEMONSETS).cache.list()) this.queue.add(cacheKey(ds)); };
    init.informers.get(DAEMONSETS).on({ add: (ds) => this.queue.add(cacheKey(ds)), update: (_o, ds) => this.queue.add(cacheKey(ds)) });
    init.informers.get(NODES).on({ add: all, update: all, delete: all });
    const owner = (pod: KObject) => {
      const ref = (pod.metadata.ownerReferences ?? []).find((r) => r.controller && r.kind === 'DaemonSet');
      if (ref) this.queue.add(`${pod.metadata.namespace}/${ref.name}`);
    };
    init.informers.get(PODS).on({ add: owner, update: (_o, p) => owner(p), delete: owner });
    init.informers.get(CONTROLLER_REVISIONS); // read in sync: made now, so that start() lists and follows it
  }

  protected async sync(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const ds = this.informers.get(DAEMONSETS).cache.get(namespace, name);
    if (!ds || ds.metadata.deletionTimestamp) return;
    const spec = (ds.spec ?? {}) as DaemonSetSpec;
    const revisions = ownedRevisions(this.informers.get(CONTROLLER_REVISIONS).cache, ds);
    const collisions = ds.status?.collisionCount ?? 0;
    const { revision, collisionCount } = await syncRevision(this.client, ds, 'DaemonSet', spec.template ?? {}, revisions, collisions);
    const hash = revision.metadata.labels?.[REVISION_HASH] ?? revisionHash(spec.template ?? {}, collisionCount);
    const pods = this.informers.get(PODS).cache.inNamespace(namespace).filter((p) => owned(p, ds.metadata.uid) && !p.metadata.deletionTimestamp);
    const inUse = new Set([hash, ...pods.map((p) => p.metadata.labels?.[REVISION_HASH])]);
    await truncateHistory(this.client, revisions, (r) => inUse.has(r.metadata.labels?.[REVISION_HASH]), spec.revisionHistoryLimit ?? 10);
    const byNode = new Map<string, KObject[]>();
    for (const pod of pods) {
      const node = targetNode(pod) ?? '';
      byNode.set(node, [...(byNode.get(node) ?? []), pod]);
    }
    const eligible = this.informers.get(NODES).cache.list().filter((n) => this.#eligible(spec, n)).map((n) => n.metadata.name!).sort();
    const wanted = new Set(eligible);
    for (const node of eligible) if (!byNode.has(node)) await this.#createPod(ds, spec, node, hash);
    for (const [node, list] of byNode) {
      // Not wanted there, or one too many: the extra pods go (the oldest pod on a node stays).
      const extra = wanted.has(node) ? [...list].sort((a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '')).slice(1) : list;
      for (const pod of extra) await this.#deletePod(ds, pod);
    }
    if ((spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') await this.#rollingUpdate(ds, spec, pods.filter((p) => wanted.has(targetNode(p) ?? '')), eligible, hash);
    await this.#writeStatus(ds, pods, eligible, hash, collisionCount);
  }

  #eligible(spec: DaemonSetSpec, node: KObject): boolean {
    if (node.metadata.deletionTimestamp) return false;
    const selector = spec.template?.spec?.nodeSelector;
    if (selector && !selectorFromSet(selector).matches(node.metadata.labels ?? {})) return false;
    const tolerations = [...(spec.template?.spec?.tolerations ?? []), ...DAEMON_TOLERATIONS];
    return taintsOf(node).every((t) => (t.effect !== 'NoSchedule' && t.effect !== 'NoExecute') || tolerationsTolerate(tolerations, t as Taint));
  }

  async #createPod(ds: KObject, spec: DaemonSetSpec, node: string, hash: string): Promise<void> {
    const ref = controllerRef(ds, 'DaemonSet');
    const template = spec.template ?? {};
    const podSpec = template.spec ?? {};
    const pod = this.client.create(PODS, {
      metadata: { generateName: `${ds.metadata.name}-`, namespace: ds.metadata.namespace, labels: { ...template.metadata?.labels, [REVISION_HASH]: hash },
        ...(template.metadata?.annotations ? { annotations: template.metadata.annotations } : {}), ownerReferences: [ref] },
      spec: {
        ...podSpec,
        tolerations: [...(podSpec.tolerations ?? []), ...DAEMON_TOLERATIONS],
        affinity: { ...(podSpec.affinity as Rec | undefined), nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {
          nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } },
      },
    } as KObject);
    await pod.then((p) => podCreated(this.events, referenceTo(DAEMONSETS, ds), { name: p.metadata.name! }), (error: unknown) => {
      podCreated(this.events, referenceTo(DAEMONSETS, ds), { error });
      throw error;
    });
  }

  async #deletePod(ds: KObject, pod: KObject): Promise<void> {
    await this.client.delete(PODS, pod.metadata.namespace, pod.metadata.name!, { preconditions: { uid: pod.metadata.uid } })
      .then(() => podDeleted(this.events, referenceTo(DAEMONSETS, ds), pod.metadata.name!), (error: unknown) => {
        podDeleted(this.events, referenceTo(DAEMONSETS, ds), pod.metadata.name!, error);
        conflictOk(error);
      });
  }

  /** Old-revision pods go while at most maxUnavailable eligible nodes lack a ready pod of the set (the one just deleted included). */
  async #rollingUpdate(ds: KObject, spec: DaemonSetSpec, pods: KObject[], eligible: string[], hash: string): Promise<void> {
    const maxUnavailable = spec.updateStrategy?.rollingUpdate?.maxUnavailable ?? 1;
    const readyOn = new Set(pods.filter(isReady).map((p) => targetNode(p)));
    let unavailable = eligible.filter((n) => !readyOn.has(n)).length;
    const old = pods.filter((p) => p.metadata.labels?.[REVISION_HASH] !== hash).sort((a, b) => Number(isReady(a)) - Number(isReady(b)));
    for (const pod of old) {
      // An unready old pod costs nothing to replace; a ready one only within the budget.
      if (isReady(pod)) {
        if (unavailable >= maxUnavailable) break;
        unavailable++;
      }
      await this.#deletePod(ds, pod);
    }
  }

  async #writeStatus(ds: KObject, pods: KObject[], eligible: string[], hash: string, collisionCount: number): Promise<void> {
    const wanted = new Set(eligible);
    const scheduled = pods.filter((p) => nodeOf(p)?.nodeName);
    const onWanted = scheduled.filter((p) => wanted.has(nodeOf(p)!.nodeName!));
    const ready = onWanted.filter(isReady).length;
    const status = {
      observedGeneration: ds.metadata.generation ?? 1,
      desiredNumberScheduled: eligible.length,
      currentNumberScheduled: new Set(onWanted.map((p) => nodeOf(p)!.nodeName)).size,
      numberMisscheduled: scheduled.length - onWanted.length,
      numberReady: ready,
      updatedNumberScheduled: onWanted.filter((p) => p.metadata.labels?.[REVISION_HASH] === hash).length,
      numberAvailable: ready,
      numberUnavailable: Math.max(0, eligible.length - ready),
      ...(collisionCount > 0 ? { collisionCount } : {}),
    };
    const old = (ds.status ?? {}) as Rec;
    if (Object.entries(status).every(([k, v]) => (old[k] ?? 0) === v)) return;
    await this.client.patch(DAEMONSETS, ds.metadata.namespace, ds.metadata.name!, { metadata: { resourceVersion: ds.metadata.resourceVersion }, status }, 'merge', 'status').catch(conflictOk);
  }
}

/** A write that lost a race (the object is gone, exists already, or changed): the next event settles it. */
function conflictOk(e: unknown): undefined {
  if (isNotFound(e) || isConflict(e)) return undefined;
  throw e;
}
