// A few lines of DOM building: elements with attributes and children, and text that is never HTML.

type Child = Node | string | number | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string | ((e: Event) => void)> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else el.setAttribute(k, v);
  }
  for (const c of children) if (c !== undefined && c !== false) el.append(typeof c === 'number' ? String(c) : c);
  return el;
}

const SVG = 'http://www.w3.org/2000/svg';

export function s(tag: string, attrs: Record<string, string | number> = {}, ...children: (Node | string)[]): SVGElement {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/** Virtual ms as `1h02m03.4s`-style text. */
export function virtualTime(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  let rest = Math.abs(ms);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = (rest / 1000).toFixed(rest % 1000 === 0 ? 0 : 1);
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${String(m).padStart(h ? 2 : 1, '0')}m` : ''}${sec.padStart(h || m ? (sec.includes('.') ? 4 : 2) : 1, '0')}s`;
}
