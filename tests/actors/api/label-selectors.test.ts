// The string form of label selectors against the cases of apimachinery's pkg/labels tests (1.32):
// what parses, to which requirements, what each matches, and the real parser's error texts.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseRequirements, type Requirement } from '../../../actors/api/label-selector-parser.ts';
import { parseLabelSelector } from '../../../actors/api/selectors.ts';
import { StatusError } from '../../../actors/api/status.ts';
import type { KObject } from '../../../actors/api/types.ts';

const r = (key: string, operator: Requirement['operator'], values: string[] = []): Requirement => ({ key, operator, values });
const withLabels = (labels?: Record<string, string>): KObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', ...(labels ? { labels } : {}) } });

function refusal(selector: string): string {
  try {
    parseLabelSelector(selector);
  } catch (e) {
    assert.instance(e, StatusError, selector);
    assert.is((e as StatusError).code, 400, selector);
    assert.is((e as StatusError).reason, 'BadRequest', selector);
    return (e as StatusError).message;
  }
  return assert.unreachable(`${JSON.stringify(selector)} parsed`) as never;
}

function matches(selector: string, labels?: Record<string, string>): boolean {
  const m = parseLabelSelector(selector);
  return m ? m(withLabels(labels)) : true;
}

test('every requirement form parses to its operator, key and sorted values', () => {
  assert.equal(parseRequirements('x=a,y==b,z!=c'), [r('x', '=', ['a']), r('y', '==', ['b']), r('z', '!=', ['c'])]);
  assert.equal(parseRequirements('x in (b,a,b),y notin (c)'), [r('x', 'in', ['a', 'b']), r('y', 'notin', ['c'])]);
  assert.equal(parseRequirements('x,!y'), [r('x', 'exists'), r('y', '!')]);
  assert.equal(parseRequirements('x>1,y<7'), [r('x', 'gt', ['1']), r('y', 'lt', ['7'])]);
});

test('blanks separate tokens anywhere, and tabs, newlines and carriage returns are blanks too', () => {
  assert.equal(parseRequirements('  foo  in\t (abc)  '), [r('foo', 'in', ['abc'])]);
  assert.equal(parseRequirements('x notin\n (abc)'), [r('x', 'notin', ['abc'])]);
  assert.equal(parseRequirements('x =\ra , y'), [r('x', '=', ['a']), r('y', 'exists')]);
  assert.equal(parseRequirements(''), []);
  assert.equal(parseRequirements(' \t'), []);
});

test('empty values: x=, a trailing or doubled comma in a set, and () are the empty value', () => {
  assert.equal(parseRequirements('x=,z= '), [r('x', '=', ['']), r('z', '=', [''])]);
  assert.equal(parseRequirements('x in (abc,)'), [r('x', 'in', ['', 'abc'])]);
  assert.equal(parseRequirements('x in ()'), [r('x', 'in', [''])]);
  assert.equal(parseRequirements('x notin ( )'), [r('x', 'notin', [''])]);
  assert.equal(parseRequirements('x notin (abc,,def)'), [r('x', 'notin', ['', 'abc', 'def'])]);
  assert.equal(parseRequirements('x notin (, a)'), [r('x', 'notin', ['', 'a'])]);
});

test('in and notin are words where a key or a value stands, operators only after a key', () => {
  assert.equal(parseRequirements('in'), [r('in', 'exists')]);
  assert.equal(parseRequirements('notin=in'), [r('notin', '=', ['in'])]);
  assert.equal(parseRequirements('a in (x,y,notin, z,in)'), [r('a', 'in', ['in', 'notin', 'x', 'y', 'z'])]);
  assert.equal(parseRequirements('in in (in)'), [r('in', 'in', ['in'])]);
});

test('matching: equality, inequality (true without the label), sets, existence and absence', () => {
  assert.ok(matches('x=y', { x: 'y' }));
  assert.not.ok(matches('x=y', { x: 'z' }));
  assert.not.ok(matches('x=z', {}));
  assert.ok(matches('x!=y,z!=w', { x: 'z', z: 'a' }));
  assert.ok(matches('x!=y'));
  assert.ok(matches('x in (a,b)', { x: 'b' }));
  assert.not.ok(matches('x in (a,b)', { y: 'b' }));
  assert.ok(matches('x notin (a,b)', { y: 'b' }));
  assert.not.ok(matches('x notin (a,b)', { x: 'a' }));
  assert.ok(matches('x in ()', { x: '' }));
  assert.not.ok(matches('x in ()', { x: 'a' }));
  assert.ok(matches('x', { x: '' }));
  assert.ok(matches('!x', { y: 'z' }));
  assert.not.ok(matches('!x', { x: 'z' }));
  assert.ok(matches('notin=in', { notin: 'in' }));
});

