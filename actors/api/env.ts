// The seams for every source of non-determinism. Actors get these; only sim/ implements them.

/** Time as the actor sees it. Compatible with XState's `Clock`, plus `now()` in epoch milliseconds. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** A seeded source of randomness. Each consumer forks its own named stream. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An independent stream whose draws do not shift this one's. */
  fork(name: string): Random;
}

/** An RFC 4122 version 4 UUID drawn from `random`. */
export function uuid(random: Random): string {
  const hex: string[] = [];
  for (let i = 0; i < 16; i++) {
    let b = Math.floor(random.next() * 256);
    if (i === 6) b = (b & 0x0f) | 0x40;
    if (i === 8) b = (b & 0x3f) | 0x80;
    hex.push(b.toString(16).padStart(2, '0'));
  }
  const h = hex.join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The 5-character suffix real servers append to `generateName`. */
export function nameSuffix(random: Random): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += NAME_ALPHABET[Math.floor(random.next() * NAME_ALPHABET.length)];
  return s;
}

/** RFC 3339 with second precision, as object timestamps are written. */
export function timestamp(ms: number): string {
  // Many writes share a second of virtual time: the last one formatted is reused.
  const second = Math.floor(ms / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    lastStamp = new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  return lastStamp;
}

let lastSecond = NaN;
let lastStamp = '';

/** metav1.MicroTime: RFC 3339 with six fraction digits, of the whole milliseconds (a virtual clock may hold fractions). */
export function microTime(ms: number): string {
  const whole = Math.floor(ms);
  return timestamp(whole).replace(/Z$/, `.${String(((whole % 1000) + 1000) % 1000).padStart(3, '0')}000Z`);
}
