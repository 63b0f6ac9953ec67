// Which resource names quotas and limit ranges may name (pkg/apis/core/validation and helper):
// standard names without a domain, anything qualified with one, and for containers only what a
// container can request.
import type { StatusCause } from '../../api/status.ts';
import { validateQualifiedKey } from '../validation/names.ts';
import { invalid } from './kinds/rules.ts';

const STANDARD = new Set(['cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage',
  'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets',
  'configmaps', 'persistentvolumeclaims', 'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers']);
const STANDARD_QUOTA = new Set([...STANDARD].filter((n) => n !== 'storage'));
/** Counted in whole units: a quota on them may not be fractional. */
const INTEGER = new Set(['pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'services.nodeports', 'services.loadbalancers']);

const isHugePages = (name: string) => name.startsWith('hugepages-') || name.startsWith('requests.hugepages-');
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
/** An extended resource: a domain outside kubernetes.io, not a `requests.` quota name, qualified once prefixed with `requests.`. */
export const isExtendedResource = (name: string) =>
  !isNative(name) && !name.startsWith('requests.') && validateQualifiedKey(`requests.${name}`, '').length === 0;

/** Resources a container asks for by the same amount it is limited to: hugepages and extended resources. */
export const isOvercommitAllowed = (name: string) => isNative(name) && !name.startsWith('hugepages-');

export const isIntegerResource = (name: string) => INTEGER.has(name) || isExtendedResource(name);

/** validateResourceName: qualified, and standard unless it has a domain. */
export function validateResourceName(name: string, field: string): StatusCause[] {
  const qualified = validateQualifiedKey(name, field);
  if (qualified.length) return qualified;
  if (!name.includes('/') && !STANDARD.has(name) && !isHugePages(name)) return [invalid(field, JSON.stringify(name), 'must be a standard resource type or fully qualified')];
  return [];
}

/** ValidateResourceQuotaResourceName. */
export function validateQuotaResourceName(name: string, field: string): StatusCause[] {
  const causes = validateResourceName(name, field);
  if (!name.includes('/') && !STANDARD_QUOTA.has(name) && !isHugePages(name)) causes.push(invalid(field, JSON.stringify(name), 'must be a standard resource for quota'));
  return causes;
}

/** validateContainerResourceName: what a Pod or Container limit may name. */
export function validateContainerResourceName(name: string, field: string): StatusCause[] {
  const causes = validateResourceName(name, field);
  if (!name.includes('/')) {
    if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !name.startsWith('hugepages-'))
      causes.push(invalid(field, JSON.stringify(name), 'must be a standard resource for containers'));
  } else if (!isNative(name) && !isExtendedResource(name)) {
    causes.push(invalid(field, JSON.stringify(name), "doesn't follow extended resource name standard"));
  }
  return causes;
}
