// Captured lessons merge by signature (SPEC §6a): sightings in later sessions raise them, never to etched.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { appendEntries } from '../../src/core/entry/document-edits.ts';
import { documentEntries, newMemoryDocumentText, parseEchoDocument, serializeEchoDocument } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../../src/core/entry/echo-entry.ts';
import { mergeCommandLines, mergeSighting } from '../../src/core/lifecycle/captured-merge.ts';
import { consolidateDocument, identityKeys } from '../../src/core/lifecycle/consolidation.ts';
import { digestCandidates } from '../../src/core/recall/digest.ts';
import { makeEntry } from './entry-arbitrary.ts';

const sighting = (session: string, over: Partial<EchoEntry> = {}): EchoEntry =>
  makeEntry({
    title: `npm install: npm error Cannot read properties of null (${session})`,
    evidence: `session ${session}: \`npm install\` failed`,
    layer: 'traced',
    confidence: 0.5,
    verified: '2026-11-20',
    learning: '`npm install` failed; it passed after running `rm -rf node_modules` first.',
    captured: 'fix',
    signature: "error:npm error cannot read properties of null reading 'matches'",
    sessions: session,
    ...over,
  });

function docWith(entries: EchoEntry[]) {
  return appendEntries(parseEchoDocument(newMemoryDocumentText('Team Memory')), entries);
}

test('the same lesson seen in a second session merges by signature, whatever its title, and becomes inscribed', () => {
  const doc = docWith([sighting('aaaa1111')]);
  const r = consolidateDocument(doc, [sighting('bbbb2222', { verified: '2026-11-25' })]);
  assert.equal(r.appends.length, 0);
  const [e] = documentEntries(r.doc);
  assert.equal(e!.layer, 'inscribed');
  assert.equal(e!.sessions, 'aaaa1111, bbbb2222');
  assert.equal(e!.confidence, 0.6);
  assert.equal(e!.verified, '2026-11-25');
  // Read back from the text, the fields survive.
  const again = documentEntries(parseEchoDocument(serializeEchoDocument(r.doc)))[0]!;
  assert.equal(again.signature, e!.signature);
  assert.equal(again.captured, 'fix');
});

test('a re-run for the same session changes nothing (a kill and a retry, a compaction then the end)', () => {
  const doc = docWith([sighting('aaaa1111')]);
  const r = consolidateDocument(doc, [sighting('aaaa1111')]);
  assert.deepEqual(r.updates, []);
  assert.equal(serializeEchoDocument(r.doc), serializeEchoDocument(doc));
});

test('confidence rises with each new session up to 0.9, and the layer never becomes etched', () => {
  let e = sighting('s1');
  for (const s of ['s2', 's3', 's4', 's5', 's6', 's7']) e = mergeSighting(e, sighting(s));
  assert.equal(e.confidence, 0.9);
  assert.equal(e.layer, 'inscribed');
  const etched = mergeSighting({ ...sighting('s1'), layer: 'etched' }, sighting('s2'));
  assert.equal(etched.layer, 'etched');
});

