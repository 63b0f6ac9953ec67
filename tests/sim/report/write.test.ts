import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtemp, readdir, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stableJson, writeReport } from '../../../sim/report/write.ts';
import { renderReportHtml } from '../../../sim/report/html.ts';
import { sampleReport } from './sample-report.ts';

test('stableJson sorts object keys at every depth and keeps array order', () => {
  const a = stableJson({ b: 1, a: { z: [3, 1, 2], y: [{ d: 1, c: 2 }] } });
  const b = stableJson({ a: { y: [{ c: 2, d: 1 }], z: [3, 1, 2] }, b: 1 });
  assert.is(a, b);
  assert.is(a, '{\n  "a": {\n    "y": [\n      {\n        "c": 2,\n        "d": 1\n      }\n    ],\n    "z": [3, 1, 2]\n  },\n  "b": 1\n}');
});

test('stableJson agrees with JSON.stringify on what the value means', () => {
  const value = { s: 'quote " and \n newline', n: -0, big: 1e21, nan: Number.NaN, u: undefined, list: [undefined, null, true], empty: {}, none: [] };
  assert.equal(JSON.parse(stableJson(value)), JSON.parse(JSON.stringify(value)));
  const report = sampleReport();
  assert.equal(JSON.parse(stableJson(report)), report);
  const keys = Object.keys(JSON.parse(stableJson(report)));
  assert.equal(keys, [...keys].sort());
});

test('stableJson keeps a series, and a timeline of entries, on one line each; objects in arrays get lines of their own', () => {
  assert.is(stableJson({ pods: { 'default/a': [[0, 'created'], [12, 'scheduled', 'n1']] }, t: [1, 2] }),
    '{\n  "pods": {\n    "default/a": [[0, "created"], [12, "scheduled", "n1"]]\n  },\n  "t": [1, 2]\n}');
  assert.is(stableJson([[1], { a: 1 }]), '[\n  [1],\n  {\n    "a": 1\n  }\n]');
});

test('stableJson refuses a circular value instead of looping', () => {
  const loop: Record<string, unknown> = {};
  loop.self = loop;
  assert.throws(() => stableJson(loop), /circular/);
  const shared = { x: 1 };
  assert.is(stableJson({ a: shared, b: shared }), '{\n  "a": {\n    "x": 1\n  },\n  "b": {\n    "x": 1\n  }\n}');
});

test('writeReport creates the directory and writes both files, with no temporary files left', async () => {
  const root = await mkdtemp(join(tmpdir(), 'orchsim-report-'));
  try {
    const dir = join(root, 'runs', 'one');
    const report = sampleReport();
    const paths = await writeReport(dir, report);
    assert.is(paths.json, join(dir, 'report.json'));
    assert.is(paths.html, join(dir, 'report.html'));
    const json = await readFile(paths.json, 'utf8');
    assert.ok(json.endsWith('}\n'));
    assert.is(json, `${stableJson(report)}\n`);
    assert.equal(JSON.parse(json), report);
    assert.is(await readFile(paths.html, 'utf8'), renderReportHtml(report));
    assert.equal((await readdir(dir)).sort(), ['report.html', 'report.json']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test('writeReport replaces an earlier report in the same directory', async () => {
  const root = await mkdtemp(join(tmpdir(), 'orchsim-report-'));
  try {
    await mkdir(root, { recursive: true });
    await writeFile(join(root, 'report.json'), 'stale and much longer than nothing '.repeat(10_000));
    const report = sampleReport();
    report.seed = 7;
    const { json } = await writeReport(root, report);
    assert.is(JSON.parse(await readFile(json, 'utf8')).seed, 7);
    assert.equal((await readdir(root)).sort(), ['report.html', 'report.json']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test.run();
