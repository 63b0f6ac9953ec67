// Where a webhook's service reference is dialled. orchsim has no pod network to route a cluster IP
// to, so a Service is reached through the addresses it lists: those of its Endpoints (as
// --enable-aggregator-routing resolves it, proxy.ResolveEndpoint), else of its EndpointSlices, else
// its spec.externalName. This is how a cluster points at a webhook outside it: a Service without
// a selector and Endpoints naming 127.0.0.1, or an ExternalName Service. Errors are worded as the
// real resolvers word them; the caller puts them after `Post "<url>":`, as a failed dial.
import type { KObject } from '../../../api/types.ts';
import type { ServiceReference } from './source.ts';

/** Namespaced objects by group and resource, read where the registry keeps them (whether or not their kind is served). */
export interface StoreReader {
  get(group: string, resource: string, namespace: string, name: string): Promise<KObject | undefined>;
  list(group: string, resource: string, namespace: string): Promise<KObject[]>;
}

export interface Address { host: string; port: number }

type Fields = Record<string, unknown>;
const objects = (v: unknown): Fields[] => (Array.isArray(v) ? v.filter((x): x is Fields => typeof x === 'object' && x !== null) : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const SERVICE_NAME_LABEL = 'kubernetes.io/service-name';

/** The address of the service's port `port`; throws an Error saying why there is none. */
export async function resolveService(ref: ServiceReference, read: StoreReader): Promise<Address> {
  const service = await read.get('', 'services', ref.namespace, ref.name);
  if (!service) throw new Error(`service ${JSON.stringify(ref.name)} not found`);
  const spec = (service.spec ?? {}) as Fields;
  const externalName = str(spec.externalName);
  if (spec.type === 'ExternalName') return { host: externalName, port: ref.port };
  const servicePort = objects(spec.ports).find((p) => p.port === ref.port);
  if (!servicePort && !externalName) throw new Error(`no service port ${ref.port} found for service ${JSON.stringify(ref.name)}`);
  const portName = str(servicePort?.name);
  const found = servicePort && (await fromEndpoints(ref, portName, read) ?? await fromSlices(ref, portName, read));
  if (found) return found;
  if (externalName) return { host: externalName, port: ref.port };
  throw new Error(`no endpoints available for service ${JSON.stringify(ref.name)}`);
}

/** The first address of the first subset that serves the port by its name. */
async function fromEndpoints(ref: ServiceReference, portName: string, read: StoreReader): Promise<Address | undefined> {
  const endpoints = await read.get('', 'endpoints', ref.namespace, ref.name);
  for (const subset of objects((endpoints as Fields | undefined)?.subsets)) {
    const address = objects(subset.addresses)[0];
    const port = objects(subset.ports).find((p) => str(p.name) === portName);
    if (address && port && typeof port.port === 'number') return { host: str(address.ip), port: port.port };
  }
  return undefined;
}

/** The first ready endpoint of the service's slices that serve the port by its name. */
async function fromSlices(ref: ServiceReference, portName: string, read: StoreReader): Promise<Address | undefined> {
  for (const slice of await read.list('discovery.k8s.io', 'endpointslices', ref.namespace)) {
    if (slice.metadata.labels?.[SERVICE_NAME_LABEL] !== ref.name) continue;
    const port = objects((slice as Fields).ports).find((p) => str(p.name) === portName);
    const ready = objects((slice as Fields).endpoints).find((e) => (e.conditions as Fields | undefined)?.ready !== false);
    const address = ready && (ready.addresses as unknown[] | undefined)?.[0];
    if (port && typeof port.port === 'number' && typeof address === 'string') return { host: address, port: port.port };
  }
  return undefined;
}
