// Checks a parsed config document (SPEC §13). Kept apart from the YAML parser
// so a cached document can be checked again without loading it.

import { isSafeName } from '../text.ts';
import { defaultConfig, type EchoesConfig } from './config-defaults.ts';
export interface ConfigResult {
  config: EchoesConfig;
  warnings: string[];
}

type KeySpec = {
  field: keyof EchoesConfig;
  check: (value: unknown) => string | null; // null when valid, else what was expected
};

const isBool = (v: unknown) => (typeof v === 'boolean' ? null : 'true or false');
const wholeNumber = (min: number, max: number) => (v: unknown) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : `a whole number from ${min} to ${max}`;
const positiveInt = (max: number) => wholeNumber(1, max);
const stringList = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0) ? null : 'a list of strings');

const KEYS: Record<string, KeySpec> = {
  version_controlled: { field: 'versionControlled', check: isBool },
  session_scope: {
    field: 'sessionScope',
    check: (v) => (v === 'project' || v === 'user' ? null : '"project" or "user"'),
  },
  inject: { field: 'inject', check: isBool },
  budget_tokens: { field: 'budgetTokens', check: wholeNumber(100, 100_000) }, // below 100 the wrapper and footer leave no room
  memory_max_lines: { field: 'memoryMaxLines', check: positiveInt(100_000) },
  knowledge_max_lines: { field: 'knowledgeMaxLines', check: positiveInt(100_000) },
  prune_per_session: { field: 'prunePerSession', check: wholeNumber(0, 100_000) },
  relevance_window: { field: 'relevanceWindow', check: positiveInt(10_000) },
  roles: {
    field: 'roles',
    check: (v) => (stringList(v) === null && (v as string[]).every(isSafeName) ? null : 'a list of role names like [planner, reviewer]'),
  },
  ignore: { field: 'ignore', check: stringList },
  renames: {
    field: 'renames',
    check: (v) =>
      v !== null && typeof v === 'object' && !Array.isArray(v) && Object.values(v).every((s) => typeof s === 'string')
        ? null
        : 'a mapping of old-name: new-name',
  },
};

export const CONFIG_KEYS = Object.keys(KEYS);

/** Parses the config file text. `source` names the file in warnings. */
export function validateConfigDocument(doc: unknown, source = '.claude/rune-config.yml', warnings: string[] = []): ConfigResult {
  const config = defaultConfig();
  if (doc === null || doc === undefined) return { config, warnings };
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    warnings.push(`${source}: expected a mapping with an "echoes:" key; using defaults`);
    return { config, warnings };
  }
  for (const top of Object.keys(doc)) {
    if (top !== 'echoes') warnings.push(`${source}: unknown key "${top}" ignored (expected "echoes")`);
  }
  const echoes = (doc as Record<string, unknown>).echoes;
  if (echoes === undefined || echoes === null) return { config, warnings };
  if (typeof echoes !== 'object' || Array.isArray(echoes)) {
    warnings.push(`${source}: "echoes" must be a mapping; using defaults`);
    return { config, warnings };
  }
  for (const [key, value] of Object.entries(echoes as Record<string, unknown>)) {
    // Own keys only: `toString`, `constructor` or `__proto__` in the file must not find Object.prototype.
    const spec = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
    if (!spec) {
      warnings.push(`${source}: unknown key "echoes.${key}" ignored`);
      continue;
    }
    const expected = spec.check(value);
    if (expected) {
      warnings.push(`${source}: "echoes.${key}" should be ${expected}; using the default`);
      continue;
    }
    (config as unknown as Record<string, unknown>)[spec.field] = Array.isArray(value) ? [...value] : value;
  }
  return { config, warnings };
}
