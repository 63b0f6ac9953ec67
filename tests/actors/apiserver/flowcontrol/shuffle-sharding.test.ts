// Shuffle sharding as the real server deals it: the hash of (flow schema, distinguisher) read as
// a little-endian uint64 of its SHA-256, then as digits of a mixed radix that pick distinct queues.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { deal, dealProblem, flowHash, requiredEntropyBits } from '../../../../actors/apiserver/flowcontrol/shuffle-sharding.ts';

test('a flow hashes to the first eight bytes of SHA-256(schema, 0, distinguisher), little-endian', () => {
  // Reference values from Python's hashlib, computed apart from this code.
  assert.is(flowHash('global-default', 'system:anonymous'), 5951248168697086108n);
  assert.is(flowHash('system-nodes', 'system:node:n1'), 8967139723188866340n);
  assert.is(flowHash('kube-scheduler', 'default'), 7952822180881759566n);
});

test('a hash deals the same hand every time: its digits in radix deck, deck-1, ... skip the cards dealt before', () => {
  // 7 = 3 + 4 × 1: card 3, then the digit 1 of the three cards left (0, 1, 2) is card 1.
  assert.equal(deal(7n, 4, 2), [3, 1]);
  // 5 = 1 + 4 × 1: card 1, then the digit 1 of the cards left (0, 2, 3) is card 2.
  assert.equal(deal(5n, 4, 2), [1, 2]);
  // Reference hands from an independent transcription of the real Deal.
  assert.equal(deal(flowHash('global-default', 'system:anonymous'), 128, 6), [28, 42, 66, 34, 23, 24]);
  assert.equal(deal(flowHash('system-nodes', 'system:node:n1'), 64, 6), [36, 37, 40, 20, 55, 27]);
  assert.equal(deal(123456789n, 64, 8), deal(123456789n, 64, 8));
});

test('every hand holds distinct queues of the deck, and hands spread over the deck', () => {
  const seen = new Array<number>(16).fill(0);
  for (let i = 0; i < 2000; i++) {
    const hand = deal(flowHash('s', `user-${i}`), 16, 4);
    assert.is(new Set(hand).size, 4);
    for (const q of hand) {
      assert.ok(q >= 0 && q < 16);
      seen[q]!++;
    }
  }
  // 8000 cards over 16 queues: 500 each on average.
  assert.ok(seen.every((n) => n > 400 && n < 600), `uneven: ${seen}`);
});

test('a deal needs a positive hand no larger than the deck, within 60 bits of hash', () => {
  assert.is(requiredEntropyBits(128, 6), 42);
  assert.is(requiredEntropyBits(64, 8), 48);
  assert.is(dealProblem(128, 6), undefined);
  assert.is(dealProblem(4, 5), 'handSize 5 is greater than deckSize 4');
  assert.is(dealProblem(0, 1), 'deckSize 0 or handSize 1 is not positive');
  assert.is(dealProblem(1024, 7), 'required entropy bits of deckSize 1024 and handSize 7 is greater than 60');
});

test.run();
