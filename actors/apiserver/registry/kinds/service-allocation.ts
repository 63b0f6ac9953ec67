// The Service's allocator (allocator.ts): cluster IPs from --service-cluster-ip-range (one range
// per family) and node ports from --service-node-port-range, as the real Allocators of
// pkg/registry/core/service/storage/alloc.go take and give them back on create, update and delete.
import { internal, invalid, type StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import type { Allocator, AllocatorSettings, Reservation } from '../allocator.ts';
import { familyOf, IpRange, PortRange, type IPFamily } from '../service-ranges.ts';
import { goStrings, isHeadless, needsClusterIP, needsHealthCheck, nodePortsOf, NONE, ownSpec, serviceSpec, storedSpec, type ServiceSpec } from './service-fields.ts';
import { initIPFamilies, normalizeClusterIPs, patchAllocatedValues, unchangedPreferDualStack } from './service-ip-families.ts';
import { allocateNodePorts, NodePortOperation, updateNodePorts } from './service-node-ports.ts';

export function serviceAllocator(settings: AllocatorSettings): ServiceAllocator {
  return new ServiceAllocator(settings);
}

export class ServiceAllocator implements Allocator {
  /** One range per family; the first configured is the default family. */
  readonly ranges = new Map<IPFamily, IpRange>();
  readonly families: IPFamily[];
  readonly ports: PortRange;

  constructor(settings: AllocatorSettings) {
    for (const cidr of settings.serviceClusterIPRange) {
      const range = new IpRange(cidr, settings.random.fork(`cluster-ips/${cidr}`));
      this.ranges.set(range.family, range);
    }
    this.families = [...this.ranges.keys()];
    const { base, size } = settings.serviceNodePortRange;
    this.ports = new PortRange(base, size, settings.random.fork('node-ports'));
  }

  create(svc: KObject, dryRun: boolean): Reservation {
    const spec = serviceSpec(svc);
    normalizeClusterIPs(spec, undefined);
    this.#refuseIf(svc, initIPFamilies(spec, undefined, this.families));
    const ips = needsClusterIP(spec) && !isHeadless(spec) ? this.#allocateIPs(svc, spec, spec.ipFamilies ?? [], dryRun) : [];
    const op = new NodePortOperation(this.ports, dryRun, svc.metadata.name ?? '');
    try {
      allocateNodePorts(spec, op);
    } catch (e) {
      this.#release(ips, dryRun);
      throw e;
    }
    return { commit: () => op.commit(), revert: () => (this.#release(ips, dryRun), op.revert()) };
  }

  update(next: KObject, current: KObject, dryRun: boolean): Reservation {
    const spec = ownSpec(next), old = storedSpec(current);
    normalizeClusterIPs(spec, old);
    patchAllocatedValues(spec, old);
    this.#refuseIf(next, initIPFamilies(spec, old, this.families));
    const { taken, givenUp } = this.#updateIPs(next, spec, old, dryRun);
    const op = new NodePortOperation(this.ports, dryRun, next.metadata.name ?? '');
    try {
      updateNodePorts(spec, old, op);
    } catch (e) {
      this.#release(taken, dryRun);
      throw e;
    }
    return { commit: () => (this.#release(givenUp, dryRun), op.commit()), revert: () => (this.#release(taken, dryRun), op.revert()) };
  }

  release(svc: KObject): void {
    const spec = storedSpec(svc);
    if (needsClusterIP(spec) && !isHeadless(spec)) this.#release(spec.clusterIPs ?? [], false);
    for (const port of held(spec)) this.ports.release(port);
  }

  restore(svc: KObject): void {
    const spec = storedSpec(svc);
    if (needsClusterIP(spec) && !isHeadless(spec)) for (const ip of spec.clusterIPs ?? []) this.#rangeOf(ip)?.allocate(ip);
    for (const port of held(spec)) this.ports.allocate(port);
  }

  #refuseIf(svc: KObject, causes: StatusCause[]): void {
    if (causes.length) throw invalid('', 'Service', svc.metadata.name ?? '', causes);
  }

  #rangeOf(ip: string): IpRange | undefined {
    const family = familyOf(ip);
    return family && this.ranges.get(family);
  }

  /**
   * Gives the Service an address of each family in `families` (clusterIPs[i] for ipFamilies[i]):
   * the one asked for, else a free one. Returns what it took; takes nothing when it refuses.
   */
  #allocateIPs(svc: KObject, spec: ServiceSpec, families: readonly string[], dryRun: boolean): string[] {
    const ips = (spec.clusterIPs ??= []);
    const taken: string[] = [];
    for (const family of families) {
      const i = spec.ipFamilies!.indexOf(family);
      const range = this.ranges.get(family as IPFamily)!;
      const asked = ips[i] ?? '';
      if (asked === '') {
        const picked = dryRun ? { ip: range.network } : range.allocateNext();
        if ('error' in picked) {
          this.#release(taken, dryRun);
          throw internal(`failed to allocate a serviceIP: ${picked.error}`);
        }
        ips[i] = picked.ip;
      } else {
        const error = range.allocate(asked, dryRun);
        if (error) {
          this.#release(taken, dryRun);
          this.#refuseIf(svc, [{ reason: 'FieldValueInvalid', field: 'spec.clusterIPs', message: `Invalid value: ${goStrings(ips)}: failed to allocate IP ${asked}: ${error}` }]);
        }
      }
      taken.push(ips[i]!);
    }
    spec.clusterIP = ips[0];
    return taken;
  }

  /** The address changes of a type change or a move to or from dual stack (updateClusterIPs). */
  #updateIPs(svc: KObject, spec: ServiceSpec, old: ServiceSpec, dryRun: boolean): { taken: string[]; givenUp: string[] } {
    const none = { taken: [], givenUp: [] };
    if (unchangedPreferDualStack(spec, old)) return none;
    if (old.type === 'ExternalName' && spec.type !== 'ExternalName')
      return { taken: isHeadless(spec) ? [] : this.#allocateIPs(svc, spec, spec.ipFamilies ?? [], dryRun), givenUp: [] };
    if (old.clusterIPs?.[0] === NONE) return none;
    if (old.type !== 'ExternalName' && spec.type === 'ExternalName') return { taken: [], givenUp: old.clusterIPs ?? [] };
    const before = old.ipFamilies?.length ?? 0, after = spec.ipFamilies?.length ?? 0;
    if (before === 1 && after === 2) return { taken: this.#allocateIPs(svc, spec, [spec.ipFamilies![1]!], dryRun), givenUp: [] };
    if (before === 2 && after === 1) return { taken: [], givenUp: [old.clusterIPs?.[1] ?? ''] };
    return none;
  }

  #release(ips: readonly string[], dryRun: boolean): void {
    if (!dryRun) for (const ip of ips) this.#rangeOf(ip)?.release(ip);
  }
}

/** The node ports a stored Service holds, its health-check port among them. */
function held(spec: ServiceSpec): number[] {
  const ports = nodePortsOf(spec);
  if (needsHealthCheck(spec) && spec.healthCheckNodePort) ports.push(spec.healthCheckNodePort);
  return ports;
}
