// The option table's reading of command lines, files and code, its rules and its help.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTROL_PLANE_GATES, NODE_AGENT_GATES, checkGates, gateEnabled } from '../../../../actors/api/options/feature-gates.ts';
import { helpText } from '../../../../actors/api/options/help.ts';
import { bool, csvFields, duration, float, int32, portRange, stringMap, strings } from '../../../../actors/api/options/kinds.ts';
import { OptionError, OptionTable, type OptionSpec } from '../../../../actors/api/options/table.ts';

interface Opts {
  periodMs: number;
  leader: boolean;
  names: string[];
  rate: number;
  lease: number;
  renew: number;
}

const specs: OptionSpec<Opts>[] = [
  { name: 'period', kind: duration, key: 'periodMs', default: 5_000, group: 'Main', help: 'how often', rule: (v: number) => (v > 0 ? undefined : 'must be greater than 0') },
  { name: 'leader-elect', kind: bool, key: 'leader', default: true, group: 'Main', help: 'elect' },
  { name: 'controllers', kind: strings, key: 'names', default: ['*'], group: 'Main', help: 'which' },
  { name: 'rate', kind: float, key: 'rate', default: 0.1, group: 'Main', help: 'per second' },
  { name: 'lease', kind: int32, key: 'lease', default: 15, group: 'Election', help: 'seconds' },
  { name: 'renew', kind: int32, key: 'renew', default: 10, group: 'Election', help: 'seconds' },
  { name: 'v', short: 'v', kind: int32, default: 0, group: 'Logs', help: 'verbosity' },
  { name: 'labels', kind: stringMap, group: 'Main', help: 'labels' },
  { name: 'old-flag', kind: bool, default: false, group: 'Main', help: 'old', deprecated: 'use --period instead' },
  { name: 'cloud', kind: bool, default: false, group: 'Main', help: 'a cloud', inert: 'no cloud is simulated' },
];
const table = new OptionTable<Opts>('test component', specs, [
  { names: ['renew', 'lease'], check: (v) => ((v('renew') as number) <= (v('lease') as number) ? undefined : `--renew (${v('renew')}) must be at most --lease (${v('lease')})`) },
]);

test('defaults come from the table', () => {
  assert.equal(table.defaults(), { periodMs: 5_000, leader: true, names: ['*'], rate: 0.1, lease: 15, renew: 10 });
  assert.equal(table.parse([]).extra, { v: 0, 'old-flag': false, cloud: false });
});

test('the command line forms the components accept', () => {
  const r = table.parse(['--period=10s', '--leader-elect=false', '--controllers', 'a,b', '--controllers=-c', '-v', '3', '--rate=0.5', 'file.yaml', '--labels=a=1,b=2', '--labels', 'c=3']);
  assert.equal(r.options.periodMs, 10_000);
  assert.is(r.options.leader, false);
  assert.equal(r.options.names, ['a', 'b', '-c']);
  assert.is(r.options.rate, 0.5);
  assert.is(r.extra.v, 3);
  assert.equal(r.extra.labels, { a: '1', b: '2', c: '3' });
  assert.equal(r.positional, ['file.yaml']);
  assert.equal([...r.given].sort(), ['controllers', 'labels', 'leader-elect', 'period', 'rate', 'v']);
  assert.is(table.parse(['--leader-elect']).options.leader, true);
  assert.is(table.parse(['-v=2']).extra.v, 2);
  assert.is(table.parse(['--v=4']).extra.v, 4);
  assert.equal(table.parse(['--leader_elect=false']).options.leader, false, 'underscores read as dashes');
  assert.equal(table.parse(['--', '--period=1s']).positional, ['--period=1s']);
});

test('bad command lines name the flag, the value and the rule', () => {
  const cases: [string[], string][] = [
    [['--nope'], 'unknown flag: --nope'],
    [['--period'], 'flag needs an argument: --period'],
    [['--period=0s'], 'invalid value "0s" for --period: must be greater than 0'],
    [['--period=ten'], 'invalid value "ten" for --period: must be a duration such as 10s, 5m0s or 1h0m0s'],
    [['--leader-elect=yes'], 'invalid value "yes" for --leader-elect: must be true or false'],
    [['--lease=1.5'], 'invalid value "1.5" for --lease: must be an integer (32-bit)'],
    [['--renew=20'], '--renew (20) must be at most --lease (15)'],
    [['--labels=a'], 'invalid value "a" for --labels: must be key=value pairs separated by commas; "a" is not key=value'],
  ];
  for (const [argv, says] of cases) {
    try {
      table.parse(argv);
      assert.unreachable(`${argv.join(' ')} was accepted`);
    } catch (e) {
      assert.instance(e, OptionError);
      assert.is((e as Error).message, says);
    }
  }
  // The cross rule reads the options as given, whichever comes first.
  assert.is(table.parse(['--renew=20', '--lease=30']).options.renew, 20);
});

