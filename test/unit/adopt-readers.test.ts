// The readers of other tools' memory on fixtures written for this project
// (ArcheFlow lessons.jsonl and recall-echo were not found in public
// repositories: their fixtures follow seeds 001 and 002), the bad inputs the
// issue names, and properties: on any text every reader's parts add up to
// the text, and nothing throws.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { readMemoryIndex, readTopicFile } from '../../src/core/adopt/read-auto-memory.ts';
import { readClaudeMd } from '../../src/core/adopt/read-claude-md.ts';
import { readContinuity, readFooter } from '../../src/core/adopt/read-continuity.ts';
import { readEchoFile } from '../../src/core/adopt/read-echo-file.ts';
import { readLessonsJsonl } from '../../src/core/adopt/read-lessons-jsonl.ts';
import { detectKind } from '../../src/core/adopt/read-source.ts';
import { entriesOf, type ReadContext, type SourceReading, verbatimOf } from '../../src/core/adopt/source-reading.ts';

const FIX = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/adopt');
const read = (rel: string) => readFileSync(join(FIX, rel), 'utf8');
const ctx = (ref: string, source = 'test'): ReadContext => ({ ref, fileDay: '2026-05-10', source });
const joined = (r: SourceReading) => r.parts.map((p) => p.raw).join('');

test('ArcheFlow lessons: each lesson is an entry with its type, frequency, tags and day; broken lines are notes', () => {
  const text = read('lessons.jsonl');
  const r = readLessonsJsonl(text, ctx('.archeflow/memory/lessons.jsonl'));
  assert.equal(joined(r), text);
  const entries = entriesOf(r).map((p) => p.entry);
  assert.deepEqual(
    entries.map((e) => [e.kind, e.title, e.layer, e.confidence, e.date]),
    [
      ['Pattern', 'Timeline references must match story start day', 'inscribed', 0.6, '2026-04-03'],
      ['Preference', 'User prefers a single bundled PR over many small ones', 'inscribed', 0.9, '2026-04-05'],
      ['Hint', 'Sage catches voice drift in monologues longer than 200 words', 'inscribed', 0.7, '2026-04-06'],
      ['Anti-pattern', 'Retrying the migration without a lock corrupted the schema table', 'traced', 0.5, '2026-04-07'],
      ['Pattern', 'Missing null checks on optional config values crash the worker', 'inscribed', 0.9, '2026-04-09'],
    ],
  );
  assert.deepEqual(entries[0]!.tags, ['continuity', 'timeline', 'bug', 'writing']);
  assert.equal(entries[0]!.source, 'archeflow guardian (run 2026-04-03-der-huster)');
  assert.match(entries[0]!.evidence, /^`\.archeflow\/memory\/lessons\.jsonl:1` — ArcheFlow lesson m-001, seen 2×$/);
  assert.deepEqual(entries[0]!.extra, [
    ['archeflow_id', 'm-001'],
    ['frequency', '2'],
    ['last_seen_run', '2026-04-03-der-huster'],
  ]);
  assert.equal(r.notes.length, 2);
  assert.match(r.notes[0]!, /^\.archeflow\/memory\/lessons\.jsonl:5: not a lesson \(.*\); skipped$/);
  assert.match(r.notes[1]!, /:6: lesson m-006 has no description; skipped$/);
});

test('recall-echo curated MEMORY.md: notes under headings and index lines become entries', () => {
  const text = read('recall-echo/.claude/memory/MEMORY.md');
  const r = readMemoryIndex(text, ctx('~/.claude/memory/MEMORY.md', 'recall-echo'));
  assert.equal(joined(r), text);
  const entries = entriesOf(r).map((p) => p.entry);
  assert.deepEqual(
    entries.map((e) => [e.kind, e.title, e.date]),
    [
      ['Note', 'Preferences', '2026-05-10'],
      ['Note', 'Payments service', '2026-05-02'],
      ['Note', 'Tools', '2026-05-10'],
    ],
  );
  assert.equal(
    entries[0]!.learning,
    '- Prefers TypeScript strict mode and small pure functions.\n- Answers should lead with the result, then the reasoning.',
  );
  assert.equal(entries[1]!.source, 'recall-echo');
  // With its topic file read on its own, the index line is not an entry twice.
  const again = readMemoryIndex(text, { ...ctx('~/.claude/memory/MEMORY.md', 'recall-echo'), topicFiles: new Set(['payments.md']) });
  assert.deepEqual(
    entriesOf(again).map((p) => p.entry.title),
    ['Preferences', 'Tools'],
  );
  assert.ok(verbatimOf(again).some((p) => p.why === 'an index line whose topic file is read on its own'));
});

