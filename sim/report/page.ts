// The pieces every orchsim HTML page shares: the stylesheet, tables, cards, figures and sections.
import { escapeHtml } from './escape.ts';

export const CSS = `
:root{color-scheme:light}
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f7f9;margin:0;padding:24px}
main{max-width:1320px;margin:0 auto}
h1{font-size:22px;margin:0 0 4px;overflow-wrap:anywhere}
h2{font-size:17px;margin:28px 0 10px;border-bottom:1px solid #d8dde3;padding-bottom:4px}
h3{font-size:14px;margin:0 0 6px}
.desc{white-space:pre-line;color:#444;margin:0 0 10px;overflow-wrap:anywhere}
.meta{display:flex;flex-wrap:wrap;gap:4px 24px;margin:0;color:#444}
.meta dt{display:inline;font-weight:600}.meta dd{display:inline;margin:0 0 0 6px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere}
.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(480px,1fr));gap:14px}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(250px,1fr));gap:14px}
figure,.card{background:#fff;border:1px solid #d8dde3;border-radius:6px;margin:0;padding:10px 12px}
figcaption{font-weight:600;margin-bottom:2px}
figcaption small{font-weight:400;color:#666;margin-left:8px}
svg.chart{display:block;width:100%;height:auto;font-family:inherit}
svg .hover:hover{fill:rgba(0,0,0,.06)}
.table-scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceff2;vertical-align:top;overflow-wrap:break-word}
.num{text-align:right;font-variant-numeric:tabular-nums}
td.num{white-space:nowrap}
.card th{font-weight:400;color:#555}
.muted{color:#777}
footer{margin-top:32px;color:#888;font-size:12px}
`;

export type Cell = { text: string; numeric?: boolean; title?: string };

function cell(c: Cell | string, tag: 'td' | 'th' = 'td'): string {
  const { text, numeric, title } = typeof c === 'string' ? { text: c } : c;
  const attrs = `${numeric ? ' class="num"' : ''}${title !== undefined ? ` title="${escapeHtml(title)}"` : ''}`;
  return `<${tag}${attrs}>${escapeHtml(text)}</${tag}>`;
}

/**
 * Cells wrap between words and never inside one (`break-word`, unlike `anywhere`, leaves a
 * column's narrowest width at its longest word), and numeric headings wrap too, so long headings
 * cannot squeeze the text columns to a letter wide. A table whose words alone are wider than the
 * page scrolls sideways in its own box rather than widening the page.
 */
export function table(head: readonly (Cell | string)[], rows: readonly (readonly (Cell | string)[])[]): string {
  const body = rows.map((r) => `<tr>${r.map((c) => cell(c)).join('')}</tr>`).join('\n');
  return `<div class="table-scroll"><table><thead><tr>${head.map((c) => cell(c, 'th')).join('')}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

/** A titled two-column table of figures. */
export function card(title: string, rows: readonly [label: string, value: string][]): string {
  const body = rows.map(([label, value]) => `<tr>${cell(label, 'th')}${cell({ text: value, numeric: true })}</tr>`).join('');
  return `<div class="card"><h3>${escapeHtml(title)}</h3><table><tbody>${body}</tbody></table></div>`;
}

export function figure(caption: string, svg: string, note = ''): string {
  const small = note ? `<small>${escapeHtml(note)}</small>` : '';
  return `<figure><figcaption>${escapeHtml(caption)}${small}</figcaption>${svg}</figure>`;
}

export function section(id: string, title: string, body: string): string {
  return `<section id="${id}"><h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

