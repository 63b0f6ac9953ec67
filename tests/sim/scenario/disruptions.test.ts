// The scenario fields of disruptions: a maintenance drain's waves, hold and timeout, a spot
// interruption's notice and drain, a node deletion's replacement; their defaults, and each
// mistake named by its field.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseScenario, ScenarioError } from '../../../sim/scenario/load.ts';

const BASE = 'duration: 30m\nnodePools: [{ name: general, count: 20, zones: [zone-a, zone-b] }]\n';
const parse = (faults: string) => parseScenario(`${BASE}faults: [${faults}]\n`, { name: 'scenario', dir: '.' });

function rejects(faults: string, path: string, message: string): void {
  try {
    parse(faults);
  } catch (e) {
    if (!(e instanceof ScenarioError)) throw e;
    assert.is(e.message, `scenario.yaml: ${path}: ${message}`);
    assert.is(e.path, path);
    return;
  }
  assert.unreachable(`parsed without error: ${faults}`);
}

test('a maintenance drain takes one node a wave, no hold and no timeout unless told', () => {
  assert.equal(parse('{ kind: maintenanceDrain, at: 1m, count: 3, pool: general }').faults,
    [{ kind: 'maintenanceDrain', atMs: 60_000, count: 3, pool: 'general', downForMs: 0, waveSize: 1 }]);
  assert.equal(parse('{ kind: maintenanceDrain, at: 1m, nodes: [general-01, general-02], waveSize: 2, downFor: 10m, timeout: 5m }').faults,
    [{ kind: 'maintenanceDrain', atMs: 60_000, count: 2, nodes: ['general-01', 'general-02'], downForMs: 600_000, waveSize: 2, timeoutMs: 300_000 }]);
});

test('a spot interruption gives two minutes of notice and drains the node unless told', () => {
  assert.equal(parse('{ kind: spotInterruption, at: 1m, zone: zone-a, count: 2 }').faults,
    [{ kind: 'spotInterruption', atMs: 60_000, count: 2, zone: 'zone-a', noticeMs: 120_000, drain: true }]);
  assert.equal(parse('{ kind: spotInterruption, at: 1m, largest: true, notice: 0s }').faults[0]!.noticeMs, 0);
  assert.is(parse('{ kind: spotInterruption, at: 1m, drain: false }').faults[0]!.drain, false);
});

test('a node deletion takes node targets, and replace only when given (the pool decides otherwise)', () => {
  assert.equal(parse('{ kind: nodeDelete, at: 1m, count: 2, zone: zone-b }').faults, [{ kind: 'nodeDelete', atMs: 60_000, count: 2, zone: 'zone-b' }]);
  assert.equal(parse('{ kind: nodeDelete, at: 1m, nodes: [general-07], replace: true }').faults,
    [{ kind: 'nodeDelete', atMs: 60_000, count: 1, nodes: ['general-07'], replace: true }]);
  assert.is(parse('{ kind: nodeDelete, at: 1m, largest: true, replace: false }').faults[0]!.replace, false);
});

test('disruption fields are checked and named', () => {
  rejects('{ kind: maintenanceDrain, at: 1m, waveSize: 0 }', 'faults[0].waveSize', 'must be a positive integer, got 0');
  rejects('{ kind: maintenanceDrain, at: 1m, downFor: -1m }', 'faults[0].downFor', 'must not be negative, got "-1m"');
  rejects('{ kind: maintenanceDrain, at: 1m, timeout: 0s }', 'faults[0].timeout', 'must be greater than 0, got "0s"');
  rejects('{ kind: maintenanceDrain, at: 1m, recoverAfter: 5m }', 'faults[0].recoverAfter',
    'does not apply to maintenanceDrain: it ends when its last wave is uncordoned (see downFor)');
  rejects('{ kind: spotInterruption, at: 1m, notice: soon }', 'faults[0].notice', 'must be a Go duration such as 300ms, 30s, 5m or 1h30m, got "soon"');
  rejects('{ kind: spotInterruption, at: 1m, recoverAfter: 5m }', 'faults[0].recoverAfter', 'does not apply to spotInterruption: the instance is gone for good');
  rejects('{ kind: spotInterruption, at: 1m, memory: 1Gi }', 'faults[0].memory', 'belongs to memoryPressure faults only');
  rejects('{ kind: nodeCrash, at: 1m, notice: 1m }', 'faults[0].notice', 'belongs to spotInterruption faults only');
  rejects('{ kind: nodeCrash, at: 1m, waveSize: 2 }', 'faults[0].waveSize', 'belongs to maintenanceDrain faults only');
  rejects('{ kind: spotInterruption, at: 1m, downFor: 1m }', 'faults[0].downFor', 'belongs to nodeFlap and maintenanceDrain faults only');
  rejects('{ kind: spotInterruption, at: 1m, drain: yes please }', 'faults[0].drain', 'must be true or false, got "yes please"');
  rejects('{ kind: maintenanceDrain, at: 1m, drain: true }', 'faults[0].drain', 'belongs to spotInterruption faults only');
  rejects('{ kind: nodeDelete, at: 1m, replace: 1 }', 'faults[0].replace', 'must be true or false, got 1');
  rejects('{ kind: nodeCrash, at: 1m, replace: true }', 'faults[0].replace', 'belongs to nodeDelete faults only');
  rejects('{ kind: nodeDelete, at: 1m, recoverAfter: 5m }', 'faults[0].recoverAfter', 'does not apply to nodeDelete: the node is gone for good (replace: true brings a new one)');
  rejects('{ kind: nodeDelete, at: 1m, nodes: [general-99] }', 'faults[0].nodes[0]', 'must name a node of a pool: <pool>-<index> with the index zero-padded to the width of count - 1 (e.g. general-00), got "general-99"');
  rejects('{ kind: maintenanceDrain, at: 1m, count: 21 }', 'faults[0].count', 'must be at most the number of nodes it draws from (20 in all pools), got 21');
});

test.run();
