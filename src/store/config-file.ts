// Loads `.claude/rune-config.yml`. The YAML parser is imported only when the
// file exists and differs from the copy read last time: the parsed YAML (not
// the resulting config) is cached in .state/config-cache.json under the
// file's exact text and checked again on every load, so a newer plugin's
// defaults and checks always apply and a cache file shipped in a repository
// cannot smuggle in an unchecked value.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultConfig, type EchoesConfig } from '../core/config/config-defaults.ts';
import { validateConfigDocument } from '../core/config/config-validate.ts';
import { readTextOrNull, writeFileAtomic } from './fs/atomic-file.ts';
import { echoPaths } from './fs/echo-paths.ts';

export interface LoadedConfig {
  config: EchoesConfig;
  warnings: string[];
  /** True when the file was read anew (it changed since the cached copy): hooks log its warnings then, not on every run. */
  fresh?: boolean;
}

interface CachedYaml {
  version: number;
  text: string;
  doc: unknown;
  warnings: string[];
  invalid?: string;
}

/** Bump when YAML reading changes, so a cache written by an older plugin is not used. */
const CACHE_VERSION = 1;

export async function loadConfig(project: string): Promise<LoadedConfig> {
  const root = resolve(project);
  const file = join(root, '.claude', 'rune-config.yml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { config: defaultConfig(), warnings: [] };
    return { config: defaultConfig(), warnings: [`.claude/rune-config.yml: unreadable (${code}); using defaults`], fresh: true };
  }
  if (text.trim() === '') return { config: defaultConfig(), warnings: [] };
  // The cache lives in the project's store whatever the session scope.
  const paths = echoPaths(root, defaultConfig());
  const cacheFile = join(paths.stateDir, 'config-cache.json');
  let yaml: CachedYaml | null = null;
  try {
    // Never from a copy git tracks: a committed cache could set options the config file does not say.
    const cached = JSON.parse(readTextOrNull(paths, cacheFile) ?? '') as CachedYaml;
    if (cached.version === CACHE_VERSION && cached.text === text && Array.isArray(cached.warnings)) yaml = cached;
  } catch {
    /* no cache yet, or a torn one: parse */
  }
  const fresh = yaml === null;
  if (!yaml) {
    const { readConfigYaml } = await import('../core/config/config-schema.ts');
    yaml = { version: CACHE_VERSION, text, ...readConfigYaml(text) };
    // Only into a store that exists: creating it here would skip its first-write set-up.
    if (existsSync(paths.echoes)) {
      try {
        writeFileAtomic(paths, cacheFile, JSON.stringify(yaml), { durable: false });
      } catch {
        /* a cache that cannot be written is only slower */
      }
    }
  }
  if (yaml.invalid !== undefined) return { config: defaultConfig(), warnings: [...yaml.warnings], fresh };
  return { ...validateConfigDocument(yaml.doc, '.claude/rune-config.yml', [...yaml.warnings]), fresh };
}
