// Claude Code 2.1 runs the Agent tool's subagents in the background and keeps
// their work in `<session>/subagents/agent-*.jsonl` (issue 20, item 2): folding
// a session reads those files too, each from where the last read stopped.

import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { handoffFor, listedFiles, sections } from '../../scripts/handoff-grading.ts';
import { renderEphemeral } from '../../src/core/session/session-records.ts';
import { advanceSession } from '../../src/store/session/session-lifecycle.ts';
import { makeTempProject } from '../helpers/temp-project.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/handoff-transcripts/', import.meta.url));
const SESSION = 'c7614bac-9386-4275-bc55-5193dfa434d0';
const AGENT = 'agent-a8e33eb15850dbac8.jsonl';

test('a session whose background subagent rewrote src/discount.js lists it as edited (a 2.1.330 transcript)', async () => {
  const handoff = await handoffFor(join(FIXTURES, `${SESSION}.jsonl`));
  assert.deepEqual(listedFiles(handoff, 'edited'), ['src/discount.js'], handoff);
  assert.deepEqual(listedFiles(await handoffFor(join(FIXTURES, `${SESSION}.jsonl`), 4), 'edited'), ['src/discount.js']);
});

test('the hooks read a subagent transcript once, and again only for what it adds, even while the main one stands still', async (t) => {
  const project = makeTempProject(t);
  const transcript = join(project.dir, 'home', `${SESSION}.jsonl`);
  const subagents = join(project.dir, 'home', SESSION, 'subagents');
  mkdirSync(subagents, { recursive: true });
  cpSync(join(FIXTURES, `${SESSION}.jsonl`), transcript);
  const agentLines = readFileSync(join(FIXTURES, SESSION, 'subagents', AGENT), 'utf8')
    .split('\n')
    .filter(Boolean);
  // The subagent has only been given its task when the first hook reads.
  writeFileSync(join(subagents, AGENT), `${agentLines[0]}\n`);
  const ref = { sessionId: SESSION, transcriptPath: transcript };
  const now = new Date('2026-11-27T10:00:00Z');
  const first = await advanceSession(project.paths, ref, { now, capture: false });
  assert.deepEqual(first.draft?.filesEdited, []);
  appendFileSync(join(subagents, AGENT), `${agentLines.slice(1).join('\n')}\n`);
  const second = await advanceSession(project.paths, ref, { now, capture: false });
  assert.deepEqual(second.draft?.filesEdited, ['src/discount.js']);
  const third = await advanceSession(project.paths, ref, { now, capture: false });
  assert.deepEqual(third.draft, second.draft, 'nothing new: nothing read twice');
  const h = sections(renderEphemeral(third.draft!));
  assert.match(h.Commands!, /`npm test 2>&1 \| tail -12` \(failed\)/);
});
