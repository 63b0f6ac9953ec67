// What the endpointslice controller writes for one Service and one address type, as the real
// reconciler (staging endpointslice reconciler.go, reconcileByPortMapping) decides it, with as few
// writes as it can: slices are grouped by their ports; in each group, endpoints still wanted stay
// where they are (updated in place when their conditions changed), gone ones leave, and a slice
// left empty is deleted; new endpoints fill slices being updated anyway, then an unchanged slice
// with room for all of them, then new slices of at most `max`; a slice to create takes the place
// of one to delete (an update keeps its name). A Service with no endpoints at all keeps one empty
// placeholder slice (mirrored ones keep none). Pure: no I/O.
import type { KObject, OwnerReference } from '../../api/types.ts';

export interface SliceEndpoint {
  addresses: string[];
  /** A mirrored endpoint states readiness only. */
  conditions: { ready: boolean; serving?: boolean; terminating?: boolean };
  hostname?: string;
  targetRef?: { kind: string; namespace?: string; name?: string; uid?: string };
  nodeName?: string;
  zone?: string;
}

export interface SlicePort {
  name: string;
  port: number;
  protocol: string;
  appProtocol?: string;
}

/** The endpoints wanted for one set of ports. */
export interface PortGroup {
  ports: SlicePort[];
  endpoints: SliceEndpoint[];
}

export interface SlicePlan {
  create: KObject[];
  update: KObject[];
  delete: KObject[];
}

/** What every slice of the Service carries besides its endpoints and ports. */
export interface SliceMeta {
  /** The slice labels (the Service's, and the reserved ones). */
  labels: Record<string, string>;
  ownerReference: OwnerReference;
  generateName: string;
  namespace: string;
  addressType: string;
  /** The slices' annotations, when the plan keeps them (mirrored slices copy their Endpoints'). */
  annotations?: Record<string, string>;
  /** Whether a Service without endpoints keeps one empty slice; true unless false. */
  placeholder?: boolean;
}

/** An endpoint's identity across syncs: its pod and its addresses. */
const endpointKey = (e: SliceEndpoint) => `${e.targetRef?.namespace}/${e.targetRef?.name}|${e.addresses.join(',')}|${e.hostname ?? ''}`;
const portsKey = (ports: readonly SlicePort[]) => JSON.stringify([...ports].sort((a, b) => a.name.localeCompare(b.name) || a.port - b.port));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const endpointsOf = (slice: KObject) => (slice.endpoints ?? []) as SliceEndpoint[];
const portsOf = (slice: KObject) => (slice.ports ?? []) as SlicePort[];

interface Working {
  slice: KObject;
  endpoints: SliceEndpoint[];
}

export function planSlices(groups: readonly PortGroup[], existing: readonly KObject[], meta: SliceMeta, max: number): SlicePlan {
  const plan: SlicePlan = { create: [], update: [], delete: [] };
  const byPorts = new Map<string, KObject[]>();
  for (const slice of existing) {
    const key = portsKey(portsOf(slice));
    byPorts.set(key, [...(byPorts.get(key) ?? []), slice]);
  }
  const wanted = new Map(groups.filter((g) => g.endpoints.length > 0).map((g) => [portsKey(g.ports), g]));
  for (const key of new Set([...byPorts.keys(), ...wanted.keys()])) {
    const group = wanted.get(key) ?? { ports: portsOf(byPorts.get(key)![0]!), endpoints: [] };
    planGroup(group, byPorts.get(key) ?? [], meta, max, plan);
  }
  if (meta.placeholder !== false) keepPlaceholder(existing, meta, plan);
  // A slice to create takes the place of one to delete: one write instead of two, and names stay.
  while (plan.create.length && plan.delete.length) {
    const old = plan.delete.pop()!, fresh = plan.create.pop()!;
    plan.update.push({ ...old, metadata: withMeta(old.metadata, meta), endpoints: fresh.endpoints, ports: fresh.ports });
  }
  return plan;
}

function planGroup(group: PortGroup, slices: readonly KObject[], meta: SliceMeta, max: number, plan: SlicePlan): void {
  const desired = new Map(group.endpoints.map((e) => [endpointKey(e), e]));
  const toUpdate: Working[] = [], unchanged: Working[] = [];
  for (const slice of slices) {
    let changed = !same(slice.metadata.labels ?? {}, meta.labels) || !same(slice.metadata.ownerReferences ?? [], [meta.ownerReference])
      || (meta.annotations !== undefined && !same(slice.metadata.annotations ?? {}, meta.annotations));
    const kept: SliceEndpoint[] = [];
    for (const e of endpointsOf(slice)) {
      const want = desired.get(endpointKey(e));
      if (!want) changed = true;
      else {
        if (!same(want, e)) changed = true;
        kept.push(want);
        desired.delete(endpointKey(e));
      }
    }
    if (kept.length === 0) plan.delete.push(slice);
    else (changed ? toUpdate : unchanged).push({ slice, endpoints: kept });
  }
  let remaining = [...desired.values()];
  toUpdate.sort((a, b) => b.endpoints.length - a.endpoints.length);
  for (const w of toUpdate) {
    const room = max - w.endpoints.length;
    if (room > 0) w.endpoints.push(...remaining.splice(0, room));
  }
  const roomy = unchanged.filter((w) => max - w.endpoints.length >= remaining.length).sort((a, b) => a.endpoints.length - b.endpoints.length)[0];
  if (remaining.length && roomy) {
    roomy.endpoints.push(...remaining.splice(0));
    unchanged.splice(unchanged.indexOf(roomy), 1);
    toUpdate.push(roomy);
  }
  for (const w of toUpdate)
    plan.update.push({ ...w.slice, metadata: withMeta(w.slice.metadata, meta), endpoints: w.endpoints, ports: group.ports });
  while (remaining.length) plan.create.push(newSlice(meta, group.ports, remaining.splice(0, max)));
}

/** A Service with no endpoints keeps (or gets) one empty slice without ports. */
function keepPlaceholder(existing: readonly KObject[], meta: SliceMeta, plan: SlicePlan): void {
  if (plan.create.length > 0 || existing.length !== plan.delete.length) return;
  const placeholder = plan.delete.findIndex((s) => endpointsOf(s).length === 0 && portsOf(s).length === 0 && same(s.metadata.labels ?? {}, meta.labels));
  if (placeholder >= 0) plan.delete.splice(placeholder, 1);
  else plan.create.push(newSlice(meta, [], []));
}

function newSlice(meta: SliceMeta, ports: SlicePort[], endpoints: SliceEndpoint[]): KObject {
  return { metadata: withMeta({ generateName: meta.generateName, namespace: meta.namespace }, meta), addressType: meta.addressType, endpoints, ports };
}

/** A slice's metadata with the plan's labels, owner and (when it keeps them) annotations. */
function withMeta(metadata: KObject['metadata'], meta: SliceMeta): KObject['metadata'] {
  const next = { ...metadata, labels: meta.labels, ownerReferences: [meta.ownerReference] };
  if (meta.annotations === undefined) return next;
  if (Object.keys(meta.annotations).length) return { ...next, annotations: meta.annotations };
  const { annotations: _none, ...rest } = next;
  return rest;
}
