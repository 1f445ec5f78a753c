import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CONFIG, defaultConfig } from '../../src/core/config/config-defaults.ts';
import { CONFIG_KEYS, parseConfig } from '../../src/core/config/config-schema.ts';

test('no file, an empty file and a comment-only file all give the defaults without warnings', () => {
  for (const text of [null, '', '   \n\n', '# just a comment\n', 'echoes:\n', 'echoes: null\n']) {
    const { config, warnings } = parseConfig(text);
    assert.deepEqual(config, defaultConfig(), `for ${JSON.stringify(text)}`);
    assert.deepEqual(warnings, [], `for ${JSON.stringify(text)}`);
  }
});

test('the defaults are the ones the spec names', () => {
  const d = defaultConfig();
  assert.equal(d.versionControlled, false);
  assert.equal(d.sessionScope, 'project');
  assert.equal(d.inject, true);
  assert.equal(d.budgetTokens, 1500);
  assert.equal(d.memoryMaxLines, 150);
  assert.equal(d.knowledgeMaxLines, 300);
  assert.equal(d.relevanceWindow, 20);
  assert.deepEqual(d.roles, ['planner', 'workers', 'reviewer', 'auditor', 'team']);
  assert.deepEqual(d.ignore, ['**/.env*', '**/*.pem', '**/id_rsa*', '**/secrets/**']);
  assert.deepEqual(d.renames, {});
});

test('defaultConfig returns fresh lists, so one caller changing them cannot change the defaults', () => {
  const a = defaultConfig();
  a.roles.push('intruder');
  a.ignore.length = 0;
  a.renames.x = 'y';
  const b = defaultConfig();
  assert.deepEqual(b.roles, [...DEFAULT_CONFIG.roles]);
  assert.equal(b.roles.includes('intruder'), false);
  assert.equal(b.ignore.length, 4);
  assert.deepEqual(b.renames, {});
});

test('every key is read when valid', () => {
  const text = [
    'echoes:',
    '  version_controlled: true',
    '  session_scope: user',
    '  inject: false',
    '  budget_tokens: 800',
    '  memory_max_lines: 200',
    '  knowledge_max_lines: 400',
    '  prune_per_session: 4',
    '  relevance_window: 10',
    '  roles: [planner, code-reviewer, qa2]',
    '  ignore: ["**/*.key", "private/**"]',
    '  renames: { old-agent: new-agent }',
    '  recall: { on_prompt: no, on_subagent: false, on_failure: off, max_items: 2, max_tokens: 200, threshold: 2.5, subagent_tokens: 600 }',
    '  agents: { ward-sentinel: reviewer, "rune:plan-keeper": planner }',
    '  capture: { commands: true, fixes: false, corrections: off, obstacles: yes }',
    '',
  ].join('\n');
  const { config, warnings } = parseConfig(text);
  assert.deepEqual(warnings, []);
  assert.deepEqual(config, {
    versionControlled: true,
    sessionScope: 'user',
    inject: false,
    budgetTokens: 800,
    memoryMaxLines: 200,
    knowledgeMaxLines: 400,
    prunePerSession: 4,
    relevanceWindow: 10,
    roles: ['planner', 'code-reviewer', 'qa2'],
    ignore: ['**/*.key', 'private/**'],
    renames: { 'old-agent': 'new-agent' },
    recall: { onPrompt: false, onSubagent: false, onFailure: false, maxItems: 2, maxTokens: 200, threshold: 2.5, subagentTokens: 600 },
    agents: { 'ward-sentinel': 'reviewer', 'rune:plan-keeper': 'planner' },
    capture: { commands: true, fixes: false, corrections: false, obstacles: true },
  });
  assert.equal(CONFIG_KEYS.length, 14);
});

test('recall and agents are checked key by key: a bad value warns and keeps only its own default', () => {
  const { config, warnings } = parseConfig(
    [
      'echoes:',
      '  recall: { max_items: 0, max_tokens: 250, threshold: high, sideways: 1 }',
      '  agents: { ward-sentinel: Reviewer, "__proto__": reviewer, auditor-bot: auditor }',
      '',
    ].join('\n'),
  );
  assert.deepEqual(config.recall, { ...defaultConfig().recall, maxTokens: 250 });
  assert.deepEqual(config.agents, { 'auditor-bot': 'auditor' });
  assert.equal(Object.getPrototypeOf(config.agents), Object.prototype);
  assert.equal(warnings.length, 5, warnings.join('\n'));
  assert.ok(warnings.some((w) => w.includes('"echoes.recall.max_items" should be a whole number from 1 to 10; it stays 3 (the default)')));
  assert.ok(warnings.some((w) => w.includes('unknown key "echoes.recall.sideways" ignored')));
  assert.ok(warnings.some((w) => w.includes('"echoes.agents.ward-sentinel" should name a role')));
  assert.deepEqual(parseConfig('echoes:\n  recall: 3\n').config.recall, defaultConfig().recall);
});

