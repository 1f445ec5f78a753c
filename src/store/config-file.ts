// Loads `.claude/rune-config.yml`. The YAML parser is imported only when the
// file exists, so hooks in projects without a config never pay for it.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultConfig, type EchoesConfig } from '../core/config-defaults.ts';

export interface LoadedConfig {
  config: EchoesConfig;
  warnings: string[];
}

export async function loadConfig(project: string): Promise<LoadedConfig> {
  const file = join(resolve(project), '.claude', 'rune-config.yml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { config: defaultConfig(), warnings: [] };
    return { config: defaultConfig(), warnings: [`.claude/rune-config.yml: unreadable (${code}); using defaults`] };
  }
  const { parseConfig } = await import('../core/config-schema.ts');
  return parseConfig(text);
}
