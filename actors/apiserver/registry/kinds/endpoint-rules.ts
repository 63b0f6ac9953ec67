// The address and port rules Endpoints and EndpointSlices share (ValidateEndpoints' and
// ValidateEndpointSlice's): addresses are IPs, hostnames DNS labels, node names DNS subdomains,
// ports named by DNS labels with a supported protocol.
import type { StatusCause } from '../../../api/status.ts';
import { validateName } from '../../validation/names.ts';
import { familyOf } from '../service-ranges.ts';
import type { Fields } from '../tables-format.ts';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** A valid address of `family` (any family when absent); Go's parser refuses zones. */
export function isAddress(ip: unknown, family?: 'IPv4' | 'IPv6'): boolean {
  if (typeof ip !== 'string' || ip.includes('%')) return false;
  const found = familyOf(ip);
  return found !== undefined && (family === undefined || found === family);
}

/** An address's own hostname and nodeName; its IP is checked by the caller's rule. */
export function placeCauses(address: Fields, at: string): StatusCause[] {
  const causes: StatusCause[] = [];
  if (typeof address.hostname === 'string' && address.hostname !== '') causes.push(...validateName(address.hostname, 'label', `${at}.hostname`));
  if (typeof address.nodeName === 'string') causes.push(...validateName(address.nodeName, 'subdomain', `${at}.nodeName`));
  return causes;
}

/** An Endpoints address (validateEndpointAddress). */
export function addressCauses(address: Fields, at: string): StatusCause[] {
  const ip = address.ip;
  const causes: StatusCause[] = isAddress(ip) ? []
    : [{ reason: 'FieldValueInvalid', field: `${at}.ip`, message: `Invalid value: ${JSON.stringify(ip ?? '')}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)` }];
  return [...causes, ...placeCauses(address, at)];
}

/**
 * A port. Endpoints (`numbered`) need a port number and a name when a subset has several; slices
 * allow the empty name once and a port without a number ("all ports").
 */
export function portCauses(port: Fields, at: string, requireName: boolean, names: Set<string>, numbered: boolean): StatusCause[] {
  const causes: StatusCause[] = [];
  const name = typeof port.name === 'string' ? port.name : '';
  if (requireName && name === '') causes.push({ reason: 'FieldValueRequired', field: `${at}.name`, message: 'Required value' });
  else if (name !== '') causes.push(...validateName(name, 'label', `${at}.name`));
  if (!numbered) {
    if (names.has(name)) causes.push({ reason: 'FieldValueDuplicate', field: `${at}.name`, message: `Duplicate value: ${JSON.stringify(name)}` });
    names.add(name);
  }
  const n = port.port;
  if ((numbered || n !== undefined) && !(Number.isInteger(n) && (n as number) >= 1 && (n as number) <= 65535))
    causes.push({ reason: 'FieldValueInvalid', field: `${at}.port`, message: `Invalid value: ${JSON.stringify(n ?? 0)}: must be between 1 and 65535, inclusive` });
  const protocol = port.protocol;
  if (typeof protocol !== 'string' || protocol === '') causes.push({ reason: 'FieldValueRequired', field: `${at}.protocol`, message: 'Required value' });
  else if (!PROTOCOLS.includes(protocol))
    causes.push({ reason: 'FieldValueNotSupported', field: `${at}.protocol`, message: `Unsupported value: ${JSON.stringify(protocol)}: supported values: "SCTP", "TCP", "UDP"` });
  return causes;
}
