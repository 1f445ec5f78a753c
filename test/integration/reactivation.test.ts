// Issue 20, item 8: an entry pruning archived that a session uses again comes
// back (the seed's evolving memory: movement between the tiers goes both ways).
import assert from 'node:assert/strict';
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { cliJson } from '../helpers/cli-run.ts';
import { makeTempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const NOW = new Date('2026-05-01T10:00:00Z');

const live = [
  '<!-- echo-schema: v2 -->',
  '# Reviewer Memory',
  '',
  '### [2026-04-20] Pattern: Retry backoff lives in the client',
  '- **id**: retry-backoff',
  '- **layer**: inscribed',
  '- **evidence**: `src/retry.ts:10` — backoff',
  '- **verified**: 2026-04-20',
  '- Retries are capped at 3.',
  '',
].join('\n');

const archive = [
  '<!-- echo-schema: v2 -->',
  '# Reviewer Memory — archived entries',
  '',
  '## Archived 2026-04-02 from MEMORY.md by automatic pruning between sessions — inscribed, unused 90 days',
  '### [2025-12-01] Pattern: The cache key includes the locale',
  '- **id**: cache-key-locale',
  '- **layer**: inscribed',
  '- **evidence**: `src/cache.ts:12` — key',
  '- **verified**: 2025-12-01',
  '- Two locales shared one cache entry until the key included the locale.',
  '',
  '## Archived 2026-04-02 from MEMORY.md by automatic pruning between sessions — inscribed, unused 90 days',
  '### [2025-11-01] Pattern: Old queue name',
  '- **id**: old-queue-name',
  '- **layer**: inscribed',
  '- **evidence**: `src/queue.ts:3` — name',
  '- **verified**: 2025-11-01',
  '- The queue was called jobs-v1.',
  '',
].join('\n');

test('an archived entry a session uses again is brought back into MEMORY.md, verified that day, and leaves the archive', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/reviewer/MEMORY.md', live);
  tp.write('.claude/echoes/reviewer/archive/pruned.md', archive);
  utimesSync(tp.write('src/cache.ts', 'export const key = (l) => l;\n'), new Date('2025-11-01'), new Date('2025-11-01'));
  const transcript = join(tp.dir, 's1.jsonl');
  new TranscriptBuilder(transcript, 's1', tp.dir)
    .user('Why do two locales get the same cached page?')
    .tool('Read', { file_path: join(tp.dir, 'src/cache.ts') })
    .bash('npm test -- cache', 0, 'ok')
    .assistant('The key already includes the locale.');
  const env = { HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' };
  await executeHook(
    hookSpec('session-end'),
    sessionEnd,
    { session_id: 's1', transcript_path: transcript, cwd: tp.dir, reason: 'other' },
    env,
    tp.dir,
    { now: NOW },
  );

  const memory = tp.read('.claude/echoes/reviewer/MEMORY.md')!;
  assert.ok(memory.startsWith(live), 'the live entries keep their bytes');
  assert.match(memory, /### \[2025-12-01\] Pattern: The cache key includes the locale\n- \*\*id\*\*: cache-key-locale\n/);
  assert.match(memory, /- \*\*verified\*\*: 2026-05-01/);
  const pruned = tp.read('.claude/echoes/reviewer/archive/pruned.md')!;
  assert.doesNotMatch(pruned, /cache-key-locale/, 'no longer in the archive');
  assert.equal((pruned.match(/^## Archived /gm) ?? []).length, 1, 'its header line left with it');
  assert.match(pruned, /### \[2025-11-01\] Pattern: Old queue name/, 'the entry nobody used stays archived');
  const used = readFileSync(join(tp.dir, '.claude/echoes/usage.jsonl'), 'utf8');
  assert.match(used, /"event":"used","ids":\["reviewer#cache-key-locale"\]/);
  const shown = (await cliJson(tp, ['show', 'reviewer'], { now: NOW })).roles[0].items;
  const back = shown.find((i: { id: string }) => i.id === 'cache-key-locale');
  assert.equal(back.used, 1);
  assert.equal(back.ageDays, 0);
  assert.equal(tp.read('.claude/echoes/.log'), null, 'bringing an entry back is no problem to log');
});