test('deprecated options are taken with a warning', () => {
  const r = table.parse(['--old-flag']);
  assert.equal(r.warnings, ['Flag --old-flag has been deprecated, use --period instead']);
  assert.equal(table.parse([]).warnings, []);
});

test('file and scenario values: YAML scalars, lists and mappings, by flag name', () => {
  const values = table.readValues({ period: '1m0s', 'leader-elect': false, controllers: ['x', 'y'], rate: 2, labels: { a: 'b' } });
  const r = table.resolve(values);
  assert.equal(r.options, { periodMs: 60_000, leader: false, names: ['x', 'y'], rate: 2, lease: 15, renew: 10 });
  assert.throws(() => table.readValues({ perod: '1s' }, 'scenario: '), (e: Error) => e.message === 'scenario: unknown test component option "perod"; did you mean "period"?');
  assert.throws(() => table.readValues({ rate: 'fast' }), (e: Error) => e.message === 'invalid value "fast" for --rate: must be a number');
  assert.throws(() => table.readValues({ labels: ['a'] }), /must be a mapping/);
});

test('typed fields from code go through the same rules', () => {
  assert.equal(table.options({ periodMs: 2_000 }).periodMs, 2_000);
  assert.throws(() => table.options({ periodMs: 0 }), (e: Error) => e.message === 'invalid value "0s" for --period: must be greater than 0');
  assert.throws(() => table.options({ periodMs: '5s' as unknown as number }), /--period \(periodMs\): must be of kind duration/);
  assert.throws(() => table.options({ nope: 1 } as unknown as Partial<Opts>), /unknown test component option nope/);
});

test('a table refuses an option or field listed twice', () => {
  assert.throws(() => new OptionTable('t', [specs[0], specs[0]]), /--period is in the table twice/);
  assert.throws(() => new OptionTable('t', [specs[0], { ...specs[1], key: 'periodMs' }]), /field periodMs is set by --period and --leader-elect/);
});

test('kinds: Go csv fields, port ranges, 32-bit integers', () => {
  assert.equal(csvFields('a,"b,c",d'), ['a', 'b,c', 'd']);
  assert.equal(csvFields('"say ""hi"""'), ['say "hi"']);
  assert.throws(() => csvFields('"open'), /unterminated double quote/);
  assert.equal(portRange.parse('30000-32767'), { base: 30000, size: 2768 });
  assert.equal(portRange.parse('30000+10'), { base: 30000, size: 10 });
  assert.equal(portRange.parse('8080'), { base: 8080, size: 1 });
  assert.throws(() => portRange.parse('70000-70001'), /within 0-65535/);
  assert.is(int32.parse('0x10'), 16);
  assert.is(int32.parse('-2147483648'), -(2 ** 31));
  assert.throws(() => int32.parse('2147483648'), /32-bit/);
});

test('feature gates: unknown names, locked values, AllAlpha and AllBeta', () => {
  assert.is(checkGates(CONTROL_PLANE_GATES, { APIListChunking: false }), undefined);
  assert.is(checkGates(CONTROL_PLANE_GATES, { Nope: true }), 'unrecognized feature gate: Nope');
  assert.is(checkGates(CONTROL_PLANE_GATES, { EphemeralContainers: true }), 'unrecognized feature gate: EphemeralContainers');
  assert.is(checkGates(NODE_AGENT_GATES, { EphemeralContainers: false }), 'cannot set feature gate EphemeralContainers to false, feature is locked to true');
  assert.is(checkGates(NODE_AGENT_GATES, { EphemeralContainers: true }), undefined);
  assert.is(gateEnabled(CONTROL_PLANE_GATES, {}, 'APIListChunking'), true);
  assert.is(gateEnabled(CONTROL_PLANE_GATES, {}, 'NodeSwap'), false);
  assert.is(gateEnabled(CONTROL_PLANE_GATES, { AllAlpha: true }, 'NodeSwap'), true);
  assert.is(gateEnabled(CONTROL_PLANE_GATES, { AllAlpha: true, NodeSwap: false }, 'NodeSwap'), false);
  assert.is(gateEnabled(CONTROL_PLANE_GATES, { AllBeta: false }, 'APIListChunking'), false);
  assert.is(gateEnabled(CONTROL_PLANE_GATES, { AllAlpha: true }, 'MinDomainsInPodTopologySpread'), false, 'AllAlpha leaves beta gates alone');
});

test('help: grouped, with defaults, deprecations and what the simulator ignores', () => {
  const text = helpText('orchsim test', 'A test component.', table);
  const main = text.indexOf('Main:');
  const election = text.indexOf('Election:');
  assert.ok(main > 0 && election > main && text.indexOf('Logs:') > election, text);
  assert.match(text, /--period duration\n\s+how often \(default 5s\)/);
  assert.match(text, /-v, --v int32/);
  assert.match(text, /--leader-elect\n\s+elect \(default true\)/);
  assert.match(text, /--cloud\n\s+a cloud \(no effect in the simulator: no cloud is simulated\)/);
  assert.match(text, /--old-flag\n\s+old \(DEPRECATED: use --period instead\)/);
});

test.run();
