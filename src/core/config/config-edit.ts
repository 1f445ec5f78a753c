// Changing one key of `.claude/rune-config.yml` without disturbing the rest:
// comments, order and every other key stay as the user wrote them (the yaml
// library's document model). Used by `team init` and `team off`.
import { isMap, isScalar, parseDocument } from 'yaml';
import { EchoesError } from '../errors.ts';

/**
 * The config text with `echoes.<key>` set to `value`; a missing file or
 * section is created. Null when it already holds that value. Refuses a file
 * that is not valid YAML or whose `echoes` is not a mapping: it would have to
 * be rewritten, and it is the user's.
 */
export function withEchoesKey(text: string | null, key: string, value: boolean | string | number): string | null {
  if (text === null || text.trim() === '') return `echoes:\n  ${key}: ${JSON.stringify(value)}\n`;
  const doc = parseDocument(text, { uniqueKeys: false });
  if (doc.errors.length > 0)
    throw new EchoesError('refused', `.claude/rune-config.yml is not valid YAML; fix it, or set echoes.${key}: ${String(value)} by hand`);
  if (doc.contents !== null && !isMap(doc.contents))
    throw new EchoesError('refused', `.claude/rune-config.yml is not a mapping; set echoes.${key}: ${String(value)} by hand`);
  const section = doc.get('echoes', true);
  // `echoes:` with nothing under it is an empty section.
  if (isScalar(section) && section.value === null) doc.set('echoes', doc.createNode({}));
  else if (section !== undefined && !isMap(section))
    throw new EchoesError('refused', `.claude/rune-config.yml: "echoes" is not a mapping; set echoes.${key}: ${String(value)} by hand`);
  if (doc.getIn(['echoes', key]) === value) return null;
  doc.setIn(['echoes', key], value);
  return doc.toString();
}
