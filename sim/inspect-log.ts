// `--inspect-log FILE`: the actor system's records as JSON lines, in the order they happened,
// optionally only those of some machines (`--inspect-machines node-health,zone`). Lines are
// gathered and written a block at a time with synchronous writes: under virtual time nothing
// else waits on the disk, and the memory held stays bounded whatever the run's length.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { ActorSystem } from '../actors/system/actor-system.ts';
import type { InspectionRecord } from '../actors/system/records.ts';
import { OptionError } from '../actors/api/options/table.ts';

/** Bytes gathered before a write. */
const BLOCK_BYTES = 1 << 20;

export interface InspectLog {
  /** Writes what is gathered and closes the file. */
  close(): void;
}

/** What `--inspect-log` and `--inspect-machines` ask for. */
export interface InspectRequest {
  readonly file: string;
  readonly machines: readonly string[];
}

/**
 * The inspection log a command line asks for (the two options, read into `flags`), or undefined.
 * Checked before the command runs anything: machines without a file, or a file that cannot be
 * written (it is created, or truncated, now), are an OptionError saying so.
 */
export function inspectRequest(flags: Record<string, unknown>): InspectRequest | undefined {
  const file = flags['inspect-log'] as string | undefined;
  const machines = (flags['inspect-machines'] as string[] | undefined) ?? [];
  if (file === undefined) {
    if (machines.length > 0) throw new OptionError('--inspect-machines chooses what --inspect-log writes: give --inspect-log FILE too');
    return undefined;
  }
  closeSync(openLog(file));
  return { file, machines };
}

function openLog(file: string): number {
  try {
    return openSync(file, 'w');
  } catch (e) {
    throw new OptionError(`--inspect-log ${file}: cannot write it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Starts writing `system`'s records to `file` (created or truncated); only `machines`' when given and not empty. */
export function openInspectLog(system: ActorSystem, file: string, machines: readonly string[] = []): InspectLog {
  const fd = openLog(file);
  const keep = machines.length > 0 ? new Set(machines) : undefined;
  let lines: string[] = [];
  let bytes = 0;
  const flush = () => {
    if (lines.length === 0) return;
    writeSync(fd, lines.join(''));
    lines = [];
    bytes = 0;
  };
  const unsubscribe = system.onRecord((r: InspectionRecord) => {
    if (keep && !keep.has(r.machine)) return;
    const line = `${JSON.stringify(r)}\n`;
    lines.push(line);
    bytes += line.length;
    if (bytes >= BLOCK_BYTES) flush();
  });
  let closed = false;
  return {
    close() {
      if (closed) return;
      closed = true;
      unsubscribe();
      flush();
      closeSync(fd);
    },
  };
}
