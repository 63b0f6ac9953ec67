// The field paths of x-kubernetes-validations' `fieldPath` and of selectable fields (apiextensions
// pkg/apiserver/schema/cel ValidFieldPath): `.spec.replicas`, `.spec.map['key.with.dots']`, read
// against the schema, and normalized to a field.Path (`spec.map[key.with.dots]`).
import { child, key } from './field-errors.ts';
import type { Structural } from './structural.ts';

export type FieldPathResult = { path: string; schema: Structural } | { error: string };

function tokens(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else if (c === "'") {
      let j = i + 1;
      while (j < text.length && !(text[j] === "'" && text[j - 1] !== '\\')) j++;
      out.push(text.slice(i, j + 1));
      i = j + 1;
    } else {
      let j = i;
      while (j < text.length && !'.[]'.includes(text[j] as string)) j++;
      out.push(text.slice(i, j));
      i = j;
    }
  }
  return out;
}

export function validFieldPath(text: string, root: Structural, allowArrayNotation = true): FieldPathResult {
  let schema: Structural | undefined = root;
  let path = '';
  const list = tokens(text);
  const step = (name: string): string | undefined => {
    if (!schema) return 'does not refer to a valid field';
    if (schema.properties) {
      path = child(path, name);
      schema = schema.properties.get(name);
      return schema ? undefined : 'does not refer to a valid field';
    }
    if (schema.additionalProperties) {
      path = key(path, name);
      schema = schema.additionalProperties.schema;
      return undefined;
    }
    return 'does not refer to a valid field';
  };
  for (let i = 0; i < list.length; i++) {
    const tok = list[i] as string;
    if (tok === '[') {
      if (!allowArrayNotation) return { error: 'array notation is not allowed' };
      const quoted = list[++i];
      if (quoted === undefined) return { error: 'unexpected end of JSON path' };
      if (quoted.length < 2 || !quoted.startsWith("'") || !quoted.endsWith("'")) return { error: `expected single quoted string but got ${quoted}` };
      const err = step(quoted.slice(1, -1).replace(/\\(.)/g, '$1'));
      if (err) return { error: err };
      const close = list[++i];
      if (close === undefined) return { error: 'unexpected end of JSON path' };
      if (close !== ']') return { error: `expected ] but got ${close}` };
    } else if (tok === '.') {
      const name = list[++i];
      if (name === undefined) return { error: 'unexpected end of JSON path' };
      const err = step(name);
      if (err) return { error: err };
    } else {
      return { error: `expected [ or . but got: ${tok}` };
    }
  }
  return schema ? { path, schema } : { error: 'does not refer to a valid field' };
}
