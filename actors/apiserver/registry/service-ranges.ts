// The two ranges Services draw from, as the real ipallocator and portallocator present them:
// cluster IPs from a CIDR (--service-cluster-ip-range) without its network address (nor, for
// IPv4, its broadcast address; an IPv6 range is capped at 65,536 addresses), node ports from an
// inclusive port range (--service-node-port-range). Failures are the real allocators' messages,
// as values: the caller decides whether they are 422s or 500s.
import { isIP } from 'node:net';
import type { Random } from '../../api/env.ts';
import { AllocationMap, staticBand } from './allocation-map.ts';

export type IPFamily = 'IPv4' | 'IPv6';

export const RANGE_FULL = 'range is full';
export const IP_ALLOCATED = 'provided IP is already allocated';
export const PORT_ALLOCATED = 'provided port is already allocated';

/** An address's family, or undefined when it is not an address. */
export function familyOf(ip: string): IPFamily | undefined {
  const v = isIP(ip);
  return v === 4 ? 'IPv4' : v === 6 ? 'IPv6' : undefined;
}

/** A CIDR's network address, its family, and its host bits. */
function network(cidr: string): { family: IPFamily; address: bigint; hostBits: bigint } {
  const [address, prefix] = cidr.split('/') as [string, string];
  const family: IPFamily = familyOf(address) === 'IPv6' ? 'IPv6' : 'IPv4';
  const hostBits = BigInt((family === 'IPv4' ? 32 : 128) - Number(prefix));
  return { family, address: (toBig(address) >> hostBits) << hostBits, hostBits };
}

/** The first address a range hands out: the one after its network address (the `kubernetes` Service's). */
export function firstAddress(cidr: string): string {
  const n = network(cidr);
  return fromBig(n.address + 1n, n.family);
}

export class IpRange {
  readonly family: IPFamily;
  /** The first allocatable address (the network address plus one). */
  readonly #base: bigint;
  readonly #map: AllocationMap;

  constructor(readonly cidr: string, random: Random) {
    const { family, address, hostBits } = network(cidr);
    this.family = family;
    const whole = 1n << hostBits;
    this.#base = address + 1n;
    const usable = this.family === 'IPv4' ? whole - 2n : whole - 1n > 65_536n ? 65_536n : whole - 1n;
    const size = Number(usable < 0n ? 0n : usable);
    const wholeSize = whole > 1n << 53n ? Number.MAX_SAFE_INTEGER : Number(whole);
    this.#map = new AllocationMap(size, staticBand(wholeSize, { min: 16, max: 256, step: 16 }), random);
  }

  /** The network address: what a dry run answers for an address it did not pick. */
  get network(): string {
    return fromBig(this.#base - 1n, this.family);
  }

  /** Where `ip` sits in the pool, or undefined when outside it. */
  #offset(ip: string): number | undefined {
    if (familyOf(ip) !== this.family) return undefined;
    const offset = toBig(ip) - this.#base;
    return offset >= 0n && offset < BigInt(this.#map.size) ? Number(offset) : undefined;
  }

  /** Reserves `ip`; an error message when it is outside the range or taken. */
  allocate(ip: string, dryRun = false): string | undefined {
    const offset = this.#offset(ip);
    if (offset === undefined) return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`;
    if (dryRun) return undefined; // as the real one, a dry run checks the range only
    return this.#map.allocate(offset) ? undefined : IP_ALLOCATED;
  }

  /** A free address, or RANGE_FULL. */
  allocateNext(): { ip: string } | { error: string } {
    const offset = this.#map.allocateNext();
    return offset === undefined ? { error: RANGE_FULL } : { ip: fromBig(this.#base + BigInt(offset), this.family) };
  }

  release(ip: string): void {
    const offset = this.#offset(ip);
    if (offset !== undefined) this.#map.release(offset);
  }

  has(ip: string): boolean {
    const offset = this.#offset(ip);
    return offset !== undefined && this.#map.has(offset);
  }

  get free(): number {
    return this.#map.free;
  }
}

export class PortRange {
  readonly #map: AllocationMap;

  constructor(readonly base: number, readonly size: number, random: Random) {
    this.#map = new AllocationMap(size, staticBand(size, { min: 16, max: 128, step: 32 }), random);
  }

  get text(): string {
    return `${this.base}-${this.base + this.size - 1}`;
  }

  contains(port: number): boolean {
    return port >= this.base && port < this.base + this.size;
  }

  has(port: number): boolean {
    return this.contains(port) && this.#map.has(port - this.base);
  }

  allocate(port: number): string | undefined {
    if (!this.contains(port)) return `provided port is not in the valid range. The range of valid ports is ${this.text}`;
    return this.#map.allocate(port - this.base) ? undefined : PORT_ALLOCATED;
  }

  allocateNext(): number | undefined {
    const offset = this.#map.allocateNext();
    return offset === undefined ? undefined : this.base + offset;
  }

  release(port: number): void {
    if (this.contains(port)) this.#map.release(port - this.base);
  }

  get free(): number {
    return this.#map.free;
  }
}

/** An address as a number (IPv4 in the low 32 bits). `ip` must be an address. */
function toBig(ip: string): bigint {
  if (isIP(ip) === 4) return ip.split('.').reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
  let text = ip;
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = Number(toBig(v4[1]!));
    text = `${text.slice(0, -v4[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** A number as an address: IPv4 dotted, IPv6 in its RFC 5952 form (the longest run of zero groups compressed). */
function fromBig(n: bigint, family: IPFamily): string {
  if (family === 'IPv4') return [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => Number((n >> BigInt(112 - 16 * i)) & 0xffffn));
  let best = -1, bestLength = 1;
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) [best, bestLength] = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLength).join(':')}`;
}