test('a topic file with frontmatter is one entry: title from the name, kind from the type, the body as the learning', () => {
  const text =
    '---\nname: Deploy on Tuesdays\ndescription: Deploys go out on Tuesdays only\ntype: project\n---\n\nThe release manager signs off in #releases.\n';
  const r = readTopicFile(text, ctx('~/.claude/projects/x/memory/project_deploys.md'), 'project_deploys.md');
  const [e] = entriesOf(r).map((p) => p.entry);
  assert.equal(e!.title, 'Deploy on Tuesdays');
  assert.equal(e!.kind, 'Project');
  assert.equal(e!.learning, 'Deploys go out on Tuesdays only\n\nThe release manager signs off in #releases.');
  assert.deepEqual(e!.tags, ['project']);
  assert.equal(r.notes.length, 0);
});

test('a topic file with broken frontmatter is a one-line note and is still imported', () => {
  const text = read('broken-frontmatter.md');
  const r = readTopicFile(text, ctx('~/.claude/projects/x/memory/deploys.md'), 'deploys.md');
  assert.equal(r.notes.length, 1);
  assert.match(r.notes[0]!, /^~\/\.claude\/projects\/x\/memory\/deploys\.md: broken frontmatter \(.+\); read as a plain note$/);
  const [e] = entriesOf(r).map((p) => p.entry);
  assert.equal(e!.title, 'Deploys go out on Tuesdays only; the release manager signs off in #releases');
  assert.equal(joined(r), text);
});

test('CLAUDE.md: items under learnings headings are entries, the rest (and what export wrote) stays verbatim', () => {
  const text = read('claude-md-with-learnings.md');
  const r = readClaudeMd(text, ctx('CLAUDE.md', 'claude-md'));
  assert.equal(joined(r), text);
  const entries = entriesOf(r).map((p) => p.entry);
  assert.deepEqual(
    entries.map((e) => [e.title, e.date]),
    [
      ['Flaky e2e login test', '2026-05-10'],
      ['Prisma transactions need an explicit timeout (2026-04-12), or long imports hang', '2026-04-12'],
      ['pnpm dev does not rebuild the shared package; run pnpm -F shared build --watch', '2026-05-10'],
    ],
  );
  assert.equal(
    entries[1]!.learning,
    'Prisma transactions need an explicit timeout (2026-04-12), or long imports hang.\nThe default is 5 s.',
  );
  assert.ok(!entries.some((e) => /Exported lesson|pnpm test/.test(e.learning)), 'export section and other sections are not learnings');
  assert.ok(verbatimOf(r).some((p) => p.why === 'written by rune-echoes export'));
  assert.deepEqual(r.notes, []);
});

test('CLAUDE.md without a learnings section: a one-line note, nothing to import', () => {
  const r = readClaudeMd(read('claude-md-without-learnings.md'), ctx('CLAUDE.md', 'claude-md'));
  assert.equal(entriesOf(r).length, 0);
  assert.deepEqual(r.notes, [
    'CLAUDE.md: no learnings section (## Learnings, ## Lessons learned, ## Gotchas, ## Pitfalls); nothing to import',
  ]);
});

test('continuity.md: a footer at the end of the fact’s own line gives the id and leaves the text', () => {
  const text = '## Key Decisions\n\n- Use Postgres for everything <!-- id: use-postgres | tier: active -->\n';
  const [e] = entriesOf(readContinuity(text, ctx('memory/continuity.md', 'continuity'))).map((p) => p.entry);
  assert.equal(e!.id, 'use-postgres');
  assert.equal(e!.learning, 'Use Postgres for everything');
  assert.equal(e!.title, 'Use Postgres for everything');
});