test("a key with a wrong value warns once, names the key, and keeps that key's default only", () => {
  const cases: Array<[string, string]> = [
    ['version_controlled: "sometimes"', 'versionControlled'],
    ['version_controlled: 1', 'versionControlled'],
    ['session_scope: global', 'sessionScope'],
    ['inject: off-ish', 'inject'],
    ['budget_tokens: 0', 'budgetTokens'],
    ['budget_tokens: -5', 'budgetTokens'],
    ['budget_tokens: 1.5', 'budgetTokens'],
    ['budget_tokens: "1500"', 'budgetTokens'],
    ['budget_tokens: 100001', 'budgetTokens'],
    ['budget_tokens: 99', 'budgetTokens'],
    ['memory_max_lines: .inf', 'memoryMaxLines'],
    ['knowledge_max_lines: []', 'knowledgeMaxLines'],
    ['relevance_window: 10001', 'relevanceWindow'],
    ['roles: reviewer', 'roles'],
    ['roles: [Reviewer]', 'roles'],
    ['roles: ["../etc"]', 'roles'],
    ['roles: ["a b"]', 'roles'],
    ['roles: [1, 2]', 'roles'],
    ['ignore: "**/*.pem"', 'ignore'],
    ['ignore: [""]', 'ignore'],
    ['renames: [a, b]', 'renames'],
    ['renames: { a: 1 }', 'renames'],
    ['renames: null', 'renames'],
  ];
  for (const [line, field] of cases) {
    const key = line.split(':')[0]!;
    // A valid key beside the bad one must still be read.
    const [companion, companionField, companionValue] =
      key === 'inject' ? ['budget_tokens: 777', 'budgetTokens', 777] : ['inject: false', 'inject', false];
    const { config, warnings } = parseConfig(`echoes:\n  ${line}\n  ${companion}\n`);
    assert.equal(warnings.length, 1, `one warning for ${line}: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0]!, new RegExp(`"echoes\\.${key}"`), line);
    assert.match(warnings[0]!, /it stays .* \(the default\)/, line);
    assert.doesNotMatch(warnings[0]!, /\n/, 'warnings are one line');
    assert.deepEqual(config[field as keyof typeof config], DEFAULT_CONFIG[field as keyof typeof DEFAULT_CONFIG], line);
    assert.equal(config[companionField as keyof typeof config], companionValue, `the valid key next to ${line} is still read`);
  }
});

test('unknown keys at both levels are reported and ignored', () => {
  const { config, warnings } = parseConfig('echoes:\n  budget_token: 10\n  inject: false\nother: 1\n');
  assert.equal(config.inject, false);
  assert.equal(config.budgetTokens, 1500);
  assert.equal(warnings.length, 2);
  assert.ok(warnings.some((w) => w.includes('"echoes.budget_token"')));
  assert.ok(warnings.some((w) => w.includes('"other"')));
});

test('keys that name Object.prototype members are unknown keys, not a crash', () => {
  for (const key of ['toString', 'constructor', 'hasOwnProperty', '__proto__', 'valueOf']) {
    const { config, warnings } = parseConfig(`echoes:\n  ${key}: 1\n  budget_tokens: 700\n`);
    assert.equal(config.budgetTokens, 700, key);
    assert.equal(warnings.length, 1, `${key}: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0]!, /unknown key/, key);
  }
  // Nothing leaked onto the prototype of plain objects.
  assert.equal(({} as Record<string, unknown>).budget_tokens, undefined);
});

test('invalid YAML gives one warning and the defaults, never a throw', () => {
  for (const text of ['echoes: [unclosed\n', 'echoes:\n  inject: true\n bad-indent: 1\n', '\t- tab\n', 'a: "unterminated\n']) {
    const { config, warnings } = parseConfig(text);
    assert.deepEqual(config, defaultConfig(), text);
    assert.equal(warnings.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0]!, /invalid YAML/);
    assert.doesNotMatch(warnings[0]!, /\n/);
  }
});

