// Text from a report (scenario names, reasons, node names) can hold anything: every piece of it
// goes through `escapeHtml` before it reaches the page, in element content and in attributes alike.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Safe in HTML and SVG text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
