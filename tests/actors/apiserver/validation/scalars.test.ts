// Time validation reads RFC 3339 character by character; it must accept exactly what the pattern
// with its field ranges accepts (the form it replaced), on valid times and on every kind of
// near miss, and word its error as Go's decoder does.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isRfc3339, timeError } from '../../../../actors/apiserver/validation/scalars.ts';
import { seededRandom } from '../../../../sim/random.ts';

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2}))$/;
const inRange = (d: string | undefined, min: number, max: number) => Number(d) >= min && Number(d) <= max;
function byPattern(s: string): boolean {
  const m = PATTERN.exec(s);
  return m !== null && inRange(m[2], 1, 12) && inRange(m[3], 1, 31) && inRange(m[4], 0, 23) && inRange(m[5], 0, 59) &&
    inRange(m[6], 0, 60) && (m[7] === undefined || (inRange(m[7], 0, 23) && inRange(m[8], 0, 59)));
}

test('known times: accepted and refused as RFC 3339 with its ranges has them', () => {
  for (const ok of ['2026-01-01T00:00:00Z', '2026-12-31T23:59:60Z', '2026-01-01T00:00:00.123456Z', '2026-01-01T00:00:00.123456789+05:30', '0000-01-01T00:00:00-23:59'])
    assert.ok(isRfc3339(ok), ok);
  for (const bad of ['', '2026-01-01', '2026-01-01T00:00:00', '2026-13-01T00:00:00Z', '2026-00-01T00:00:00Z', '2026-01-32T00:00:00Z',
    '2026-01-01T24:00:00Z', '2026-01-01T00:60:00Z', '2026-01-01T00:00:61Z', '2026-01-01T00:00:00.Z', '2026-01-01T00:00:00.1234567890Z',
    '2026-01-01T00:00:00+24:00', '2026-01-01T00:00:00+05:60', '2026-01-01T00:00:00+0530', '2026-01-01t00:00:00Z', '2026-01-01T00:00:00z',
    '2026-01-01T00:00:00Z\n', ' 2026-01-01T00:00:00Z', '2026-01-01T00:00:00ZZ', '２026-01-01T00:00:00Z'])
    assert.not.ok(isRfc3339(bad), bad);
  assert.is(timeError('2026-01-01T00:00:00Z', false), null);
  assert.is(timeError('yesterday', true), 'parsing time "yesterday" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "yesterday" as "2006"');
});

test('on 200,000 generated times and near misses it agrees with the pattern', () => {
  const random = seededRandom(7);
  const int = (n: number) => Math.floor(random.next() * n);
  const two = (n: number) => String(n).padStart(2, '0');
  const CHARS = '0123456789-:.TZtz+ x５';
  let accepted = 0;
  for (let i = 0; i < 200_000; i++) {
    const fraction = int(3) === 0 ? '' : `.${'1234567890123'.slice(0, int(12))}`;
    const zone = int(3) === 0 ? 'Z' : `${int(2) ? '+' : '-'}${two(int(26))}:${two(int(62))}`;
    let s = `${String(int(10_000)).padStart(4, '0')}-${two(int(14))}-${two(int(33))}T${two(int(25))}:${two(int(61))}:${two(int(62))}${fraction}${zone}`;
    for (let edits = int(3); edits > 0; edits--) {
      const at = int(s.length + 1);
      const c = CHARS[int(CHARS.length)]!;
      const kind = int(3);
      s = kind === 0 ? s.slice(0, at) + c + s.slice(at + 1) : kind === 1 ? s.slice(0, at) + c + s.slice(at) : s.slice(0, at) + s.slice(at + 1);
    }
    const expected = byPattern(s);
    if (expected) accepted++;
    if (isRfc3339(s) !== expected) assert.unreachable(`${JSON.stringify(s)}: the pattern says ${expected}`);
  }
  assert.ok(accepted > 20_000 && accepted < 180_000, `both kinds generated: ${accepted} of 200,000 accepted`);
});

test.run();
