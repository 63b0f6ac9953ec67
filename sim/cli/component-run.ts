// What `orchsim scheduler` and `orchsim controller-manager` share: reading a YAML or JSON file an
// option names, and running until SIGINT or SIGTERM, then stopping gracefully (a leader releases
// its Lease). How they reach the API server's bus is bus-kubeconfig.ts.
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { versionText } from '../../actors/api/options/common.ts';
import { OptionError, type OptionTable } from '../../actors/api/options/table.ts';
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
