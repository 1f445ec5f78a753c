// Issue 20, item 7: sessions that did no work (`claude -p hello`, a session of
// `/rune:echoes` commands) are not in the relevance window. Six of them took a
// used entry from 0.88 to 0.62; twenty made every entry score alike and had
// `status` advise forgetting entries an hour old. Only working sessions count.
import assert from 'node:assert/strict';
import { utimesSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook, type HookHandler } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { sessionStart } from '../../src/hooks/session-start-handler.ts';
import { cliJson, cliOk } from '../helpers/cli-run.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

const NOW = new Date('2026-05-01T10:00:00Z');
// A generous SessionEnd budget: what is asserted must not depend on how fast the machine is.
const env = (tp: TempProject): NodeJS.ProcessEnv => ({ HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' });

async function hook(tp: TempProject, name: string, handler: HookHandler, input: Record<string, unknown>, at: Date): Promise<void> {
  await executeHook(hookSpec(name), handler, { cwd: tp.dir, ...input }, env(tp), tp.dir, { now: at });
}

async function session(tp: TempProject, id: string, at: Date, build: (b: TranscriptBuilder) => void): Promise<void> {
  const transcript = join(tp.dir, `${id}.jsonl`);
  await hook(tp, 'session-start', sessionStart, { session_id: id, transcript_path: transcript, source: 'startup' }, at);
  build(new TranscriptBuilder(transcript, id, tp.dir));
  await hook(tp, 'session-end', sessionEnd, { session_id: id, transcript_path: transcript, reason: 'other' }, at);
}

const memory = [
  '<!-- echo-schema: v2 -->',
  '# Reviewer Memory',
  '',
  '### [2026-05-01] Pattern: Retry backoff lives in the client',
  '- **id**: retry-backoff',
  '- **layer**: inscribed',
  '- **evidence**: `src/retry.ts:10` — backoff',
  '- **verified**: 2026-05-01',
  '- Retries are capped at 3.',
  '',
  '### [2026-05-01] Pattern: Ledger totals round half to even',
  '- **id**: ledger-rounding',
  '- **layer**: inscribed',
  '- **evidence**: `src/ledger.ts:4` — rounding',
  '- **verified**: 2026-05-01',
  '- Round half to even in the ledger.',
  '',
].join('\n');

test('sessions that did no work leave the ranking as the working sessions made it, and status advises nothing from them', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/echoes/reviewer/MEMORY.md', memory);
  // The cited file last changed before the entry was verified: the entry is not stale.
  utimesSync(tp.write('src/retry.ts', 'export const retries = 3;\n'), new Date('2026-04-01'), new Date('2026-04-01'));
  await session(tp, 'work', NOW, (b) =>
    b
      .user('Tighten the retry code')
      .tool('Read', { file_path: join(tp.dir, 'src/retry.ts') })
      .bash('npm test -- retry', 0, 'ok')
      .assistant('The retries are capped at 3 already.'),
  );
  const score = async () =>
    Object.fromEntries(
      (await cliJson(tp, ['show'], { now: NOW })).roles[0].items.map((i: { id: string; score: number }) => [i.id, i.score]),
    );
  const before = await score();
  assert.equal(before['retry-backoff'], 0.88, 'used by the one working session: relevance 1');

  // Six `claude -p hello` runs and twenty sessions of `/rune:echoes` commands: each is given the digest, none works.
  for (let i = 0; i < 6; i++) await session(tp, `hello-${i}`, NOW, (b) => b.user('hello').assistant('Hello! How can I help you today?'));
  for (let i = 0; i < 20; i++)
    await session(tp, `slash-${i}`, NOW, (b) =>
      b
        .user(
          '<command-message>rune:echoes</command-message>\n<command-name>/rune:echoes</command-name>\n<command-args>status</command-args>',
        )
        .assistant('Memory is healthy.'),
    );
  assert.deepEqual(await score(), before, 'the idle sessions changed no score');
  const shown = (await cliJson(tp, ['show'], { now: NOW })).roles[0].items.find((i: { id: string }) => i.id === 'ledger-rounding');
  assert.equal(shown.injected, 1, 'given once in a working session; what idle sessions were given is not counted');
  const status = await cliOk(tp, ['status'], { now: NOW });
  assert.match(status, /usage \(1 session in the relevance window\)/);
  assert.doesNotMatch(status, /given, never used/);
  assert.equal((await cliJson(tp, ['status'], { now: NOW })).usage.sessions, 1);
});
