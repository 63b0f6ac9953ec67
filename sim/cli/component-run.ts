// What `orchsim scheduler` and `orchsim controller-manager` share: reading a YAML or JSON file an
// option names, reaching the API server's bus (`--master nats://host:port` or the server of an
// `--orchconfig` kubeconfig: in orchsim, components reach the API server over the bus it serves on,
// `orchsim apiserver --bus`), and running until
// SIGINT or SIGTERM, then stopping gracefully (a leader releases its Lease).
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { versionText } from '../../actors/api/options/common.ts';
import { OptionError, type OptionTable } from '../../actors/api/options/table.ts';
import { isNatsUrl, NatsBus } from '../../transport/nats-bus.ts';
import type { Registry } from '../../actors/api/metrics.ts';
import { startComponentServer, type ComponentServer, type HealthChecks } from '../component-server.ts';
import type { Clock } from '../../actors/api/env.ts';
import { ActorSystem, type ActorSystemOptions } from '../../actors/system/actor-system.ts';
import { inspectRequest, openInspectLog } from '../inspect-log.ts';

/** A file's mapping, YAML or JSON; errors name the file. */
export function readMappingFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new OptionError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new OptionError(`${path}: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) throw new OptionError(`${path}: must hold a mapping (apiVersion, kind and fields)`);
  return doc as Record<string, unknown>;
}

/**
 * The API server's bus: `--master`, else the server of the connection file (`--orchconfig`, a
 * kubeconfig: its current context's cluster, or its only cluster).
 */
export function masterUrl(master: string | undefined, orchconfig: string | undefined): string {
  if (master !== undefined && master !== '') return master;
  if (orchconfig === undefined) throw new OptionError('give --master nats://HOST:PORT or --orchconfig FILE: the bus the API server serves on (orchsim apiserver --bus nats://HOST:PORT)');
  const doc = readMappingFile(orchconfig) as { clusters?: { name?: string; cluster?: { server?: string } }[]; contexts?: { name?: string; context?: { cluster?: string } }[]; 'current-context'?: string };
  const context = doc.contexts?.find((c) => c.name === doc['current-context']);
  const cluster = context ? doc.clusters?.find((c) => c.name === context.context?.cluster) : doc.clusters?.length === 1 ? doc.clusters[0] : undefined;
  const server = cluster?.cluster?.server;
  if (typeof server !== 'string') throw new OptionError(`${orchconfig}: no server found (its current context's cluster, or its only cluster, must have cluster.server)`);
  return server;
}

/** The bus at `url` (nats://HOST:PORT, or several comma-separated). */
export async function connectMaster(url: string, name: string): Promise<NatsBus> {
  if (!isNatsUrl(url))
    throw new OptionError(`invalid API server address ${JSON.stringify(url)}: must be nats://HOST:PORT, the bus the API server serves on (orchsim components reach it over its bus, not HTTPS)`);
  return NatsBus.connect({ servers: url, name });
}

/** The identity a replica holds its Lease under, as the real components make it: host and a unique suffix. */
export const replicaIdentity = () => `${hostname()}_${randomUUID()}`;

/** Resolves on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<string> {
  return new Promise((done) => {
    const on = (signal: string) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      done(signal);
    };
    process.once('SIGINT', on);
    process.once('SIGTERM', on);
  });
}

/**
 * The secure port of the controller manager or the scheduler, from their common flags:
 * /healthz, /livez, /readyz and /metrics (none with --secure-port=0).
 */
export function serveSecurePort(extra: Record<string, unknown>, pairName: string, registries: () => Registry[],
  checks: { healthz: HealthChecks; readyz: HealthChecks }): Promise<ComponentServer | undefined> {
  const file = (name: string) => (extra[name] as string | undefined);
  return startComponentServer({
    bindAddress: extra['bind-address'] as string, port: extra['secure-port'] as number, pairName, registries,
    ...(file('cert-dir') ? { certDir: file('cert-dir') } : {}),
    ...(file('tls-cert-file') ? { tlsCertFile: file('tls-cert-file') } : {}),
    ...(file('tls-private-key-file') ? { tlsPrivateKeyFile: file('tls-private-key-file') } : {}),
    checks: { healthz: checks.healthz, livez: checks.healthz, readyz: checks.readyz },
  });
}

/**
 * What the command line asks to print instead of running: -h/--help or --version, which win over
 * every other flag's rule, as in the real components. Undefined to go on; arguments that are not
 * flags are refused.
 */
export function helpOrVersion<T>(table: OptionTable<T>, argv: readonly string[], command: string, help: () => string): string | undefined {
  const { values, positional } = table.parseArgs(argv);
  if (values.get('help') === true) return help();
  const version = versionText(String(values.get('version') ?? 'false'));
  if (version !== undefined) return version;
  if (positional.length > 0) throw new OptionError(`unexpected argument ${JSON.stringify(positional[0])}: orchsim ${command} takes only flags`);
  return undefined;
}

/**
 * The process's actor system on `clock`, writing its inspection log when the command line
 * (`--inspect-log`, `--inspect-machines`, read into `flags`) asks for one; `close` ends the log.
 * `options` are the system's own (records kept per actor, for an inspector).
 */
export function processSystem(clock: Clock, flags: Record<string, unknown>, options: ActorSystemOptions = {}): { system: ActorSystem; close(): void } {
  const system = new ActorSystem(clock, options);
  const request = inspectRequest(flags);
  const log = request && openInspectLog(system, request.file, request.machines);
  return { system, close: () => log?.close() };
}
