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
  /** Reads a value people write for this key into its type first (YAML 1.1's yes/no for a boolean). */
  coerce?: (value: unknown) => unknown;
};

/** A key of a nested mapping (`echoes.recall.max_items`): the property it sets and its check. */
type SubKeySpec = { prop: string; check: (value: unknown) => string | null; coerce?: (value: unknown) => unknown };

const isBool = (v: unknown) => (typeof v === 'boolean' ? null : 'true or false (yes/no and on/off work too)');
/** YAML 1.2 reads `no` as a string; people mean false. */
const YAML11_BOOLEANS: Record<string, boolean> = {
  yes: true,
  y: true,
  on: true,
  true: true,
  no: false,
  n: false,
  off: false,
  false: false,
};
const asBool = (v: unknown) =>
  typeof v === 'string' && Object.hasOwn(YAML11_BOOLEANS, v.trim().toLowerCase()) ? YAML11_BOOLEANS[v.trim().toLowerCase()] : v;
const wholeNumber = (min: number, max: number) => (v: unknown) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? null : `a whole number from ${min} to ${max}`;
const positiveInt = (max: number) => wholeNumber(1, max);
const stringList = (v: unknown) => (Array.isArray(v) && v.every((s) => typeof s === 'string' && s.length > 0) ? null : 'a list of strings');

const KEYS: Record<string, KeySpec> = {
  version_controlled: { field: 'versionControlled', check: isBool, coerce: asBool },
  session_scope: {
    field: 'sessionScope',
    check: (v) => (v === 'project' || v === 'user' ? null : '"project" or "user"'),
  },
  inject: { field: 'inject', check: isBool, coerce: asBool },
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

const numberIn = (min: number, max: number) => (v: unknown) =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? null : `a number from ${min} to ${max}`;

/** `echoes.recall`: prompt-time and subagent recall. */
const RECALL_KEYS: Record<string, SubKeySpec> = {
  on_prompt: { prop: 'onPrompt', check: isBool, coerce: asBool },
  on_subagent: { prop: 'onSubagent', check: isBool, coerce: asBool },
  on_failure: { prop: 'onFailure', check: isBool, coerce: asBool },
  max_items: { prop: 'maxItems', check: wholeNumber(1, 10) },
  max_tokens: { prop: 'maxTokens', check: wholeNumber(50, 4000) },
  threshold: { prop: 'threshold', check: numberIn(0, 100) },
  subagent_tokens: { prop: 'subagentTokens', check: wholeNumber(100, 20_000) },
};

/** Nested mappings: each subkey checked on its own, so one bad value keeps the others. */
const NESTED: Record<string, (value: unknown, config: EchoesConfig, warn: (w: string) => void) => void> = {
  recall(value, config, warn) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      warn(
        '"echoes.recall" should be a mapping (on_prompt, on_subagent, on_failure, max_items, max_tokens, threshold, subagent_tokens); defaults kept',
      );
      return;
    }
    for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
      const spec = Object.hasOwn(RECALL_KEYS, key) ? RECALL_KEYS[key] : undefined;
      if (!spec) {
        warn(`unknown key "echoes.recall.${key}" ignored`);
        continue;
      }
      const given = spec.coerce ? spec.coerce(raw) : raw;
      const expected = spec.check(given);
      const recall = config.recall as unknown as Record<string, unknown>;
      if (expected) warn(`"echoes.recall.${key}" should be ${expected}; it stays ${describeDefault(recall[spec.prop])}`);
      else recall[spec.prop] = given;
    }
  },
  capture(value, config, warn) {
    const kinds = Object.keys(config.capture) as Array<keyof typeof config.capture>;
    const all = asBool(value);
    if (typeof all === 'boolean') {
      for (const k of kinds) config.capture[k] = all;
      return;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      warn(`"echoes.capture" should be true, false or a mapping of ${kinds.join(', ')} to true/false; it stays ON (the default)`);
      return;
    }
    for (const [key, raw] of Object.entries(value as Record<string, unknown>)) {
      const given = asBool(raw);
      if (!(kinds as string[]).includes(key)) warn(`unknown key "echoes.capture.${key}" ignored (expected ${kinds.join(', ')})`);
      else if (typeof given !== 'boolean') warn(`"echoes.capture.${key}" should be true or false; it stays ON (the default)`);
      else config.capture[key as keyof typeof config.capture] = given;
    }
  },
  agents(value, config, warn) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      warn('"echoes.agents" should be a mapping of subagent-type: role, like { ward-sentinel: reviewer }; ignored');
      return;
    }
    for (const [type, role] of Object.entries(value as Record<string, unknown>)) {
      if (!/^[A-Za-z0-9][\w.:-]{0,127}$/.test(type)) {
        warn(`"echoes.agents" key "${type.slice(0, 60)}" is not a subagent type; ignored`);
        continue;
      }
      if (typeof role !== 'string' || !isSafeName(role)) {
        warn(`"echoes.agents.${type}" should name a role like reviewer; ignored`);
        continue;
      }
      config.agents[type] = role;
    }
  },
};

export const CONFIG_KEYS = [...Object.keys(KEYS), ...Object.keys(NESTED)];

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
    if (Object.hasOwn(NESTED, key)) {
      NESTED[key]!(value, config, (w) => warnings.push(`${source}: ${w}`));
      continue;
    }
    // Own keys only: `toString`, `constructor` or `__proto__` in the file must not find Object.prototype.
    const spec = Object.hasOwn(KEYS, key) ? KEYS[key] : undefined;
    if (!spec) {
      warnings.push(`${source}: unknown key "echoes.${key}" ignored`);
      continue;
    }
    const given = spec.coerce ? spec.coerce(value) : value;
    const expected = spec.check(given);
    if (expected) {
      // Say what the default means: `inject: maybe` leaves injection ON, which is not what was asked.
      warnings.push(`${source}: "echoes.${key}" should be ${expected}; it stays ${describeDefault(config[spec.field])}`);
      continue;
    }
    (config as unknown as Record<string, unknown>)[spec.field] = Array.isArray(given) ? [...given] : given;
  }
  return { config, warnings };
}

function describeDefault(value: unknown): string {
  if (value === true) return 'ON (the default)';
  if (value === false) return 'OFF (the default)';
  if (Array.isArray(value)) return value.length ? `[${value.join(', ')}] (the default)` : 'empty (the default)';
  if (value !== null && typeof value === 'object') return 'empty (the default)';
  return `${String(value)} (the default)`;
}
