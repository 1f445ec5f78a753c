// `.claude/rune-config.yml` (SPEC §13). Every key is optional; a problem gives
// a one-line warning and the default for that key, never a failure.
import { parseDocument } from 'yaml';
import { defaultConfig } from './config-defaults.ts';
import { type ConfigResult, validateConfigDocument } from './config-validate.ts';

export { CONFIG_KEYS, type ConfigResult } from './config-validate.ts';

/** The YAML as a plain value, with the parser's warnings; `invalid` says why it could not be read. */
export function readConfigYaml(text: string, source = '.claude/rune-config.yml'): { doc: unknown; warnings: string[]; invalid?: string } {
  const warnings: string[] = [];
  try {
    const parsed = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
    if (parsed.errors[0]) throw parsed.errors[0];
    // YAML.parse would print these (an unknown tag, say) to stderr itself; they are warnings like ours.
    for (const w of parsed.warnings) warnings.push(`${source}: ${w.message.split('\n')[0]}`);
    return { doc: parsed.toJS(), warnings };
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { doc: null, warnings: [`${source}: invalid YAML (${reason}); using defaults`], invalid: reason };
  }
}

export function parseConfig(text: string | null, source = '.claude/rune-config.yml'): ConfigResult {
  if (text === null || text.trim() === '') return { config: defaultConfig(), warnings: [] };
  const { doc, warnings } = readConfigYaml(text, source);
  return validateConfigDocument(doc, source, warnings);
}
