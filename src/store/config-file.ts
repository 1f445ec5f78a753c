// Loads `.claude/rune-config.yml`. The YAML parser is imported only when the
// file exists and differs from the copy parsed last time: the parsed result is
// cached in .state/config-cache.json under the file's exact text, so a hook in
// a configured project reads two small files instead of loading a YAML parser.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultConfig, type EchoesConfig } from '../core/config-defaults.ts';
import { writeFileAtomic } from './atomic-file.ts';
import { echoPaths } from './echo-paths.ts';

export interface LoadedConfig {
  config: EchoesConfig;
  warnings: string[];
}

interface CachedConfig extends LoadedConfig {
  version: number;
  text: string;
}

/** Bump when parsing changes, so a cache written by an older plugin is not trusted. */
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
    return { config: defaultConfig(), warnings: [`.claude/rune-config.yml: unreadable (${code}); using defaults`] };
  }
  // The cache lives in the project's store whatever the session scope.
  const paths = echoPaths(root, defaultConfig());
  const cacheFile = join(paths.stateDir, 'config-cache.json');
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as CachedConfig;
    if (cached.version === CACHE_VERSION && cached.text === text && cached.config && Array.isArray(cached.warnings)) return { config: cached.config, warnings: cached.warnings };
  } catch { /* no cache yet, or a torn one: parse */ }
  const { parseConfig } = await import('../core/config-schema.ts');
  const loaded = parseConfig(text);
  // Only into a store that exists: creating it here would skip its first-write set-up.
  if (existsSync(paths.echoes)) {
    try {
      writeFileAtomic(paths, cacheFile, JSON.stringify({ version: CACHE_VERSION, text, ...loaded }), { durable: false });
    } catch { /* a cache that cannot be written is only slower */ }
  }
  return loaded;
}