test('an obstacle seen again is stated afresh: the newer statement replaces the older ones that quote its error, a line a person added stays', () => {
  const line = 'X Pull request acme/app#79 is not mergeable: the base branch policy prohibits the merge.';
  const obstacle = (session: string, learning: string, over: Partial<EchoEntry> = {}): EchoEntry =>
    sighting(session, { captured: 'obstacle', symptom: line, signature: 'error:x pull request', learning, ...over });
  let e = obstacle('s1', `\`gh pr merge 79 --merge\` failed with "${line}" and the session did not get past it.`);
  e = mergeSighting(e, obstacle('s2', `Met again across sessions: "${line}" (from \`gh pr\`).`));
  assert.equal(e.learning, `Met again across sessions: "${line}" (from \`gh pr\`).`, 'the dead end of the first session is behind it');
  e = { ...e, learning: `${e.learning}\nWhen "${line}" comes back, ask Ana before merging with --admin.` };
  e = mergeSighting(
    e,
    obstacle('s3', `Met again across sessions: "${line}" (from \`gh pr\`). Fix seen: it passed with \`--admin\`.`, {
      solution: 'It passed with `--admin`',
    }),
  );
  assert.deepEqual(e.learning.split('\n'), [
    `When "${line}" comes back, ask Ana before merging with --admin.`,
    `Met again across sessions: "${line}" (from \`gh pr\`). Fix seen: it passed with \`--admin\`.`,
  ]);
  assert.equal(e.solution, 'It passed with `--admin`', 'what fixed it, once a sighting knows it');
  assert.equal(e.sessions, 's1, s2, s3');
  const again = obstacle('s3', `Met again across sessions: "${line}" (from \`gh pr\`). Fix seen: it passed with \`--admin\`.`, {
    solution: 'It passed with `--merge --admin`',
  });
  assert.equal(mergeSighting(e, again), e, 'the same session captured again (a compaction, then the end) changes nothing');
  const theirs = mergeSighting({ ...e, solution: 'Ask Ana first' }, obstacle('s4', e.learning.split('\n')[1]!, { solution: 'It passed' }));
  assert.equal(theirs.solution, 'Ask Ana first', "a solution the entry has stays (a person's, say)");
  const etched = mergeSighting({ ...e, layer: 'etched' }, obstacle('s4', `Met again across sessions: "${line}".`));
  assert.ok(etched.learning.startsWith(e.learning), "an etched entry is the user's: lines are only added to it");
  const timed = (n: number) =>
    `\`e2e.sh\` ran past Claude Code's time limit for a command ("Command timed out after 2m 0.0s") in ${n} sessions.`;
  const t = mergeSighting(
    obstacle('s1', timed(2), { symptom: 'Command timed out after 2m 0.0s' }),
    obstacle('s3', timed(3), { symptom: 'Command timed out after 2m 0.0s' }),
  );
  assert.equal(t.learning, timed(3));
  // A rule the user said again in other words keeps the newest two statements.
  const said = (session: string, words: string): EchoEntry =>
    sighting(session, {
      captured: 'correction',
      signature: 'said:answer in 繁體中文',
      learning: `The user said, as a standing rule: "${words}"`,
    });
  let rule = said('s1', '請盡量用繁體中文為主回答');
  for (const [s, w] of [
    ['s2', '除了專有名詞外, 請用繁體中文回答我'],
    ['s3', '接下來除了專有名詞以外, 請用正體中文回答我'],
    ['s4', '請用正體中文回覆,專有名詞保留原文'],
  ] as const)
    rule = mergeSighting(rule, said(s, w));
  assert.deepEqual(rule.learning.split('\n'), [
    'The user said, as a standing rule: "接下來除了專有名詞以外, 請用正體中文回答我"',
    'The user said, as a standing rule: "請用正體中文回覆,專有名詞保留原文"',
  ]);
  assert.equal(rule.sessions, 's1, s2, s3, s4');
  // A fix seen again keeps each different statement, as before.
  assert.equal(mergeSighting(sighting('s1'), sighting('s2', { learning: 'Another way.' })).learning.split('\n').length, 2);
});

test('an obstacle whose fix a later session saw gets its solution written in the file', () => {
  const line = 'npm error Cannot read properties of null (reading matches)';
  const obstacle = (session: string, learning: string, over: Partial<EchoEntry> = {}): EchoEntry =>
    sighting(session, { captured: 'obstacle', symptom: line, signature: 'error:npm error', learning, ...over });
  const doc = docWith([obstacle('aaaa1111', `\`npm ci\` failed with "${line}" and the session did not get past it.`)]);
  const r = consolidateDocument(doc, [
    obstacle('bbbb2222', `Met again across sessions: "${line}" (from \`npm ci\`). Fix seen: it passed after \`rm -rf node_modules\`.`, {
      solution: 'It passed after `rm -rf node_modules`',
    }),
  ]);
  const text = serializeEchoDocument(r.doc);
  assert.match(text, /^- \*\*solution\*\*: It passed after `rm -rf node_modules`$/m);
  assert.doesNotMatch(text, /did not get past it/, 'the dead end is behind it');
  assert.equal(documentEntries(r.doc)[0]!.solution, 'It passed after `rm -rf node_modules`');
});

test('a retired or retracted captured lesson stays as it is when seen again', () => {
  const doc = docWith([sighting('aaaa1111', { status: 'superseded' })]);
  const r = consolidateDocument(doc, [sighting('bbbb2222')]);
  assert.deepEqual(r.updates, []);
  assert.equal(r.appends.length, 0);
});

test("the project's commands are one living entry: kind by kind, the newer commands first and a few at most", () => {
  assert.equal(
    mergeCommandLines('build: `npm run build`\ntest: `npm test`', 'test: `npm run test:run`\nlint: `npm run lint`'),
    'build: `npm run build`\nlint: `npm run lint`\ntest: `npm run test:run`, `npm test`',
  );
  assert.equal(
    mergeCommandLines('lint: `npm run lint`, `npx eslint`, `npm run lint:tw`', 'lint: `npx biome check`, `npm run lint`'),
    'lint: `npx biome check`, `npm run lint`, `npx eslint`',
    'a command the project stopped using drops off',
  );
  const commands = (session: string, learning: string) =>
    makeEntry({
      title: 'Commands that build, check and run this project',
      learning,
      captured: 'commands',
      signature: 'commands',
      sessions: session,
      layer: 'traced',
    });
  const doc = docWith([commands('s1', 'build: `npm run build`\ntest: `npm test`')]);
  const r = consolidateDocument(doc, [commands('s2', 'test: `npm run test:run`')]);
  const [e] = documentEntries(r.doc);
  assert.equal(e!.learning, 'build: `npm run build`\ntest: `npm run test:run`, `npm test`');
  assert.equal(documentEntries(r.doc).length, 1);
});

test('a forgotten captured lesson is known by its signature, so capture never writes it again', () => {
  const keys = identityKeys(sighting('aaaa1111'));
  assert.deepEqual(identityKeys(sighting('cccc3333', { title: 'another title' })), keys);
});

