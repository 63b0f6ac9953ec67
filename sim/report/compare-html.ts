// compare.html: `orchsim compare A B` as a page, a table per group, the rows that differ highlighted.
import type { Comparison, Group } from './compare.ts';
import { escapeHtml } from './escape.ts';
import { formatInteger } from './format.ts';
import { CSS, section } from './page.ts';

const COMPARE_CSS = 'tr.changed td{background:#fff4ce}tr.changed td:first-child{box-shadow:inset 3px 0 #d4a72c}td.val{overflow-wrap:anywhere}';

function groupTable(g: Group): string {
  const row = (cells: string[], changed: boolean) => `<tr${changed ? ' class="changed"' : ''}>${cells.join('')}</tr>`;
  const body = g.rows.map((r) => row([
    `<td>${escapeHtml(r.label)}</td>`, `<td class="val">${escapeHtml(r.a)}</td>`, `<td class="val">${escapeHtml(r.b)}</td>`,
    `<td class="num">${escapeHtml(r.delta ?? '')}</td>`,
  ], r.changed)).join('\n');
  const more = g.more ? `<p class="muted">${escapeHtml(g.more)}</p>` : '';
  return `<table><thead><tr><th></th><th>A</th><th>B</th><th class="num">B − A</th></tr></thead><tbody>\n${body}\n</tbody></table>${more}`;
}

export function renderComparisonHtml(c: Comparison): string {
  const verdict = c.changes === 0 ? 'The two reports agree on every row.' : `${formatInteger(c.changes)} rows differ, highlighted.`;
  return ['<!doctype html>', '<html lang="en">', '<head>', '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">', '<title>orchsim compare</title>', `<style>${CSS}${COMPARE_CSS}</style>`,
    '</head>', '<body><main>',
    `<header><h1>orchsim compare</h1><dl class="meta"><dt>A</dt><dd><code>${escapeHtml(c.a)}</code></dd><dt>B</dt><dd><code>${escapeHtml(c.b)}</code></dd></dl>`,
    `<p class="desc">${verdict}</p></header>`,
    ...c.groups.map((g, i) => section(`group-${i}`, g.title, groupTable(g))),
    '</main></body>', '</html>', ''].join('\n');
}
