// Issue 18, items 17–19: hostile input that still got through. Secrets of two
// formats reached the archive and the search index; a findings file that was
// not UTF-8 text was deleted after consolidation; a huge store held the
// session's hand-off back past the time Claude Code gives SessionEnd.

import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { hookSpec } from '../../src/hooks/hook-registry.ts';
import { executeHook } from '../../src/hooks/run-hook.ts';
import { sessionEnd } from '../../src/hooks/session-end-handler.ts';
import { cliJson, cliOk, runCli } from '../helpers/cli-run.ts';
import { makeTempProject, type TempProject } from '../helpers/temp-project.ts';
import { TranscriptBuilder } from '../helpers/transcript-builder.ts';

/** Every file under the store, with its text (latin1: bytes as they are). */
function storeFiles(tp: TempProject): Array<{ path: string; text: string }> {
  const out: Array<{ path: string; text: string }> = [];
  const walk = (dir: string) => {
    for (const n of readdirSync(dir)) {
      const p = join(dir, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.push({ path: p.slice(tp.dir.length + 1), text: readFileSync(p, 'latin1') });
    }
  };
  walk(join(tp.dir, '.claude'));
  return out;
}

/** Where any 12-character piece of a secret is on disk, in any case (the index keeps its words lower-cased). */
function leaks(tp: TempProject, secrets: string[]): string[] {
  const found: string[] = [];
  for (const { path, text } of storeFiles(tp)) {
    const lower = text.toLowerCase();
    for (const s of secrets)
      for (let i = 0; i + 12 <= s.length; i++)
        if (lower.includes(s.slice(i, i + 12).toLowerCase())) {
          found.push(`${path}: ${s.slice(i, i + 12)}`);
          break;
        }
  }
  return found;
}

const SID = 'AC0fa1b2c3d4e5f60718293a4b5c6d7e8f';
const TOKENS = ['9f8e7d6c5b4a39281716a5b4c3d2e1f0', 'e4d3c2b1a0f9e8d7c6b5a49382716051', '5f8c0a9b8c7d6e5f4a3b2c1d0e9f8a7b'];
const KEY_IDS = ['8c1d4e7f0a3b6c9d2e5f8a1b4c7d0e3f6a9b2c5d', 'b7e1c3a9d5f20468ace13579bdf02468ace13579'];
const PEM = 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7FAKE';

function serviceAccount(keyId: string): Record<string, string> {
  return {
    type: 'service_account',
    project_id: 'fake-project',
    private_key_id: keyId,
    private_key: `-----BEGIN PRIVATE KEY-----\n${PEM}\nFAKEexample0000==\n-----END PRIVATE KEY-----\n`,
    client_email: 'bot@fake-project.iam.gserviceaccount.com',
  };
}

test('item 17: a Twilio auth token and a Google service-account key reach no file: memory, archive, pruned entries, search index', async (t) => {
  const tp = makeTempProject(t);
  tp.write('.claude/rune-config.yml', 'echoes:\n  memory_max_lines: 40\n');
  const shapes = [
    `client = Client("${SID}", "${TOKENS[0]}")`,
    `client = Client(\n    "${SID}",\n    "${TOKENS[1]}",\n)`,
    `Client(account_sid="${SID}", auth_token="${TOKENS[2]}")`,
    `Key file: ${JSON.stringify(serviceAccount(KEY_IDS[0]!), null, 2)}`,
    `GOOGLE_CREDENTIALS=${JSON.stringify(JSON.stringify(serviceAccount(KEY_IDS[1]!)))}`,
  ];
  const findings = shapes
    .map(
      (body, i) =>
        `### [2026-05-0${i + 1}] Pattern: Messaging client setup ${i}\n- **layer**: traced\n- **confidence**: 0.4\n- **evidence**: src/notify${i}.py\n\n${body}\n`,
    )
    .join('\n');
  tp.write('.claude/echoes/team/scout-findings.md', findings);
  await cliOk(tp, ['consolidate']);
  await cliOk(tp, ['search', 'client']);
  await cliOk(tp, ['prune']);
  await cliOk(tp, ['search', 'messaging']);
  assert.ok(
    storeFiles(tp).some((f) => f.path.includes('/archive/')),
    'pruning moved entries to the archive',
  );
  assert.deepEqual(leaks(tp, [...TOKENS, ...KEY_IDS, PEM]), []);
  // Memory a teammate wrote by hand is the user's file, but what the index keeps of it (words and text) is filtered.
  const hand = shapes.map((body, i) => `### [2026-05-0${i + 1}] Pattern: Hand written ${i}\n- **id**: hand-${i}\n- ${body}\n`);
  tp.write('.claude/echoes/planner/MEMORY.md', `<!-- echo-schema: v2 -->\n# Planner\n\n${hand.join('\n')}`);
  await cliOk(tp, ['search', 'hand written']);
  const indexed = leaks(tp, [...TOKENS, ...KEY_IDS, PEM]).filter((l) => !l.startsWith('.claude/echoes/planner/MEMORY.md'));
  assert.deepEqual(
    indexed.filter((l) => l.includes('.state/search/')),
    [],
  );
});

test('item 18: a findings file that cannot be read without loss stays on disk, and status says so until it is fixed', async (t) => {
  const tp = makeTempProject(t);
  const entry = (title: string) => `### [2026-05-01] Pattern: ${title}\n- **layer**: traced\n- **confidence**: 0.6\n- Body of ${title}.\n`;
  // UTF-16 (no BOM): with NULs dropped it would decode as other, valid text; latin-1; a stray NUL.
  const utf16 = Buffer.from(entry('中文 cache keys'), 'utf16le');
  const latin1 = Buffer.from(entry('Caf\xe9 cache'), 'latin1');
  const nul = Buffer.from(entry('Null \u0000 byte'), 'utf8');
  tp.write('.claude/echoes/reviewer/.keep', '');
  for (const [agent, bytes] of [
    ['wide', utf16],
    ['latin', latin1],
    ['nul', nul],
  ] as const)
    writeFileSync(join(tp.dir, `.claude/echoes/reviewer/${agent}-findings.md`), bytes);
  await cliOk(tp, ['record', '--role', 'reviewer', '--agent', 'good', '--pattern', 'Retry uploads', 'Uploads need one retry.']);
  const report = await cliJson(tp, ['consolidate']);
  assert.equal(report.roles[0].appended.length, 1, 'the readable finding merged');
  assert.equal(report.roles[0].setAside.length, 3, JSON.stringify(report.roles[0]));
  const archive = join(tp.dir, '.claude/echoes/reviewer/archive');
  const kept = readdirSync(archive).map((n) => readFileSync(join(archive, n)));
  for (const bytes of [utf16, latin1, nul])
    assert.ok(
      kept.some((k) => k.equals(bytes)),
      'its bytes are on disk as they were',
    );
  const memory = readFileSync(join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'), 'utf8');
  assert.ok(!/cache keys|Caf|Null/.test(memory), 'nothing read from them in a damaged form');
  const status = await runCli(tp, ['status']);
  for (const agent of ['wide', 'latin', 'nul'])
    assert.match(
      status.stdout,
      new RegExp(`problem: \\.claude/echoes/reviewer/archive/unreadable-${agent}-findings-[^\\n]*not UTF-8 text`),
    );
  const json = await cliJson(tp, ['status']);
  assert.equal(json.setAsideFindings.length, 3);
  // Converted and moved back, it is read without loss, and status no longer lists it.
  const wide = readdirSync(archive).find((n) => n.startsWith('unreadable-wide-'))!;
  writeFileSync(join(tp.dir, '.claude/echoes/reviewer/wide-findings.md'), readFileSync(join(archive, wide)).toString('utf16le'));
  execFileSync('rm', [join(archive, wide)]);
  await cliOk(tp, ['consolidate']);
  assert.match(readFileSync(join(tp.dir, '.claude/echoes/reviewer/MEMORY.md'), 'utf8'), /中文 cache keys/);
  assert.equal((await cliJson(tp, ['status'])).setAsideFindings.length, 2);
});

test('item 19: SessionEnd writes the hand-off before it reads the store, whatever its size; use is still told', async (t) => {
  const tp = makeTempProject(t);
  const transcript = join(tp.dir, 't.jsonl');
  new TranscriptBuilder(transcript, 'sess-big', tp.dir)
    .user('Rename the config loader and keep its tests green')
    .tool('Read', { file_path: join(tp.dir, 'src/config.ts') })
    .tool('Edit', { file_path: join(tp.dir, 'src/config.ts') });
  const memory =
    '<!-- echo-schema: v2 -->\n# Team\n\n### [2026-05-01] Pattern: Config loader caches\n- **id**: config-loader-caches\n- **layer**: inscribed\n- **confidence**: 0.8\n- **evidence**: src/config.ts\n- The config loader caches by mtime.\n';
  // MEMORY.md is a pipe: whoever reads it waits until the helper below writes it. The helper notes
  // whether the hand-off was on disk at the moment the hook began to read the store.
  tp.write('.claude/echoes/team/.keep', '');
  const fifo = join(tp.dir, '.claude/echoes/team/MEMORY.md');
  execFileSync('mkfifo', [fifo]);
  const seen = join(tp.dir, 'seen.txt');
  const helper = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs');
       const [fifo, ephemeral, seen, text] = process.argv.slice(1);
       const fd = fs.openSync(fifo, 'w');
       fs.writeFileSync(seen, fs.existsSync(ephemeral) ? 'handed-off' : 'not-yet');
       fs.writeFileSync(fifo + '.tmp', text);
       fs.renameSync(fifo + '.tmp', fifo);
       fs.writeSync(fd, text);
       fs.closeSync(fd);`,
      fifo,
      join(tp.dir, '.claude/echoes/EPHEMERAL.md'),
      seen,
      memory,
    ],
    { stdio: 'ignore' },
  );
  t.after(() => {
    if (helper.exitCode === null) helper.kill();
  });
  await executeHook(
    hookSpec('session-end'),
    sessionEnd,
    { session_id: 'sess-big', transcript_path: transcript, cwd: tp.dir, reason: 'other' },
    // SessionEnd's budget raised as Claude Code's setting does: its use step runs however busy the machine is.
    { HOME: join(tp.dir, 'home'), CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: '600000' },
    tp.dir,
  );
  await new Promise<void>((resolve) => (helper.exitCode === null ? helper.on('exit', () => resolve()) : resolve()));
  assert.equal(readFileSync(seen, 'utf8'), 'handed-off', 'the hand-off was written before the store was read');
  assert.match(readFileSync(join(tp.dir, '.claude/echoes/EPHEMERAL.md'), 'utf8'), /Rename the config loader/);
  // The part SessionEnd read is read again for use once the entries are loaded.
  const usage = readFileSync(join(tp.dir, '.claude/echoes/usage.jsonl'), 'utf8');
  assert.match(usage, /"event":"used"[^\n]*config-loader-caches/);
  assert.ok(existsSync(join(tp.dir, '.claude/echoes/team/MEMORY.md')));
});
