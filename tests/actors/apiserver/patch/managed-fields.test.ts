// managedFields are written in the real server's order: appliers first, then by time in whole
// seconds, manager, API version and subresource; managers owning nothing are left out.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { FieldSet } from '../../../../actors/apiserver/patch/field-set.ts';
import { encodeManagers, managerIdentity, type Manager } from '../../../../actors/apiserver/patch/managed-fields.ts';

const owning = FieldSet.of([['f:data'], ['f:data', 'f:a']]);
const manager = (manager: string, operation: Manager['operation'], time: string | undefined, extra: Partial<Manager> = {}): Manager =>
  ({ manager, operation, apiVersion: 'v1', fields: owning, ...(time ? { time } : {}), ...extra });

test('appliers first, then by second, manager, version and subresource; no entry for a manager owning nothing', () => {
  const managers = [
    manager('late', 'Update', '2026-01-01T00:00:09Z'),
    manager('b', 'Update', '2026-01-01T00:00:01.900000Z'),
    manager('a', 'Update', '2026-01-01T00:00:01.100000Z', { apiVersion: 'v2' }),
    manager('a', 'Update', '2026-01-01T00:00:01.500000Z', { subresource: 'status' }),
    manager('a', 'Update', '2026-01-01T00:00:01.700000Z'),
    manager('kubectl', 'Apply', '2026-01-01T00:00:30Z'),
    manager('untimed', 'Update', undefined),
    manager('idle', 'Update', '2026-01-01T00:00:00Z', { fields: FieldSet.of([]) }),
  ];
  const entries = encodeManagers(new Map(managers.map((m) => [managerIdentity(m), m])))!;
  assert.equal(entries.map((e) => [e.manager, e.apiVersion, e.subresource ?? '']), [
    ['kubectl', 'v1', ''],
    ['untimed', 'v1', ''],
    ['a', 'v1', ''],
    ['a', 'v1', 'status'],
    ['a', 'v2', ''],
    ['b', 'v1', ''],
    ['late', 'v1', ''],
  ]);
});

test('one manager is written as it is; none owning anything writes no managedFields', () => {
  const one = manager('only', 'Update', '2026-01-01T00:00:00Z');
  assert.equal(encodeManagers(new Map([[managerIdentity(one), one]]))!.map((e) => e.manager), ['only']);
  const idle = manager('idle', 'Update', undefined, { fields: FieldSet.of([]) });
  assert.is(encodeManagers(new Map([[managerIdentity(idle), idle]])), undefined);
});

test.run();
