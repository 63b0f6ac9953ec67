// YAML text to plain values, one per document, with syntax errors reported by line as the
// scenario's errors are: `scenario.yaml: line 4: YAML syntax error: ...`.
import { parseAllDocuments } from 'yaml';
import { ScenarioError } from './field.ts';

/** Bounds the expansion of aliases (a "billion laughs" file), as yaml's default does for 100. */
const ALIASES_MAX = 1000;

/**
 * The documents of `text` as plain JSON-like values (`null` for an empty document). YAML 1.2's core
 * schema (so `on`/`yes` stay strings), with `<<` merge keys; duplicate keys are errors. `file`
 * names the text in errors.
 */
export function yamlDocuments(text: string, file: string): unknown[] {
  const docs = parseAllDocuments(text, { merge: true, uniqueKeys: true });
  for (const doc of docs) {
    const error = doc.errors[0];
    if (!error) continue;
    const pos = error.linePos?.[0];
    // yaml's message repeats the position and quotes the source; keep the sentence.
    const sentence = error.message.replace(/ at line \d+, column \d+:[\s\S]*$/, '');
    throw new ScenarioError(file, '', `YAML syntax error: ${sentence}${pos ? ` (column ${pos.col})` : ''}`, { line: pos?.line, cause: error });
  }
  return docs.map((doc) => {
    try {
      return doc.toJS({ maxAliasCount: ALIASES_MAX });
    } catch (e) {
      throw new ScenarioError(file, '', `YAML error: ${(e as Error).message}`, { cause: e });
    }
  });
}
