// What a Service write fills in before its addresses are allocated, as the real REST layer and
// allocator do (pkg/registry/core/service/storage: normalizeClusterIPs, patchAllocatedValues,
// initIPFamilyFields): clusterIP and clusterIPs kept in step, what an update left out taken from
// the stored object, and ipFamilyPolicy and ipFamilies inferred from the cluster's ranges.
import type { StatusCause } from '../../../api/status.ts';
import type { IPFamily } from '../service-ranges.ts';
import { familyOf } from '../service-ranges.ts';
import { goStrings, needsClusterIP, needsHealthCheck, needsNodePorts, NONE, sameList, type ServiceSpec } from './service-fields.ts';
import { clusterIPsCauses } from './service-validation.ts';

const invalid = (field: string, value: string, message: string): StatusCause =>
  ({ reason: 'FieldValueInvalid', field, message: `Invalid value: ${value}: ${message}` });

/** clusterIP and clusterIPs say the same, whichever the client wrote (normalizeClusterIPs). */
export function normalizeClusterIPs(spec: ServiceSpec, old: ServiceSpec | undefined): void {
  if (!old) {
    if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  // An old client patching some other field leaves clusterIPs out.
  if (old.clusterIPs?.length && !spec.clusterIPs?.length && (old.clusterIP ?? '') === (spec.clusterIP ?? '')) spec.clusterIPs = old.clusterIPs;
  if ((old.clusterIP ?? '') === (spec.clusterIP ?? '')) return;
  if (old.clusterIP && !spec.clusterIP && sameList(old.clusterIPs, spec.clusterIPs)) delete spec.clusterIPs;
  if (spec.clusterIP && sameList(old.clusterIPs, spec.clusterIPs)) spec.clusterIPs = [spec.clusterIP];
}

/** An update that leaves out what the server allocated keeps it (patchAllocatedValues): a PUT of the same manifest changes nothing. */
export function patchAllocatedValues(spec: ServiceSpec, old: ServiceSpec): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if (!spec.clusterIPs?.length && old.clusterIPs?.length) spec.clusterIPs = old.clusterIPs;
  }
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    const used = new Set((spec.ports ?? []).map((p) => p.nodePort ?? 0).filter((n) => (old.ports ?? []).some((o) => o.nodePort === n)));
    const byName = new Map((old.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const p of spec.ports ?? []) {
      const was = byName.get(p.name ?? '') ?? 0;
      if (!p.nodePort && was && !used.has(was)) p.nodePort = was;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) spec.healthCheckNodePort = old.healthCheckNodePort;
}

/** An update between two PreferDualStack Services whose addresses and families did not change touches neither. */
export function unchangedPreferDualStack(spec: ServiceSpec, old: ServiceSpec | undefined): boolean {
  return !!old && spec.ipFamilyPolicy !== undefined && old.type === spec.type && needsClusterIP(spec)
    && spec.ipFamilyPolicy === 'PreferDualStack' && (old.ipFamilyPolicy ?? 'PreferDualStack') === 'PreferDualStack'
    && sameList(old.clusterIPs, spec.clusterIPs) && sameList(old.ipFamilies, spec.ipFamilies);
}

/**
 * Fills ipFamilyPolicy and ipFamilies from the clusterIPs asked for and the families the server
 * has ranges for (`families`, the default first), as initIPFamilyFields does; the causes of a
 * refusal otherwise.
 */
export function initIPFamilies(spec: ServiceSpec, old: ServiceSpec | undefined, families: readonly IPFamily[]): StatusCause[] {
  if (spec.type === 'ExternalName' || unchangedPreferDualStack(spec, old)) return [];
  const selectorless = Object.keys(spec.selector ?? {}).length === 0;
  spec.ipFamilyPolicy ??= old?.ipFamilyPolicy ?? (spec.clusterIP === NONE && selectorless ? 'RequireDualStack' : 'SingleStack');
  const loose = clusterIPsCauses(spec);
  if (loose.length) return loose;
  const causes = old ? updateFamilyCauses(spec, old) : [];
  const policy = JSON.stringify(spec.ipFamilyPolicy);
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (spec.clusterIPs?.length === 2) causes.push(invalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified"));
    if (spec.ipFamilies?.length === 2) causes.push(invalid('spec.ipFamilyPolicy', policy, "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified"));
  }
  const ipFamilies = (spec.ipFamilies ??= []);
  for (const [i, ip] of (spec.clusterIPs ?? []).entries()) {
    if (ip === NONE) break;
    const family = familyOf(ip)!;
    if (i < ipFamilies.length) continue;
    if (families.includes(family)) ipFamilies.push(family);
    else causes.push(invalid(`spec.clusterIPs[${i}]`, goStrings(spec.clusterIPs), `${family} is not configured on this cluster`));
  }
  if (causes.length) return causes;
  if (spec.clusterIP === NONE && selectorless) {
    // Headless and selectorless: any family goes, even on a single-stack cluster.
    if (ipFamilies.length === 0) ipFamilies.push(families[0]!);
    if (ipFamilies.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') ipFamilies.push(other(ipFamilies[0] as IPFamily));
    return [];
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack' && families.length < 2)
    causes.push(invalid('spec.ipFamilyPolicy', policy, 'this cluster is not configured for dual-stack services'));
  ipFamilies.forEach((f, i) => {
    if (!families.includes(f as IPFamily)) causes.push(invalid(`spec.ipFamilies[${i}]`, JSON.stringify(f), 'not configured on this cluster'));
  });
  if (causes.length) return causes;
  if (ipFamilies.length === 0) ipFamilies.push(families[0]!);
  if (spec.ipFamilyPolicy !== 'SingleStack' && ipFamilies.length === 1 && families.length === 2) ipFamilies.push(other(ipFamilies[0] as IPFamily));
  return [];
}

/** An update may drop a secondary address or family only by asking for SingleStack. */
function updateFamilyCauses(spec: ServiceSpec, old: ServiceSpec): StatusCause[] {
  if (spec.ipFamilyPolicy === 'SingleStack') {
    // Clear intent: a single stack keeps the primary address (which may not change anyway).
    if (sameList(old.clusterIPs, spec.clusterIPs) && (spec.clusterIPs?.length ?? 0) > 1) spec.clusterIPs = spec.clusterIPs!.slice(0, 1);
    if (sameList(old.ipFamilies, spec.ipFamilies) && (spec.ipFamilies?.length ?? 0) > 1) spec.ipFamilies = spec.ipFamilies!.slice(0, 1);
    return [];
  }
  const causes: StatusCause[] = [];
  const policy = JSON.stringify(spec.ipFamilyPolicy);
  const reduced = (a: unknown[] | undefined, b: unknown[] | undefined) => (a?.length ?? 0) > 0 && a!.length < (b?.length ?? 0);
  if (reduced(spec.clusterIPs, old.clusterIPs)) causes.push(invalid('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary cluster IP"));
  if (reduced(spec.ipFamilies, old.ipFamilies)) causes.push(invalid('spec.ipFamilyPolicy', policy, "must be 'SingleStack' to release the secondary IP family"));
  return causes;
}

const other = (f: IPFamily): IPFamily => (f === 'IPv4' ? 'IPv6' : 'IPv4');
