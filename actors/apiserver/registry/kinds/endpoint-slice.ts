// EndpointSlices (discovery.k8s.io/v1): a share of a Service's endpoints, at most 1000 of them
// and 100 ports, their addressType fixed at creation. Ports default to TCP and the empty name
// (discovery/v1 SetDefaults_EndpointPort); ValidateEndpointSlice's rules; printEndpointSlice.
import type { StatusCause } from '../../../api/status.ts';
import type { KObject } from '../../../api/types.ts';
import { fill, items, nil } from '../defaults-fields.ts';
import { defineKind } from '../kind.ts';
import { age, ageColumn, column, fields, int, list, nameColumn, nameOf, text } from '../tables-format.ts';
import { isAddress, placeCauses, portCauses } from './endpoint-rules.ts';
import { immutable } from './rules.ts';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const MAX_ENDPOINTS = 1000;
const MAX_PORTS = 100;
const MAX_ADDRESSES = 100;
const FQDN = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;

function defaults(slice: KObject): void {
  for (const port of items(slice, 'ports')) fill(port, [nil('name', ''), nil('protocol', 'TCP')]);
}

const tooMany = (field: string, count: number, max: number): StatusCause =>
  ({ reason: 'FieldValueTooMany', field, message: `Too many: ${count}: must have at most ${max} items` });

function endpointCauses(endpoint: Record<string, unknown>, at: string, addressType: string): StatusCause[] {
  const addresses = list(endpoint.addresses);
  const causes: StatusCause[] = [];
  if (addresses.length === 0) causes.push({ reason: 'FieldValueRequired', field: `${at}.addresses`, message: 'Required value: must contain at least 1 address' });
  else if (addresses.length > MAX_ADDRESSES) causes.push(tooMany(`${at}.addresses`, addresses.length, MAX_ADDRESSES));
  addresses.forEach((a, i) => {
    const ok = addressType === 'FQDN' ? typeof a === 'string' && FQDN.test(a) : addressType === 'IPv4' || addressType === 'IPv6' ? isAddress(a, addressType) : true;
    const what = addressType === 'FQDN' ? 'a fully qualified domain name' : `a valid ${addressType} address`;
    if (!ok) causes.push({ reason: 'FieldValueInvalid', field: `${at}.addresses[${i}]`, message: `Invalid value: ${JSON.stringify(a)}: must be ${what}` });
  });
  return [...causes, ...placeCauses(endpoint, at)];
}

function validate(slice: KObject): StatusCause[] {
  const causes: StatusCause[] = [];
  const addressType = text(slice.addressType);
  if (addressType === '') causes.push({ reason: 'FieldValueRequired', field: 'addressType', message: 'Required value' });
  else if (!ADDRESS_TYPES.includes(addressType))
    causes.push({ reason: 'FieldValueNotSupported', field: 'addressType', message: `Unsupported value: ${JSON.stringify(addressType)}: supported values: "FQDN", "IPv4", "IPv6"` });
  const endpoints = list(slice.endpoints);
  if (endpoints.length > MAX_ENDPOINTS) causes.push(tooMany('endpoints', endpoints.length, MAX_ENDPOINTS));
  else endpoints.forEach((e, i) => causes.push(...endpointCauses(fields(e), `endpoints[${i}]`, addressType)));
  const ports = list(slice.ports);
  const names = new Set<string>();
  if (ports.length > MAX_PORTS) causes.push(tooMany('ports', ports.length, MAX_PORTS));
  else ports.forEach((p, i) => causes.push(...portCauses(fields(p), `ports[${i}]`, false, names, false)));
  return causes;
}

/** At most three of `values`, then "+ N more...", or "<unset>" (listWithMoreString). */
function listWithMore(values: string[]): string {
  if (values.length === 0) return '<unset>';
  return values.length > 3 ? `${values.slice(0, 3).join(',')} + ${values.length - 3} more...` : values.join(',');
}

export const endpointSlice = defineKind({
  nameRule: 'subdomain',
  hasStatus: false,
  hasGeneration: false,
  defaults,
  validate,
  validateUpdate: (slice, old) => (slice.addressType === old.addressType ? [] : [immutable('addressType', slice.addressType)]),
  printer: {
    columns: [
      nameColumn,
      column('AddressType', 'addressType specifies the type of address carried by this EndpointSlice. All addresses in this slice must be the same type. This field is immutable after creation. The following address types are currently supported: * IPv4: Represents an IPv4 Address. * IPv6: Represents an IPv6 Address. * FQDN: Represents a Fully Qualified Domain Name.'),
      column('Ports', 'ports specifies the list of network ports exposed by each endpoint in this slice. Each port must have a unique name. When ports is empty, it indicates that there are no defined ports. When a port is defined with a nil port value, it indicates "all ports". Each slice may include a maximum of 100 ports.'),
      column('Endpoints', 'endpoints is a list of unique endpoints in this slice. Each slice may include a maximum of 1000 endpoints.'),
      ageColumn,
    ],
    cells: (o, nowMs) => [
      nameOf(o), text(o.addressType),
      listWithMore(list(o.ports).map((p) => fields(p)).map((p) => (typeof p.port === 'number' ? String(int(p.port)) : typeof p.name === 'string' ? p.name : '*'))),
      listWithMore(list(o.endpoints).flatMap((e) => list(fields(e).addresses).map(text))),
      age(o, nowMs),
    ],
  },
});