test('continuity.md: footers give id, dates, tier and supersedes; core and invariants are etched; Project State stays verbatim', () => {
  const text = [
    '# Continuity — demo',
    '',
    '## Project State',
    '',
    '- **project:** demo',
    '- **last_session:** 2026-05-01',
    '',
    '## Architectural Invariants',
    '',
    '- Never write outside the repo (ADR-1)',
    '  <!-- id: repo-scope | created: 2026-04-01 | last_used: 2026-05-01 | uses: 9 | tier: active -->',
    '',
    '## Key Decisions',
    '',
    '- POST-only for mutations, no PUT/PATCH',
    '  <!-- id: post-only-mutations | created: 2026-03-08 | last_used: 2026-04-12 | uses: 14 | tier: core | supersedes: rest-verbs -->',
    '- Webhooks are fire-and-forget',
    '  <!-- id: webhook-fire-forget | created: 2026-03-10 | last_used: 2026-03-10 | uses: 1 | tier: archive-candidate -->',
    '',
    '## Open Threads',
    '',
    '- [ ] Add tests for the router',
    '- [x] **Shipped v2** — the migration ran clean.',
    '',
  ].join('\n');
  const r = readContinuity(text, ctx('memory/continuity.md', 'continuity'));
  assert.equal(joined(r), text);
  const entries = entriesOf(r).map((p) => p.entry);
  assert.deepEqual(
    entries.map((e) => [e.id, e.kind, e.layer, e.confidence, e.date, e.verified, e.supersedes]),
    [
      ['repo-scope', 'Invariant', 'etched', 0.8, '2026-04-01', '2026-05-01', 'none'],
      ['post-only-mutations', 'Decision', 'etched', 0.9, '2026-03-08', '2026-04-12', 'rest-verbs'],
      ['webhook-fire-forget', 'Decision', 'traced', 0.4, '2026-03-10', '2026-03-10', 'none'],
      ['', 'Thread', 'inscribed', 0.7, '2026-05-10', '2026-05-10', 'none'],
      ['', 'Thread', 'inscribed', 0.7, '2026-05-10', '2026-05-10', 'none'],
    ],
  );
  assert.equal(entries[1]!.learning, 'POST-only for mutations, no PUT/PATCH');
  assert.deepEqual(entries[1]!.extra, [
    ['tier', 'core'],
    ['uses', '14'],
  ]);
  assert.equal(entries[4]!.title, 'Shipped v2');
  assert.deepEqual(entries[4]!.extra, [['thread', 'done']]);
  assert.ok(verbatimOf(r).some((p) => p.why === 'Project State: state, not lessons' && p.raw.includes('last_session')));
  assert.deepEqual(readFooter('<!-- id: a-b | tier: working -->'), { id: 'a-b', tier: 'working' });
});

test('a file the user names is read in the format its name and text say', () => {
  assert.equal(detectKind('x/.archeflow/memory/lessons.jsonl', ''), 'archeflow');
  assert.equal(detectKind('memory/continuity.md', ''), 'continuity');
  assert.equal(detectKind('notes.md', '- fact\n  <!-- id: x | tier: core -->\n'), 'continuity');
  assert.equal(detectKind('CLAUDE.md', '# x\n'), 'claude-md');
  assert.equal(detectKind('.claude/agent-memory/scout/MEMORY.md', '# x\n'), 'agent-memory');
  assert.equal(detectKind('old/MEMORY.md', '## Inscribed — Lesson (2026-03-01)\n\nText.\n'), 'rune');
  assert.equal(detectKind('MEMORY.md', '# Memory\n\n## Notes\n- one\n'), 'auto-memory');
});

test('a bare ## heading over notes gives them a title from their own words', () => {
  const r = readMemoryIndex('##\n!\n\n## \n- Use pnpm, never npm, in this repo.\n', ctx('MEMORY.md'));
  const titles = entriesOf(r).map((e) => e.entry.title);
  assert.deepEqual(titles, ['!', 'Use pnpm, never npm, in this repo']);
});

// ---------------------------------------------------------------- properties

const mdLine = fc.oneof(
  fc.constantFrom(
    '# Title',
    '## Section (added 2026-03-01)',
    '### Sub',
    '- item',
    '- [x] **Done** thing',
    '- [Link](topic_a.md) — hook',
    '  continued',
    '  <!-- id: fact-a | created: 2026-01-02 | tier: core -->',
    '```',
    '---',
    '',
    '1. numbered',
    '## Lessons learned',
    '## Inscribed — Old lesson (2026-02-01)',
    '**Confidence**: LOW',
    '<!-- rune-echoes:export begin (written by `rune-echoes export`; edits inside are replaced on the next export) -->',
    '<!-- rune-echoes:export end -->',
  ),
  fc.string({ maxLength: 30 }),
);
const mdText = fc.tuple(fc.array(mdLine, { maxLength: 40 }), fc.constantFrom('\n', '\r\n')).map(([lines, eol]) => lines.join(eol));

test('every reader cuts any text into parts that add up to it, and never throws', () => {
  fc.assert(
    fc.property(mdText, fc.boolean(), (text, withTopics) => {
      const c = { ...ctx('f.md'), ...(withTopics ? { topicFiles: new Set(['topic_a.md']) } : {}) };
      for (const r of [
        readMemoryIndex(text, c),
        readTopicFile(text, c, 'topic.md'),
        readContinuity(text, c),
        readClaudeMd(text, c),
        readEchoFile(text, c),
        readLessonsJsonl(text, c),
      ]) {
        assert.equal(joined(r), text.replace(/^\uFEFF/, ''));
        for (const e of entriesOf(r)) assert.ok(e.entry.title.length > 0 && e.entry.evidence.length > 0);
      }
    }),
    { numRuns: Number(process.env.RUNE_FUZZ_RUNS ?? 300) },
  );
});
