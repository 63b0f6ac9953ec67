// The table-driven check of a component's options against seed 001: each row, transcribed from
// the seed by hand, gives an option's default as the seed writes it, a valid value and the invalid
// forms of its rule with the error each must give. Every kind's malformed text is tried as well.
// The rows must name exactly the table's options, so an option missing from either side fails.
import * as assert from 'uvu/assert';
import { OptionError, type OptionTable } from '../../actors/api/options/table.ts';

export interface OptionCase {
  name: string;
  /** The default as help writes it (`5m0s`, `[*]`), or undefined for none. */
  default: string | undefined;
  /** A value the option takes, as typed on the command line. */
  valid: string;
  /** Values its rule refuses, each with a piece of the expected message. */
  invalid?: [text: string, says: string][];
  /** Flags given alongside, for an option a cross rule ties to another (`--oidc-client-id` with `--oidc-issuer-url`). */
  with?: string[];
}

/** Text no value of the kind is written as, and what the message then says. */
const MALFORMED: Record<string, [string, string]> = {
  bool: ['maybe', 'must be true or false'],
  int: ['12x', 'must be an integer'],
  int32: ['3000000000', 'must be an integer (32-bit)'],
  float: ['0.1.2', 'must be a number'],
  duration: ['5 minutes', 'must be a duration such as 10s, 5m0s or 1h0m0s'],
  mapStringString: ['novalue', 'must be key=value pairs'],
  mapStringBool: ['Gate=perhaps', 'must be true or false'],
  quantity: ['12 apples', 'must be a quantity'],
  ip: ['10.0.0.300', 'must be an IPv4 or IPv6 address'],
  cidrs: ['10.0.0.0/33', 'must be CIDRs'],
  portRange: ['32767-30000', 'must be a port range'],
  'pattern=N,...': ['gc=high', 'must be pattern=N entries'],
  'version[=true]': ['sometimes', 'must be true, false or raw'],
};

function expectError(table: OptionTable<unknown>, argv: string[], says: string, what: string): void {
  try {
    table.parse(argv);
  } catch (e) {
    assert.instance(e, OptionError, `${what}: ${(e as Error).message}`);
    const message = (e as Error).message;
    assert.ok(message.includes(says), `${what}: expected the message to say ${JSON.stringify(says)}, got ${JSON.stringify(message)}`);
    return;
  }
  assert.unreachable(`${what}: ${argv.join(' ')} was accepted`);
}

/** Checks `table` against `rows`; returns how many checks ran. */
export function checkOptionTable<T>(table: OptionTable<T>, rows: OptionCase[]): number {
  const t = table as OptionTable<unknown>;
  const inTable = t.specs.map((s) => s.name).sort();
  const inRows = rows.map((r) => r.name).sort();
  assert.equal(inTable.filter((n) => !inRows.includes(n)), [], `${table.component}: options of the table with no row`);
  assert.equal(inRows.filter((n) => !inTable.includes(n)), [], `${table.component}: rows for options the table lacks`);
  let checks = 0;
  for (const row of rows) {
    const spec = t.spec(row.name)!;
    const shown = spec.default === undefined ? undefined : (spec.kind.format as (v: unknown) => string)(spec.default);
    assert.is(spec.defaultText ?? shown, row.default, `--${row.name}: default`);
    const parsed = t.parse([...(row.with ?? []), `--${row.name}=${row.valid}`]);
    assert.ok(parsed.given.has(row.name), `--${row.name}=${row.valid} was not taken`);
    checks += 2;
    for (const [text, says] of row.invalid ?? []) {
      expectError(t, [...(row.with ?? []), `--${row.name}=${text}`], says, `--${row.name}=${text}`);
      expectError(t, [...(row.with ?? []), `--${row.name}=${text}`], `--${row.name}`, `--${row.name}=${text} names the option`);
      checks++;
    }
    const malformed = MALFORMED[spec.kind.name];
    if (malformed) {
      expectError(t, [`--${row.name}=${malformed[0]}`], malformed[1], `--${row.name}=${malformed[0]}`);
      expectError(t, [`--${row.name}=${malformed[0]}`], JSON.stringify(malformed[0]), `--${row.name}=${malformed[0]} names the value`);
      checks++;
    }
  }
  return checks;
}
