// Text in the SVG charts: where it goes and how wide it is. There is no DOM to measure text in, so
// widths are estimated per character on the generous side of DejaVu Sans, the widest font the
// page may get (Linux's fallback for system-ui): in a narrower font a label only gets more room.
// Labels wrap at spaces rather than being cut short; legends wrap their entries into rows.
import { escapeHtml } from './escape.ts';

export const LINE_HEIGHT = 14; // of text at font-size 11, with a little air
const SWATCH = 22; // a legend entry's line and the space before its label

/** A coordinate with one decimal; anything not finite becomes 0 rather than "NaN". */
export function coord(v: number): string {
  if (!Number.isFinite(v)) return '0';
  const r = Math.round(v * 10) / 10;
  return String(r === 0 ? 0 : r);
}

const NARROW = /[fijlrtI.,:;'!|()[\]\/ -]/; // at most 4.6 px wide in DejaVu Sans at 11 px
const WIDE = /[mMW%@]|[^\x00-\x7f]/; // up to 11 px (m, %, ≤, ×...)
const MEDIUM = /[a-vx-z0-9]/; // up to 7 px; the rest (capitals, w, +, =...) up to 9.3 px

/** `text`'s width in px at font-size 11, estimated per character on the generous side. */
export function textWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += NARROW.test(ch) ? 4.6 : WIDE.test(ch) ? 11 : MEDIUM.test(ch) ? 7 : 9.3;
  return width;
}

export const widest = (texts: readonly string[]) => Math.max(0, ...texts.map(textWidth));

/** `text` in lines at most `maxWidth` wide, broken at spaces, and inside a word only where the word alone is wider. */
function wrap(text: string, maxWidth: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const joined = line ? `${line} ${word}` : word;
    if (textWidth(joined) <= maxWidth) {
      line = joined;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const ch of word) {
      if (line && textWidth(line + ch) > maxWidth) {
        lines.push(line);
        line = '';
      }
      line += ch;
    }
  }
  lines.push(line);
  return lines;
}

/** A text of one or more lines, `LINE_HEIGHT` apart from baseline `y`. */
export function textLines(lines: readonly string[], x: number, y: number, attrs: string): string {
  if (lines.length === 1) return `<text x="${coord(x)}" y="${coord(y)}"${attrs}>${escapeHtml(lines[0]!)}</text>`;
  const spans = lines.map((l, i) => `<tspan x="${coord(x)}" dy="${i === 0 ? 0 : LINE_HEIGHT}">${escapeHtml(l)}</tspan>`).join('');
  return `<text x="${coord(x)}" y="${coord(y)}"${attrs}>${spans}</text>`;
}

export interface LegendItem {
  label: string;
  color: string;
  dash?: string;
}

/** Swatches and whole labels in rows that wrap at the plot's width; a label wider than the plot wraps onto more lines. */
export function legend(items: readonly LegendItem[], left: number, maxWidth: number): { svg: string; height: number } {
  const parts: string[] = [];
  let x = 0;
  let rowTop = 0;
  let rowLines = 1;
  for (const item of items) {
    const lines = wrap(item.label, maxWidth - SWATCH);
    const itemWidth = SWATCH + widest(lines) + 14;
    if (x > 0 && x + itemWidth > maxWidth) {
      x = 0;
      rowTop += 16 + (rowLines - 1) * LINE_HEIGHT;
      rowLines = 1;
    }
    const y = 12 + rowTop;
    const dash = item.dash ? ` stroke-dasharray="${item.dash}"` : '';
    parts.push(`<line x1="${coord(left + x)}" y1="${y - 4}" x2="${coord(left + x + 16)}" y2="${y - 4}" stroke="${item.color}" stroke-width="3"${dash}/>` +
      textLines(lines, left + x + SWATCH, y, ' fill="#333"'));
    rowLines = Math.max(rowLines, lines.length);
    x += itemWidth;
  }
  return { svg: `<g class="legend">${parts.join('')}</g>`, height: items.length === 0 ? 0 : rowTop + 20 + (rowLines - 1) * LINE_HEIGHT };
}
