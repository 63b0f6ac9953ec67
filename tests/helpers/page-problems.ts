// What a report page's reader would find wrong, measured in the page itself (run with
// page.evaluate): chart text past its chart, overlapping or named twice; table cells narrower than
// their words or hiding content; a page wider than its window. Shared by the page tests.
// The functions run in the page; this project is type-checked without the DOM's types.

/**
 * In the page: what is wrong with the charts' text. Every <text> must lie inside its <svg> (which
 * clips it); two texts drawn the same way (both level, or both tilted by the same angle) must not
 * overlap, compared in their own tilted frame (a tilted label's on-screen box is wider than the
 * label); an axis or legend must not name one thing twice; no label may end in an ellipsis.
 */
export function chartProblems(): string[] {
  const doc = (globalThis as any).document;
  const problems: string[] = [];
  const SLACK = 0.5;
  for (const svg of doc.querySelectorAll('svg.chart') as any[]) {
    const chart = svg.getAttribute('aria-label');
    const frame = svg.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter((t: any) => t.textContent.trim() !== '');
    const boxes = texts.map((t: any) => {
      const r = t.getBoundingClientRect();
      if (r.left < frame.left - SLACK || r.right > frame.right + SLACK || r.top < frame.top - SLACK || r.bottom > frame.bottom + SLACK)
        problems.push(`${chart}: "${t.textContent}" reaches past the chart`);
      if (t.textContent.endsWith('…')) problems.push(`${chart}: "${t.textContent}" is cut short`);
      const turn = /rotate\(([-\d.]+) ([-\d.]+) ([-\d.]+)\)/.exec(t.getAttribute('transform') ?? '');
      if (!turn) return { text: t.textContent, angle: 0, left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      // rotate(a c) maps p to R·p + c - R·c: turned back by R⁻¹, the label is its own box shifted by R⁻¹·c - c.
      const [a, cx, cy] = turn.slice(1).map(Number) as [number, number, number];
      const back = (-a * Math.PI) / 180;
      const dx = cx * Math.cos(back) - cy * Math.sin(back) - cx;
      const dy = cx * Math.sin(back) + cy * Math.cos(back) - cy;
      const b = t.getBBox();
      return { text: t.textContent, angle: a, left: b.x + dx, right: b.x + b.width + dx, top: b.y + dy, bottom: b.y + b.height + dy };
    });
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [p, q] = [boxes[i]!, boxes[j]!];
        if (p.angle !== q.angle) continue;
        const apart = p.right <= q.left + SLACK || q.right <= p.left + SLACK || p.bottom <= q.top + SLACK || q.bottom <= p.top + SLACK;
        if (!apart) problems.push(`${chart}: "${p.text}" overlaps "${q.text}"`);
      }
    for (const group of svg.querySelectorAll('g.legend, g.x-axis, g.y-axis') as any[]) {
      const names = [...group.querySelectorAll('text')].map((t: any) => t.textContent);
      for (const name of new Set(names)) if (names.filter((n) => n === name).length > 1) problems.push(`${chart}: "${name}" twice in ${group.getAttribute('class')}`);
    }
  }
  return problems;
}

/**
 * In the page: what is wrong with the tables and the page's width. A cell must show all it holds
 * (scrollWidth within clientWidth) and its content box must be as wide as its longest word, set in
 * the cell's own font; a table must fit its box without scrolling, and the page its window.
 */
export function tableProblems(): string[] {
  const doc = (globalThis as any).document;
  const win = globalThis as any;
  const problems: string[] = [];
  const ruler = doc.createElement('span');
  ruler.style.cssText = 'position:absolute;visibility:hidden;white-space:pre;left:0;top:0';
  doc.body.append(ruler);
  for (const cell of doc.querySelectorAll('td, th') as any[]) {
    const text = cell.textContent.trim();
    if (text === '') continue;
    const style = win.getComputedStyle(cell);
    const inner = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (cell.scrollWidth > cell.clientWidth) problems.push(`"${text}": ${cell.scrollWidth - cell.clientWidth} px hidden`);
    ruler.style.font = style.font;
    ruler.style.fontVariantNumeric = style.fontVariantNumeric;
    for (const word of text.split(/[ \t\r\n]+/)) { // a no-break space holds its words together
      ruler.textContent = word;
      const wide = ruler.getBoundingClientRect().width;
      if (wide > inner + 0.5) problems.push(`"${text}": ${Math.round(inner)} px wide, its word "${word}" ${Math.round(wide)} px`);
    }
  }
  ruler.remove();
  for (const table of doc.querySelectorAll('table') as any[])
    if (table.offsetWidth > table.parentElement.clientWidth) problems.push(`a table ${table.offsetWidth} px wide in a ${table.parentElement.clientWidth} px box`);
  if (doc.documentElement.scrollWidth > win.innerWidth) problems.push(`the page is ${doc.documentElement.scrollWidth} px wide in a ${win.innerWidth} px window`);
  return problems;
}
