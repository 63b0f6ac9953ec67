// Shuffle sharding, as the real server's (apiserver pkg/util/shufflesharding): a flow's 64-bit hash
// deals it a hand of `handSize` distinct queues out of `deckSize`, the same hand for the same hash
// every time, so that a heavy flow fills only the queues of its own hand and a light flow, whose
// hand is unlikely to be the same, still finds a short queue. The flow's hash is that of its flow
// schema's name and its distinguisher (the user or the namespace), as the real controller's
// hashFlowID: SHA-256 of both, a zero byte between, the first 8 bytes read little-endian.
import { createHash } from 'node:crypto';

/** The hash bits a deal may use: more would make the last card's odds uneven. */
export const MAX_HASH_BITS = 60;

/** The hash bits dealing `handSize` of `deckSize` consumes, rounded up (and slightly conservative). */
export function requiredEntropyBits(deckSize: number, handSize: number): number {
  return Math.ceil(Math.log2(deckSize) * handSize);
}

/** Why a deck and hand cannot be dealt, or undefined when they can. */
export function dealProblem(deckSize: number, handSize: number): string | undefined {
  if (!(deckSize > 0 && handSize > 0)) return `deckSize ${deckSize} or handSize ${handSize} is not positive`;
  if (handSize > deckSize) return `handSize ${handSize} is greater than deckSize ${deckSize}`;
  if (deckSize > 2 ** 26) return `deckSize ${deckSize} is impractically large`;
  if (requiredEntropyBits(deckSize, handSize) > MAX_HASH_BITS)
    return `required entropy bits of deckSize ${deckSize} and handSize ${handSize} is greater than ${MAX_HASH_BITS}`;
  return undefined;
}

/**
 * The hand `hash` deals: `handSize` distinct cards in [0, deckSize). The hash is read as a number
 * in a mixed radix (deckSize, deckSize-1, ...): each digit picks among the cards not yet dealt.
 */
export function deal(hash: bigint, deckSize: number, handSize: number): number[] {
  const remainders: number[] = [];
  let h = hash;
  for (let i = 0; i < handSize; i++) {
    const radix = BigInt(deckSize - i);
    remainders.push(Number(h % radix));
    h /= radix;
  }
  // Digit i counts only the cards still in the deck: step over the ones dealt before it.
  return remainders.map((r, i) => {
    let card = r;
    for (let j = i; j > 0; j--) if (card >= remainders[j - 1]!) card++;
    return card;
  });
}

/** The hash of the flow (flow schema, distinguisher), as an unsigned 64-bit integer. */
export function flowHash(flowSchema: string, distinguisher: string): bigint {
  const digest = createHash('sha256').update(flowSchema).update(new Uint8Array([0])).update(distinguisher).digest();
  return digest.readBigUInt64LE(0);
}