test('a traced captured lesson given in three sessions and never used fades from the digest, the user’s words said once too; a used one stays', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const lesson = (id: string, captured: string) =>
    ({
      role: 'team',
      entry: makeEntry({ id, title: id, layer: 'traced', captured, signature: `sig:${id}`, verified: '2026-11-26' }),
    }) as const;
  const items = [lesson('unused-fix', 'fix'), lesson('used-fix', 'fix'), lesson('said', 'correction')];
  const events = ['s1', 's2', 's3'].flatMap((session, i) => [
    { ts: `2026-11-2${i}T10:00:00Z`, session, event: 'injected' as const, ids: ['team#unused-fix', 'team#used-fix', 'team#said'] },
    ...(i === 1 ? [{ ts: `2026-11-2${i}T11:00:00Z`, session, event: 'used' as const, ids: ['team#used-fix'] }] : []),
  ]);
  const given = (evs: typeof events) =>
    digestCandidates(items, evs, now, 20)
      .lessons.map((d) => d.entry.id)
      .sort();
  assert.deepEqual(given(events.slice(0, 2)), ['said', 'unused-fix', 'used-fix'], 'given twice: still given');
  assert.deepEqual(given(events), ['used-fix']);
  assert.deepEqual(
    digestCandidates(items, events, now, 20).traced.map((d) => d.entry.id),
    ['unused-fix', 'said'],
    'it is still there, a search or a prompt away',
  );
});

test('a captured lesson of any layer given three times since its last use fades from the digest, and comes back when used again', () => {
  const now = new Date('2026-11-27T12:00:00Z');
  const item = (id: string, captured?: string) =>
    ({
      role: 'team',
      entry: makeEntry({
        id,
        title: id,
        layer: 'inscribed',
        ...(captured ? { captured, signature: `sig:${id}` } : {}),
        verified: '2026-11-26',
      }),
    }) as const;
  const items = [item('old-obstacle', 'obstacle'), item('plain-lesson'), item('rule', 'correction')];
  const ids = ['team#old-obstacle', 'team#plain-lesson', 'team#rule'];
  const at = (day: number, hour: number) => `2026-11-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;
  // Used once early on, then given at four starts after that use.
  const events = [
    { ts: at(10, 9), session: 's0', event: 'injected' as const, ids },
    { ts: at(10, 10), session: 's0', event: 'used' as const, ids: ['team#old-obstacle'] },
    ...[11, 12, 13].flatMap((d) => [
      { ts: at(d, 9), session: `s${d}`, event: 'injected' as const, ids },
      { ts: at(d, 10), session: `s${d}`, event: 'used' as const, ids: [] },
    ]),
  ];
  const lessons = (evs: typeof events) =>
    digestCandidates(items, evs, now, 20)
      .lessons.map((d) => d.entry.id)
      .sort();
  assert.deepEqual(lessons(events.slice(0, 6)), ['old-obstacle', 'plain-lesson', 'rule'], 'given twice since its use: still given');
  assert.deepEqual(lessons(events), ['plain-lesson', 'rule'], 'three times since: faded; a lesson not captured and the user’s words stay');
  const usedAgain = [...events, { ts: at(14, 10), session: 's14', event: 'used' as const, ids: ['team#old-obstacle'] }];
  assert.deepEqual(lessons(usedAgain), ['old-obstacle', 'plain-lesson', 'rule'], 'used again: back');
});

test('a command added to the last line of the commands entry rewrites that line, never appends a piece of it', () => {
  const commands = (session: string, learning: string) =>
    makeEntry({
      title: 'Commands that build, check and run this project',
      learning,
      captured: 'commands',
      signature: 'commands',
      sessions: session,
      layer: 'traced',
    });
  const doc = docWith([commands('s1', 'typecheck: `npx tsc`\nlint: `npx biome check`')]);
  const r = consolidateDocument(doc, [commands('s2', 'lint: `npx biome check`, `npm run lint`')]);
  const text = serializeEchoDocument(r.doc);
  assert.equal(documentEntries(parseEchoDocument(text))[0]!.learning, 'typecheck: `npx tsc`\nlint: `npx biome check`, `npm run lint`');
});

test('a dead end with what to do after it is stated afresh like any other when the obstacle is met again', () => {
  const line = '/usr/bin/bash: line 1: Get-ChildItem: command not found';
  const advice = ' The Bash tool runs bash here, not PowerShell: use the bash commands (ls, cat, head, grep).';
  const obstacle = (session: string, learning: string): EchoEntry =>
    sighting(session, { captured: 'obstacle', symptom: line, signature: 'error:powershell cmdlet: command not found', learning });
  const first = obstacle('s1', `\`Get-ChildItem src\` failed with "${line}" and the session did not get past it.${advice}`);
  const again = mergeSighting(first, obstacle('s2', `Met again across sessions: "${line}" (from \`Get-ChildItem\`).${advice}`));
  assert.equal(again.learning, `Met again across sessions: "${line}" (from \`Get-ChildItem\`).${advice}`);
});
