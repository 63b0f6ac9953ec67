// Go-style durations ("5m0s", "1h30m", "300ms", "1.5h"), as the components' options write them.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or a RangeError naming the problem. */
export function parseDuration(text: string): number {
  const s = text.trim();
  if (s === '0') return 0;
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/y;
  let sign = 1;
  let i = 0;
  if (s[0] === '-' || s[0] === '+') {
    sign = s[0] === '-' ? -1 : 1;
    i = 1;
  }
  if (i >= s.length) throw new RangeError(`invalid duration ${JSON.stringify(text)}`);
  let total = 0;
  while (i < s.length) {
    re.lastIndex = i;
    const m = re.exec(s);
    if (!m) throw new RangeError(`invalid duration ${JSON.stringify(text)}: expected a number and a unit (ns, us, ms, s, m, h), e.g. 5m0s`);
    total += Number(m[1]) * UNIT_MS[m[2]];
    i = re.lastIndex;
  }
  return sign * total;
}

/** Go's Duration.String() for whole milliseconds: 300000 → "5m0s", 1500 → "1.5s". */
export function formatDuration(ms: number): string {
  if (ms === 0) return '0s';
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  if (rest < 1000) return `${sign}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Number((rest / 1000).toFixed(3)).toString();
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}
