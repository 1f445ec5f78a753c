// The bundled hooks as real processes with real stdin on temporary projects.

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HOOKS } from '../../src/hooks/hook-registry.ts';
import { echoesPath, hookProject, protocol, startContext } from '../helpers/hook-process.ts';
import { runBundle, runHookSync } from '../helpers/run-bundle.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const project = hookProject;
const echoes = echoesPath;
const read = (p: string) => readFileSync(p, 'utf8');
const context = startContext;

const finding = (title: string, evidence: string, confidence: number, learning: string) =>
  `### [2026-11-20] Pattern: ${title}\n- **layer**: inscribed\n- **source**: test\n- **confidence**: ${confidence}\n- **evidence**: ${evidence}\n- **verified**: 2026-11-20\n- **supersedes**: none\n- ${learning}\n`;

test('stop consolidates findings files into MEMORY.md and removes them', (t) => {
  const { dir, env } = project(t);
  mkdirSync(echoes(dir, 'reviewer'), { recursive: true });
  writeFileSync(echoes(dir, 'reviewer', 'scout-findings.md'), finding('Unused imports', '`src/a.ts:1`', 0.6, 'Flag unused imports.'));
  writeFileSync(
    echoes(dir, 'reviewer', 'lint-findings.md'),
    finding('Unused imports', '`src/a.ts:1`', 0.9, 'Flag unused imports.') +
      '\n' +
      finding('Slow tests', 'CI log', 0.5, 'The suite is slow.'),
  );
  const r = runHookSync(
    'stop',
    { session_id: 's1', transcript_path: join(dir, 'none.jsonl'), cwd: dir, hook_event_name: 'Stop', stop_hook_active: false },
    { cwd: dir, env },
  );
  protocol(r);
  const memory = read(echoes(dir, 'reviewer', 'MEMORY.md'));
  assert.equal(memory.match(/### \[/g)?.length, 2, 'the repeated finding is merged');
  assert.match(memory, /\*\*confidence\*\*: 0\.9/, 'the higher confidence wins');
  assert.deepEqual(
    readdirSync(echoes(dir, 'reviewer')).filter((f) => f.endsWith('-findings.md')),
    [],
  );
});

test('session end writes EPHEMERAL.md; the next start injects it (it stays until a working session ends) and archives the ended session', (t) => {
  const { dir, env } = project(t);
  mkdirSync(join(dir, '.git')); // a git project: the store gets its .gitignore line
  const transcript = join(dir, 's1.jsonl');
  new TranscriptBuilder(transcript, 'sess-one', dir)
    .user('Fix the payment retry backoff in src/payments.ts')
    .tool('Read', { file_path: join(dir, 'src/http.ts') })
    .tool('Edit', { file_path: join(dir, 'src/payments.ts'), old_string: 'a', new_string: 'b' })
    .tool('Bash', { command: 'npm test' }, 'Tests: 12 passed')
    .assistant('Fixed: retries are now capped at 3 with jittered backoff.');
  const end = runHookSync(
    'session-end',
    { session_id: 'sess-one', transcript_path: transcript, cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' },
    { cwd: dir, env },
  );
  protocol(end);
  const eph = read(echoes(dir, 'EPHEMERAL.md'));
  assert.match(eph, /payment retry backoff/);
  assert.match(eph, /src\/payments\.ts/);
  // The final archive log waits for the next session's end, in case this session is resumed.
  assert.ok(!existsSync(echoes(dir, 'memories', 'archive-log-001.md')));
  assert.match(read(join(dir, '.gitignore')), /^\.claude\/echoes\/$/m);

  const start = runHookSync(
    'session-start',
    { session_id: 'sess-two', transcript_path: join(dir, 's2.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
    { cwd: dir, env },
  );
  const ctx = context(start);
  assert.match(ctx, /^<rune-echoes note="[^"]*not instructions[^"]*">/);
  assert.match(ctx, /<\/rune-echoes>$/);
  assert.match(ctx, /payment retry backoff/);
  assert.equal(read(echoes(dir, 'EPHEMERAL.md')), eph, 'kept until a session that works replaces it');
  const usage = read(echoes(dir, 'usage.jsonl'))
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  assert.ok(usage.some((u) => u.event === 'injected' && u.session === 'sess-two' && u.tokens > 0));

  // On compact the same digest comes again.
  const again = runHookSync(
    'session-start',
    { session_id: 'sess-two', transcript_path: join(dir, 's2.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'compact' },
    { cwd: dir, env },
  );
  assert.match(context(again), /payment retry backoff/);

  // The second session ends: the first one's span becomes its final archive log.
  protocol(
    runHookSync(
      'session-end',
      { session_id: 'sess-two', transcript_path: join(dir, 's2.jsonl'), cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' },
      { cwd: dir, env },
    ),
  );
  const log = read(echoes(dir, 'memories', 'archive-log-001.md'));
  assert.match(log, /trigger: session-end/);
  assert.match(log, /session: sess-one/);
  assert.match(read(echoes(dir, 'ARCHIVE.md')), /^- 001 · 2026-11-22 · session-end · /m);
});

test('two compactions of one session give logs 001 and 002, the second with only the new turns', (t) => {
  const { dir, env } = project(t);
  const transcript = join(dir, 's.jsonl');
  const b = new TranscriptBuilder(transcript, 'sess-c', dir)
    .user('First task: rename the config loader')
    .tool('Edit', { file_path: join(dir, 'src/config.ts'), old_string: 'load', new_string: 'readConfig' })
    .assistant('Renamed it.');
  const input = {
    session_id: 'sess-c',
    transcript_path: transcript,
    cwd: dir,
    hook_event_name: 'PreCompact',
    trigger: 'manual',
    custom_instructions: '',
  };
  protocol(runHookSync('pre-compact', input, { cwd: dir, env }));
  b.user('Second task: add a retry metric').assistant('Added the metric.');
  protocol(runHookSync('pre-compact', { ...input, trigger: 'auto' }, { cwd: dir, env }));
  const one = read(echoes(dir, 'memories', 'archive-log-001.md'));
  const two = read(echoes(dir, 'memories', 'archive-log-002.md'));
  assert.match(one, /rename the config loader/);
  assert.match(one, /trigger: precompact manual/);
  assert.match(two, /add a retry metric/);
  assert.doesNotMatch(two, /rename the config loader/);
  assert.match(two, /trigger: precompact auto/);
  const index = read(echoes(dir, 'ARCHIVE.md'));
  assert.match(index, /^- 001 · .* · precompact manual · /m);
  assert.match(index, /^- 002 · .* · precompact auto · /m);
});

test('sessions compacting at the same time get contiguous, unique archive numbers', async (t) => {
  const { dir, env } = project(t);
  const n = 6;
  const runs = Array.from({ length: n }, (_, i) => {
    const transcript = join(dir, `c${i}.jsonl`);
    new TranscriptBuilder(transcript, `sess-${i}`, dir)
      .user(`Task number ${i}: tidy module ${i}`)
      .tool('Edit', { file_path: join(dir, `src/m${i}.ts`), old_string: 'a', new_string: 'b' })
      .assistant(`Tidied module ${i}.`);
    const input = JSON.stringify({
      session_id: `sess-${i}`,
      transcript_path: transcript,
      cwd: dir,
      hook_event_name: 'PreCompact',
      trigger: 'auto',
    });
    return runBundle('pre-compact.cjs', [], { cwd: dir, input, env }).done;
  });
  for (const r of await Promise.all(runs)) protocol(r);
  const logs = readdirSync(echoes(dir, 'memories'))
    .filter((f) => f.endsWith('.md'))
    .sort();
  assert.deepEqual(
    logs,
    Array.from({ length: n }, (_, i) => `archive-log-${String(i + 1).padStart(3, '0')}.md`),
  );
  const lines = read(echoes(dir, 'ARCHIVE.md'))
    .split('\n')
    .filter((l) => l.startsWith('- '));
  assert.equal(lines.length, n);
  assert.equal(new Set(lines.map((l) => l.slice(2, 5))).size, n);
  const tasks = logs.map((f) => /Task number (\d)/.exec(read(echoes(dir, 'memories', f)))?.[1]).sort();
  assert.deepEqual(
    tasks,
    Array.from({ length: n }, (_, i) => String(i)),
  );
});

test('a session that never ended is recovered at the next start from its Stop draft', (t) => {
  const { dir, env } = project(t);
  const transcript = join(dir, 'crash.jsonl');
  const b = new TranscriptBuilder(transcript, 'sess-crash', dir)
    .user('Migrate the users table to UUID keys')
    .tool('Edit', { file_path: join(dir, 'db/migrate.sql') });
  protocol(
    runHookSync(
      'stop',
      { session_id: 'sess-crash', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false },
      { cwd: dir, env },
    ),
  );
  b.assistant('Migration written; the backfill still needs a batch size.');
  // No SessionEnd: the process was killed. The next session starts.
  const start = runHookSync(
    'session-start',
    { session_id: 'sess-next', transcript_path: join(dir, 'next.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
    { cwd: dir, env },
  );
  const ctx = context(start);
  assert.match(ctx, /Migrate the users table/);
  assert.match(ctx, /db\/migrate\.sql/);
  const log = read(echoes(dir, 'memories', 'archive-log-001.md'));
  assert.match(log, /trigger: recovery/);
  assert.match(read(echoes(dir, '.log')), /recovered the summary of session sess-crash/);
});

test('a session that never ended has its lessons captured when the next one starts', (t) => {
  const { dir, env } = project(t);
  const transcript = join(dir, 'crash.jsonl');
  new TranscriptBuilder(transcript, 'sess-crash', dir)
    .user('Build the site')
    .bash('npm run build', 1, "Error: Cannot find module 'vite'")
    .bash('npm ci', 0, 'added 300 packages')
    .bash('npm run build', 0, 'built in 2s');
  protocol(
    runHookSync(
      'stop',
      { session_id: 'sess-crash', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop', stop_hook_active: false },
      { cwd: dir, env },
    ),
  );
  // No SessionEnd: the process was killed. The next session starts.
  runHookSync(
    'session-start',
    { session_id: 'sess-next', transcript_path: join(dir, 'next.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
    { cwd: dir, env },
  );
  // Written as the team role's findings (merged into its MEMORY.md by the consolidation that follows).
  const team = ['capture-findings.md', 'MEMORY.md']
    .map((f) => (existsSync(echoes(dir, 'team', f)) ? read(echoes(dir, 'team', f)) : ''))
    .join('\n');
  assert.match(team, /Commands that build, check and run this project/);
  assert.match(team, /it passed after running `npm ci` first/);
});

test('a corrupted store never breaks the session and unreadable files are kept as they are', (t) => {
  const { dir, env } = project(t);
  mkdirSync(echoes(dir, 'reviewer'), { recursive: true });
  const binary = Buffer.from([0x00, 0xff, 0xfe, 0x00, 0x13, 0x37, 0x0a, 0x80]);
  writeFileSync(echoes(dir, 'reviewer', 'MEMORY.md'), binary);
  writeFileSync(echoes(dir, 'reviewer', 'a-findings.md'), finding('Thing', 'x', 0.5, 'A learning.'));
  writeFileSync(echoes(dir, 'EPHEMERAL.md'), Buffer.from([0x00, 0x01, 0x02, 0xc3, 0x28]));
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'rune-config.yml'), 'echoes: [unclosed\n  budget_tokens: : :\n');

  const stop = runHookSync(
    'stop',
    { session_id: 's', transcript_path: join(dir, 'x.jsonl'), cwd: dir, hook_event_name: 'Stop' },
    { cwd: dir, env },
  );
  protocol(stop);
  assert.deepEqual(readFileSync(echoes(dir, 'reviewer', 'MEMORY.md')), binary, 'binary MEMORY.md untouched');
  assert.ok(existsSync(echoes(dir, 'reviewer', 'a-findings.md')), 'findings kept for a later run');

  const start = runHookSync(
    'session-start',
    { session_id: 's2', transcript_path: join(dir, 'y.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
    { cwd: dir, env },
  );
  // Nothing in it can be read: the start answers, and injects nothing.
  assert.equal(protocol(start).hookSpecificOutput, undefined);
  assert.deepEqual(readFileSync(echoes(dir, 'EPHEMERAL.md')), Buffer.from([0x00, 0x01, 0x02, 0xc3, 0x28]), 'garbage EPHEMERAL.md kept');
  const log = read(echoes(dir, '.log'));
  assert.match(log, /invalid YAML/);
  assert.match(log, /reviewer.*not a text memory file/);
  for (const line of log.trim().split('\n')) assert.match(line, /^\d{4}-\d\d-\d\dT\S+ \S+ /, 'one line per problem');
});

test('bad stdin is logged, and the hook still exits 0 with protocol JSON', (t) => {
  const { dir, env } = project(t);
  for (const { name: hook } of HOOKS) {
    const r = runHookSync(hook, '{not json', { cwd: dir, env });
    protocol(r);
  }
  assert.match(read(echoes(dir, '.log')), /SyntaxError/);
});

test('RUNE_ECHOES_DISABLE=1 and inject: false skip the digest', (t) => {
  const { dir, env } = project(t);
  const input = { session_id: 's', transcript_path: join(dir, 'x.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' };
  assert.deepEqual(protocol(runHookSync('session-start', input, { cwd: dir, env: { ...env, RUNE_ECHOES_DISABLE: '1' } })), {
    suppressOutput: true,
  });
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'rune-config.yml'), 'echoes:\n  inject: false\n');
  assert.deepEqual(protocol(runHookSync('session-start', input, { cwd: dir, env })), { suppressOutput: true });
});

test('session_scope: user keeps EPHEMERAL.md, ARCHIVE.md and memories/ under ~/.claude/', (t) => {
  const { dir, home, env } = project(t);
  mkdirSync(join(dir, '.claude'), { recursive: true });
  writeFileSync(join(dir, '.claude', 'rune-config.yml'), 'echoes:\n  session_scope: user\n');
  const transcript = join(dir, 'u.jsonl');
  new TranscriptBuilder(transcript, 'sess-u', dir)
    .user('Document the deploy steps')
    .tool('Write', { file_path: join(dir, 'docs/deploy.md'), content: 'Steps.' })
    .assistant('Documented them in docs/deploy.md.');
  protocol(
    runHookSync(
      'session-end',
      { session_id: 'sess-u', transcript_path: transcript, cwd: dir, hook_event_name: 'SessionEnd', reason: 'exit' },
      { cwd: dir, env },
    ),
  );
  assert.match(read(join(home, '.claude', 'EPHEMERAL.md')), /deploy steps/);
  protocol(
    runHookSync(
      'session-start',
      { session_id: 'sess-v', transcript_path: join(dir, 'v.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
      { cwd: dir, env },
    ),
  );
  protocol(
    runHookSync(
      'session-end',
      { session_id: 'sess-v', transcript_path: join(dir, 'v.jsonl'), cwd: dir, hook_event_name: 'SessionEnd', reason: 'exit' },
      { cwd: dir, env },
    ),
  );
  assert.ok(existsSync(join(home, '.claude', 'memories', 'archive-log-001.md')));
  assert.match(read(join(home, '.claude', 'ARCHIVE.md')), /^- 001 · /m);
  assert.ok(!existsSync(echoes(dir, 'EPHEMERAL.md')));
  assert.ok(!existsSync(join(dir, '.gitignore')), 'no .gitignore is created outside a git project');
});

test('secrets in a conversation reach no file under .claude/echoes/', (t) => {
  const { dir, env } = project(t);
  const transcript = join(dir, 'sec.jsonl');
  const aws = 'AKIA' + 'QWERTYUIOPASDFGH';
  const gh = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8';
  new TranscriptBuilder(transcript, 'sess-s', dir)
    .user(`Use key ${aws} and token ${gh}; password=hunter2hunter2 and postgres://admin:s3cretpw@db.internal/app`)
    .tool('Bash', { command: `curl -H "Authorization: Bearer ${gh}" https://api.example.com` })
    .assistant(`Configured with ${aws}.`);
  protocol(
    runHookSync('stop', { session_id: 'sess-s', transcript_path: transcript, cwd: dir, hook_event_name: 'Stop' }, { cwd: dir, env }),
  );
  protocol(
    runHookSync(
      'pre-compact',
      { session_id: 'sess-s', transcript_path: transcript, cwd: dir, hook_event_name: 'PreCompact', trigger: 'manual' },
      { cwd: dir, env },
    ),
  );
  protocol(
    runHookSync(
      'session-end',
      { session_id: 'sess-s', transcript_path: transcript, cwd: dir, hook_event_name: 'SessionEnd', reason: 'exit' },
      { cwd: dir, env },
    ),
  );
  const files = readdirSync(echoes(dir), { recursive: true })
    .map(String)
    .filter((f) => !f.startsWith('.locks'));
  assert.ok(files.includes('EPHEMERAL.md'));
  for (const f of files) {
    const p = echoes(dir, f);
    let text: string;
    try {
      text = read(p);
    } catch {
      continue;
    }
    for (const secret of [aws, gh, 'hunter2hunter2', 's3cretpw']) assert.ok(!text.includes(secret), `${f} contains ${secret.slice(0, 6)}…`);
  }
});

test('a start right after an end gets the hand-off the end is still writing in the background', (t) => {
  const { dir, env } = project(t);
  const transcript = join(dir, 'a.jsonl');
  new TranscriptBuilder(transcript, 'sess-a', dir)
    .user('Rename the ledger tables')
    .tool('Edit', { file_path: join(dir, 'db/schema.sql') })
    .assistant('Renamed them.');
  const end = runHookSync(
    'session-end',
    { session_id: 'sess-a', transcript_path: transcript, cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' },
    { cwd: dir, env, background: false },
  );
  protocol(end);
  // No waiting for the worker here: the start itself must wait for it.
  const start = runHookSync(
    'session-start',
    { session_id: 'sess-b', transcript_path: join(dir, 'b.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
    { cwd: dir, env },
  );
  assert.match(context(start), /Rename the ledger tables/);
});

test('with no text in EPHEMERAL.md (an older plugin cleared it, or it is not text), sessions that do nothing keep getting the last hand-off', (t) => {
  const { dir, env } = project(t);
  mkdirSync(echoes(dir, '.state'), { recursive: true });
  writeFileSync(echoes(dir, '.state', 'given-last-session.md'), '# Last session\n## Asked\n- Migrate the ledger to Postgres 16\n');
  for (const [ephemeral, label] of [
    ['', 'cleared'],
    ['\u0000\u0001binary', 'not text'],
  ] as const) {
    writeFileSync(echoes(dir, 'EPHEMERAL.md'), ephemeral);
    for (const sid of [`${label}-1`, `${label}-2`, `${label}-3`]) {
      const start = runHookSync(
        'session-start',
        { session_id: sid, transcript_path: join(dir, `${sid}.jsonl`), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
        { cwd: dir, env },
      );
      assert.match(context(start), /Migrate the ledger to Postgres 16/, `${label}: ${sid}`);
      // The session did nothing and ends.
      new TranscriptBuilder(join(dir, `${sid}.jsonl`), sid, dir).user('hi').assistant('Hello.');
      protocol(
        runHookSync(
          'session-end',
          { session_id: sid, transcript_path: join(dir, `${sid}.jsonl`), cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' },
          { cwd: dir, env },
        ),
      );
    }
  }
});

test('a hook run in the root of the file system with input it cannot read makes no store there', (t) => {
  const { env } = project(t);
  const before = existsSync('/.claude');
  for (const h of HOOKS) {
    const r = runHookSync(h.name, 'not json at all', { cwd: '/', env, background: false });
    assert.equal(r.code, 0, h.name);
    protocol(r);
  }
  if (!before) assert.ok(!existsSync('/.claude'), 'no .claude made at /');
});

test('a resumed session that does nothing new leaves a newer hand-off; one that works hands itself on again', (t) => {
  const { dir, env } = project(t);
  const hook = (name: string, sid: string, extra: Record<string, unknown>) =>
    runHookSync(name, { session_id: sid, transcript_path: join(dir, `${sid}.jsonl`), cwd: dir, ...extra }, { cwd: dir, env });
  const start = (sid: string, source = 'startup') => hook('session-start', sid, { hook_event_name: 'SessionStart', source });
  const end = (sid: string) => protocol(hook('session-end', sid, { hook_event_name: 'SessionEnd', reason: 'other' }));
  const one = new TranscriptBuilder(join(dir, 's1.jsonl'), 's1', dir);
  start('s1');
  one
    .user('Rename the invoices table')
    .tool('Edit', { file_path: join(dir, 'db/schema.sql') })
    .assistant('Renamed.');
  end('s1');
  start('s2');
  new TranscriptBuilder(join(dir, 's2.jsonl'), 's2', dir)
    .user('Add the refunds endpoint')
    .tool('Edit', { file_path: join(dir, 'src/refunds.ts') })
    .assistant('Added.');
  end('s2');
  assert.match(read(echoes(dir, 'EPHEMERAL.md')), /refunds endpoint/);
  // s1 comes back, says hello, and ends: s2 is still the last session that worked.
  start('s1', 'resume');
  one.user('hi').assistant('Hello again.');
  end('s1');
  assert.match(read(echoes(dir, 'EPHEMERAL.md')), /refunds endpoint/);
  // s1 comes back and works: now it is the last.
  start('s1', 'resume');
  one
    .user('Drop the old invoices view')
    .tool('Edit', { file_path: join(dir, 'db/views.sql') })
    .assistant('Dropped.');
  end('s1');
  assert.match(read(echoes(dir, 'EPHEMERAL.md')), /invoices view/);
});

test('after a compaction a session is given again what it was given, not what a later session was', (t) => {
  const { dir, env } = project(t);
  mkdirSync(echoes(dir, '.state'), { recursive: true });
  writeFileSync(echoes(dir, 'EPHEMERAL.md'), '# Last session\n## Asked\n- Port the billing job to Go\n');
  const start = (sid: string, source: string) =>
    context(
      runHookSync(
        'session-start',
        { session_id: sid, transcript_path: join(dir, `${sid}.jsonl`), cwd: dir, hook_event_name: 'SessionStart', source },
        { cwd: dir, env },
      ),
    );
  assert.match(start('a', 'startup'), /billing job to Go/);
  // Another session ends meanwhile and hands on something else; a third starts with it.
  writeFileSync(echoes(dir, 'EPHEMERAL.md'), '# Last session\n## Asked\n- Upgrade the ORM\n');
  assert.match(start('b', 'startup'), /Upgrade the ORM/);
  const again = start('a', 'compact');
  assert.match(again, /billing job to Go/);
  assert.doesNotMatch(again, /Upgrade the ORM/);
});

test('after a compaction a session that worked is given what it was given at its start, never its own summary (issue 20, item 3)', (t) => {
  const { dir, env } = project(t);
  mkdirSync(echoes(dir, '.state'), { recursive: true });
  writeFileSync(
    echoes(dir, 'EPHEMERAL.md'),
    '# Last session — 2026-11-21 09:00 → 10:00 (session old…)\n## Asked\n- Port the billing job to Go\n',
  );
  const input = (source: string) => ({
    session_id: 'a',
    transcript_path: join(dir, 'a.jsonl'),
    cwd: dir,
    hook_event_name: 'SessionStart',
    source,
  });
  assert.match(context(runHookSync('session-start', input('startup'), { cwd: dir, env })), /billing job to Go/);
  new TranscriptBuilder(join(dir, 'a.jsonl'), 'a', dir)
    .user('Add a refunds endpoint to src/refunds.ts')
    .tool('Edit', { file_path: join(dir, 'src/refunds.ts') })
    .tool('Bash', { command: 'npm test' })
    .assistant('Added the refunds endpoint; the tests pass.');
  const compact = { session_id: 'a', transcript_path: join(dir, 'a.jsonl'), cwd: dir };
  protocol(runHookSync('pre-compact', { ...compact, hook_event_name: 'PreCompact', trigger: 'auto' }, { cwd: dir, env }));
  const again = context(runHookSync('session-start', input('compact'), { cwd: dir, env }));
  assert.match(again, /billing job to Go/);
  assert.doesNotMatch(again, /refunds endpoint|This session before its compaction/, 'the compaction summary holds what it did');
  // The hand-off in EPHEMERAL.md stays the last session's until this one ends.
  assert.match(read(echoes(dir, 'EPHEMERAL.md')), /billing job to Go/);
});

test('a resumed session is given nothing its conversation holds: after /compact and --resume, one block (issue 20, item 3)', (t) => {
  const { dir, env } = project(t);
  mkdirSync(echoes(dir, 'team'), { recursive: true });
  writeFileSync(
    echoes(dir, 'team', 'MEMORY.md'),
    '# Team\n\n### [2026-11-20] Pattern: Use npm ci in CI\n- **layer**: etched\n- **source**: test\n- **confidence**: 0.9\n- **evidence**: CI log\n- **verified**: 2026-11-20\n- **supersedes**: none\n- Always npm ci, never npm install, in CI.\n',
  );
  const start = (sid: string, source: string) =>
    protocol(
      runHookSync(
        'session-start',
        { session_id: sid, transcript_path: join(dir, `${sid}.jsonl`), cwd: dir, hook_event_name: 'SessionStart', source },
        { cwd: dir, env },
      ),
    );
  const end = (sid: string) =>
    protocol(
      runHookSync(
        'session-end',
        { session_id: sid, transcript_path: join(dir, `${sid}.jsonl`), cwd: dir, hook_event_name: 'SessionEnd', reason: 'other' },
        { cwd: dir, env: { ...env, RUNE_ECHOES_INLINE: '1', CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' } },
      ),
    );
  const given = (out: Record<string, unknown>) =>
    String((out as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '');
  assert.match(given(start('a', 'startup')), /npm ci/);
  new TranscriptBuilder(join(dir, 'a.jsonl'), 'a', dir)
    .user('Add a refunds endpoint to src/refunds.ts')
    .tool('Edit', { file_path: join(dir, 'src/refunds.ts') })
    .assistant('Added the refunds endpoint.');
  end('a');
  // `claude -p /compact --resume a`: SessionStart(resume), PreCompact, SessionStart(compact), SessionEnd.
  assert.equal(given(start('a', 'resume')), '', 'its conversation holds the lesson and its own hand-off');
  protocol(
    runHookSync(
      'pre-compact',
      { session_id: 'a', transcript_path: join(dir, 'a.jsonl'), cwd: dir, hook_event_name: 'PreCompact', trigger: 'manual' },
      { cwd: dir, env },
    ),
  );
  const compacted = given(start('a', 'compact'));
  assert.match(compacted, /npm ci/, 'the compaction dropped the lesson: it is given again');
  assert.doesNotMatch(compacted, /refunds endpoint/, 'never its own summary');
  end('a');
  // `claude -p hi --resume a`: the block after the compaction is in its conversation.
  assert.equal(given(start('a', 'resume')), '');
  // A lesson new to it is given on a resume.
  writeFileSync(
    echoes(dir, 'team', 'MEMORY.md'),
    `${read(echoes(dir, 'team', 'MEMORY.md'))}\n### [2026-11-21] Pattern: Pin the Node version\n- **layer**: etched\n- **source**: test\n- **confidence**: 0.9\n- **evidence**: CI log\n- **verified**: 2026-11-21\n- **supersedes**: none\n- Pin Node 22 in .nvmrc.\n`,
  );
  assert.match(given(start('a', 'resume')), /Pin Node 22/);
});

test('an empty store injects nothing at a session start', (t) => {
  const { dir, env } = project(t);
  const out = protocol(
    runHookSync(
      'session-start',
      { session_id: 's', transcript_path: join(dir, 's.jsonl'), cwd: dir, hook_event_name: 'SessionStart', source: 'startup' },
      { cwd: dir, env },
    ),
  );
  assert.equal((out as { hookSpecificOutput?: unknown }).hookSpecificOutput, undefined, JSON.stringify(out));
  assert.ok(!existsSync(echoes(dir, 'usage.jsonl')), 'no injection to log');
});

test("a /rune:echoes prompt's arguments, kept as typed for its CLI call, are gone when the turn ends", (t) => {
  const { dir, env } = project(t);
  const token = `ghp_${'x1Y'.repeat(12)}`;
  const base = { session_id: 's', transcript_path: join(dir, 's.jsonl'), cwd: dir };
  protocol(
    runHookSync(
      'user-prompt-submit',
      { ...base, hook_event_name: 'UserPromptSubmit', prompt: `/rune:echoes remember the token is ${token}` },
      { cwd: dir, env },
    ),
  );
  const stash = echoes(dir, '.state', 'slash', 's.txt');
  assert.ok(existsSync(stash), 'kept for the command');
  new TranscriptBuilder(join(dir, 's.jsonl'), 's', dir).user('/rune:echoes remember …').assistant('Permission was refused.');
  protocol(runHookSync('stop', { ...base, hook_event_name: 'Stop', stop_hook_active: false }, { cwd: dir, env }));
  assert.ok(!existsSync(stash), 'not kept past the turn');
});
