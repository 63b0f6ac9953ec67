// Timestamps: RFC 3339 in whole seconds, the same text for every millisecond of a second.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { timestamp } from '../../../actors/api/env.ts';

test('timestamp drops milliseconds and is right across second boundaries in any order', () => {
  const t = Date.UTC(2026, 10, 22, 10, 0, 0);
  assert.is(timestamp(t), '2026-11-22T10:00:00Z');
  assert.is(timestamp(t + 999), '2026-11-22T10:00:00Z');
  assert.is(timestamp(t + 1000), '2026-11-22T10:00:01Z');
  assert.is(timestamp(t - 1), '2026-11-22T09:59:59Z');
  assert.is(timestamp(t + 500), '2026-11-22T10:00:00Z');
  assert.is(timestamp(0), '1970-01-01T00:00:00Z');
});

test.run();
