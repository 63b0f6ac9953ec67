// Endpoints (core/v1): a Service's addresses, grouped in subsets sharing ports. Ports default to
// TCP (SetDefaults_Endpoints); ValidateEndpoints' address, port and subset rules; printEndpoints.
// Deviation: addresses in special ranges (loopback, link-local) are accepted, since the API
// server's own address, which the `kubernetes` Service's Endpoints name, is 127.0.0.1 here.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { fill, items, zero } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, int, list, nameColumn, nameOf, text } from '../tables-format.ts';
import { addressCauses, portCauses } from './endpoint-rules.ts';

function defaults(ep: KObject): void {
  for (const subset of items(ep, 'subsets')) for (const port of items(subset, 'ports')) fill(port, [zero('protocol', 'TCP')]);
}

function validate(ep: KObject): StatusCause[] {
  const causes: StatusCause[] = [];
  list(ep.subsets).forEach((s, i) => {
    const at = `subsets[${i}]`;
    const subset = fields(s);
    const addresses = list(subset.addresses), notReady = list(subset.notReadyAddresses), ports = list(subset.ports);
    if (addresses.length + notReady.length === 0)
      causes.push({ reason: 'FieldValueRequired', field: at, message: 'Required value: must specify `addresses` or `notReadyAddresses`' });
    addresses.forEach((a, j) => causes.push(...addressCauses(fields(a), `${at}.addresses[${j}]`)));
    notReady.forEach((a, j) => causes.push(...addressCauses(fields(a), `${at}.notReadyAddresses[${j}]`)));
    const names = new Set<string>();
    ports.forEach((p, j) => causes.push(...portCauses(fields(p), `${at}.ports[${j}]`, ports.length > 1, names, true)));
  });
  return causes;
}

/** `ip:port` of each address and port, at most three, then "+ N more..." (formatEndpoints). */
function formatEndpoints(ep: KObject): string {
  const subsets = list(ep.subsets).map((s) => fields(s));
  if (subsets.length === 0) return '<none>';
  const shown: string[] = [];
  let count = 0;
  for (const s of subsets) {
    const ips = list(s.addresses).map((a) => text(fields(a).ip));
    const ports = list(s.ports).map((p) => int(fields(p).port));
    for (const port of ports.length ? ports : [undefined]) {
      count += ips.length;
      for (const ip of ips) {
        if (shown.length === 3) break;
        shown.push(port === undefined ? ip : ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`);
      }
    }
  }
  return count > 3 ? `${shown.join(',')} + ${count - 3} more...` : shown.join(',');
}

export const endpoints = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  defaults,
  validate,
  printer: {
    columns: [nameColumn, column('Endpoints', 'The set of all endpoints is the union of all subsets. Addresses are placed into subsets according to the IPs they share. A single address with multiple ports, some of which are ready and some of which are not (because they come from different containers) will result in the address being displayed in different subsets for the different ports. No address will appear in both Addresses and NotReadyAddresses in the same subset. Sets of addresses and ports that comprise a service.'), ageColumn],
    cells: (o, nowMs) => [nameOf(o), formatEndpoints(o), age(o, nowMs)],
  },
});