test('a document that is not a mapping, or an echoes key that is not one, warns and uses the defaults', () => {
  for (const text of ['just a string\n', '- a\n- b\n', '42\n', 'echoes: 3\n', 'echoes: [a]\n', 'echoes: text\n']) {
    const { config, warnings } = parseConfig(text);
    assert.deepEqual(config, defaultConfig(), text);
    assert.equal(warnings.length, 1, `${JSON.stringify(text)}: ${JSON.stringify(warnings)}`);
  }
});

test('YAML warnings (an unknown tag) become one-line warnings of ours, and nothing is printed', async () => {
  const printed: Error[] = [];
  const listener = (w: Error) => printed.push(w);
  process.on('warning', listener);
  const { config, warnings } = parseConfig('echoes: !custom\n  inject: false\n');
  await new Promise((r) => setImmediate(r));
  process.off('warning', listener);
  assert.deepEqual(printed, [], 'no process warning (it would land on stderr)');
  assert.equal(config.inject, false);
  assert.equal(warnings.length, 1, JSON.stringify(warnings));
  assert.match(warnings[0]!, /Unresolved tag: !custom/);
});

test('several YAML documents in one file are refused as invalid, not half-read', () => {
  const { config, warnings } = parseConfig('echoes:\n  inject: false\n---\nechoes:\n  inject: true\n');
  assert.deepEqual(config, defaultConfig());
  assert.match(warnings[0]!, /invalid YAML/);
});

test('warnings name the file they came from', () => {
  const { warnings } = parseConfig('echoes:\n  inject: 3\n', 'custom/path.yml');
  assert.match(warnings[0]!, /^custom\/path\.yml: /);
});

test('a repeated key takes its last value instead of failing the whole file', () => {
  const { config, warnings } = parseConfig('echoes:\n  budget_tokens: 1000\n  budget_tokens: 2000\n');
  assert.equal(config.budgetTokens, 2000);
  assert.deepEqual(warnings, []);
});

test('CRLF files and YAML comments parse like LF files', () => {
  const { config, warnings } = parseConfig('# team settings\r\nechoes:\r\n  version_controlled: true # shared\r\n  budget_tokens: 900\r\n');
  assert.deepEqual(warnings, []);
  assert.equal(config.versionControlled, true);
  assert.equal(config.budgetTokens, 900);
});

test('list values are copies, so changing the config does not change what the parser saw', () => {
  const { config } = parseConfig('echoes:\n  roles: [a, b]\n');
  config.roles.push('c');
  assert.deepEqual(parseConfig('echoes:\n  roles: [a, b]\n').config.roles, ['a', 'b']);
});

test('an empty roles list and an empty ignore list are allowed (the user opts out)', () => {
  const { config, warnings } = parseConfig('echoes:\n  roles: []\n  ignore: []\n');
  assert.deepEqual(warnings, []);
  assert.deepEqual(config.roles, []);
  assert.deepEqual(config.ignore, []);
});

test('booleans may be written the YAML 1.1 way: yes/no, on/off, in any case', () => {
  for (const [text, value] of [
    ['inject: no', false],
    ['inject: Off', false],
    ['inject: "NO"', false],
    ['inject: yes', true],
    ['inject: on', true],
    ['version_controlled: Yes', true],
  ] as const) {
    const { config, warnings } = parseConfig(`echoes:\n  ${text}\n`);
    assert.deepEqual(warnings, [], text);
    assert.equal(text.startsWith('inject') ? config.inject : config.versionControlled, value, text);
  }
});

test('capture: false turns every kind off; an unknown kind or a bad value warns and keeps capture on', () => {
  assert.deepEqual(parseConfig('echoes:\n  capture: false\n').config.capture, {
    commands: false,
    fixes: false,
    corrections: false,
    obstacles: false,
  });
  const { config, warnings } = parseConfig('echoes:\n  capture: { lessons: false, fixes: maybe }\n');
  assert.deepEqual(config.capture, { commands: true, fixes: true, corrections: true, obstacles: true });
  assert.equal(warnings.length, 2);
  assert.match(warnings[0]!, /unknown key "echoes\.capture\.lessons"/);
  assert.match(warnings[1]!, /"echoes\.capture\.fixes" should be true or false/);
});