test('gt and lt compare 64-bit integers; a value that is no integer, or too big for one, never matches', () => {
  assert.ok(matches('x>1', { x: '2' }));
  assert.not.ok(matches('x>1', { x: '1' }));
  assert.ok(matches('x<1', { x: '0' }));
  assert.ok(matches('x<1', { x: '-5' }));
  assert.not.ok(matches('x<1', { x: '2' }));
  assert.not.ok(matches('x>1', { x: 'two' }));
  assert.not.ok(matches('x>1', {}));
  assert.ok(matches('x>9007199254740992', { x: '9007199254740993' }));
  assert.not.ok(matches('x>1', { x: '9223372036854775808' }));
});

test('a label named like an Object member is an ordinary label', () => {
  assert.not.ok(matches('constructor', {}));
  assert.ok(matches('!toString', { a: 'b' }));
  assert.ok(matches('constructor=x', { constructor: 'x' }));
});

test('grammar errors carry the real parser\'s words, inside a requirement prefixed "unable to parse requirement"', () => {
  assert.match(refusal('x=a||y=b'), /^unable to parse requirement: values\[0\]\[x\]: Invalid value: "a\|\|y": a valid label must be/);
  assert.is(refusal('x==a==b'), "found '==', expected: ',' or 'end of string'");
  assert.is(refusal('!x=a'), "found '=', expected: ',' or 'end of string'");
  assert.is(refusal('x,,y'), "found ',', expected: identifier after ','");
  assert.is(refusal(',x,y'), "found ',', expected: !, identifier, or 'end of string'");
  assert.is(refusal('=web'), "found '=', expected: !, identifier, or 'end of string'");
  assert.is(refusal('a in (xyz),'), "found '', expected: identifier after ','");
  assert.is(refusal('a in (xyz)b notin ()'), "found 'b', expected: ',' or 'end of string'");
  assert.is(refusal('app=not a value'), "found 'a', expected: ',' or 'end of string'");
  assert.is(refusal('x nott in (y)'), "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt");
  assert.is(refusal('a ('), "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt");
  assert.is(refusal('('), "found '(', expected: !, identifier, or 'end of string'");
  assert.is(refusal('!'), "unable to parse requirement: found '', expected: identifier");
  assert.is(refusal('a notin('), "unable to parse requirement: found '', expected: ',', ')' or identifier");
  assert.is(refusal('a in x'), "unable to parse requirement: found 'x' expected: '('");
  assert.is(refusal('a in (xyz abc)'), "unable to parse requirement: found 'abc', expected: ',' or ')'");
  assert.is(refusal('app in (web'), "unable to parse requirement: found '', expected: ',' or ')'");
  assert.is(refusal('a in (,,)'), "unable to parse requirement: found ')', expected: ',', or identifier");
  assert.is(refusal('a=('), "unable to parse requirement: found '(', expected: identifier");
});

test('keys and values are checked by the real rules, with field paths as the parser spells them', () => {
  assert.is(refusal('-x=a'), 'unable to parse requirement: <nil>: Invalid value: "-x": name part must consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyName\',  or \'my.name\',  or \'123-abc\', regex used for validation is \'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]\')');
  assert.is(refusal('Example.com/x'), 'unable to parse requirement: <nil>: Invalid value: "Example.com/x": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character (e.g. \'example.com\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\')');
  assert.is(refusal('/x'), 'unable to parse requirement: <nil>: Invalid value: "/x": prefix part must be non-empty');
  assert.is(refusal(`${'k'.repeat(64)}`), `unable to parse requirement: <nil>: Invalid value: "${'k'.repeat(64)}": name part must be no more than 63 characters`);
  assert.is(refusal('x=-a'), 'unable to parse requirement: values[0][x]: Invalid value: "-a": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')');
  assert.is(refusal(`x=${'v'.repeat(64)}`), `unable to parse requirement: values[0][x]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`);
  assert.match(refusal('x in (b_,-a)'), /^unable to parse requirement: \[values\[0\]\[x\]: Invalid value: "-a": .*, values\[1\]\[x\]: Invalid value: "b_": .*\]$/);
  assert.is(refusal('x>a'), 'unable to parse requirement: values[0]: Invalid value: "a": for \'Gt\', \'Lt\' operators, the value must be an integer');
  assert.is(refusal('x<1.5'), 'unable to parse requirement: values[0]: Invalid value: "1.5": for \'Gt\', \'Lt\' operators, the value must be an integer');
  assert.match(refusal('x>-1'), /^unable to parse requirement: values\[0\]\[x\]: Invalid value: "-1": a valid label must be/);
});

test('an empty or blank selector selects everything without a matcher', () => {
  assert.is(parseLabelSelector(''), undefined);
  assert.is(parseLabelSelector('  '), undefined);
  assert.is(parseLabelSelector(undefined), undefined);
});

test.run();
