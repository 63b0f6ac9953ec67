// What `orchsim scheduler` and `orchsim controller-manager` share: reading a YAML or JSON file an
// option names, reaching the API server's bus (`--master nats://host:port`: in orchsim, components
// reach the API server over the bus it serves on, `orchsim apiserver --bus`), and running until
// SIGINT or SIGTERM, then stopping gracefully (a leader releases its Lease).
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { parse as parseYaml } from 'yaml';
import { OptionError } from '../../actors/api/options/table.ts';
import { NatsBus } from '../../transport/nats-bus.ts';

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

/** The bus `--master` names. */
export async function connectMaster(master: string | undefined, name: string): Promise<NatsBus> {
  if (master === undefined || master === '')
    throw new OptionError('--master is required: the NATS URL the API server serves its bus on (orchsim apiserver --bus nats://HOST:PORT)');
  if (!master.split(',').every((url) => /^nats:\/\/[^/\s,]+$/.test(url)))
    throw new OptionError(`invalid value ${JSON.stringify(master)} for --master: must be nats://HOST:PORT, the bus the API server serves on (orchsim components reach it over its bus, not HTTPS)`);
  return NatsBus.connect({ servers: master, name });
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
