// Issue 9, defect 2 on the summary side: everything derived from a summary —
// the EPHEMERAL.md title (session id, branch), archive-log headers, ARCHIVE.md
// index lines and their topic words — is derived from text already filtered,
// so a secret cut at any position never survives in part.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { filterSecrets } from '../../src/core/security/secret-filter.ts';
import {
  archiveIndexText,
  archiveLogIdentity,
  filterSummary,
  renderArchiveLog,
  renderEphemeral,
} from '../../src/core/session/session-records.ts';
import { emptySummary, type SessionSummary } from '../../src/core/session/summary-model.ts';

const BODY = 'aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4';
const TOKEN = `ghp_${BODY}`;
const NOW = new Date('2026-11-22T12:00:00Z');

/** Every text written from a summary. */
function written(s: SessionSummary): string {
  return [
    renderEphemeral(s),
    renderArchiveLog(7, s, 'precompact auto', NOW),
    archiveIndexText(s, 'precompact auto', NOW),
    ...archiveLogIdentity(s, 'session-end'),
  ].join('\n');
}

/** The first piece of the secret's random part that the text still holds, if any (five characters or more). */
function leaked(text: string, secret = BODY): string | null {
  for (let i = 0; i + 5 <= secret.length; i++) if (text.includes(secret.slice(i, i + 5))) return secret.slice(i, i + 5);
  return null;
}

test('a token in the session id is filtered before the title cuts the id to eight characters', () => {
  const s: SessionSummary = { ...emptySummary(), sessionId: TOKEN, requests: ['Fix the retry loop'] };
  const out = written(s);
  assert.ok(!out.includes('ghp_aB3'), out.split('\n')[0]);
  assert.equal(leaked(out), null);
});

test('a token at any position of a long branch or session id never survives its cut in part', () => {
  for (let at = 0; at <= 140; at++) {
    const pad = 'x'.repeat(at);
    for (const field of ['branch', 'sessionId'] as const) {
      const value = `${pad} ${TOKEN} tail`;
      // Only what the filter knows as a secret in the whole value can be asked not to leak when it is cut.
      assert.equal(leaked(filterSecrets(value).text), null);
      const s: SessionSummary = { ...emptySummary(), requests: ['Ship it'], [field]: value };
      assert.equal(leaked(written(s)), null, `${field} with the token at ${at}`);
    }
  }
});

test('archive topics and the ARCHIVE.md line are derived from filtered text: a secret value is never a topic word', () => {
  const s: SessionSummary = {
    ...emptySummary(),
    requests: ['Rotate the leaked api_key=Zq8vLw2xRt5nPk3mYh7Qs in staging and redeploy staging'],
    decisions: ['Rotated the api_key=Zq8vLw2xRt5nPk3mYh7Qs in staging'],
  };
  const line = archiveIndexText(s, 'session-end', NOW);
  assert.equal(leaked(line.toLowerCase(), 'zq8vlw2xrt5npk3myh7qs'), null, line);
  assert.ok(!/redacted/i.test(line), `a redaction marker is not a topic: ${line}`);
  assert.equal(leaked(written(s).toLowerCase(), 'zq8vlw2xrt5npk3myh7qs'), null);
});

test('every text a summary keeps — the lists, the check and file state, what the next read continues from — is filtered before it is written', () => {
  const secret = `token ${TOKEN}`;
  const s: SessionSummary = {
    ...emptySummary(),
    requests: [secret],
    decisions: [secret],
    filesEdited: [`src/${TOKEN}.ts`],
    commands: [{ command: `curl -H "Authorization: Bearer ${TOKEN}"`, failed: true, count: 1, check: true }],
    openTodos: [secret],
    unresolved: [`Claude asked: ${secret}?`],
    searches: [secret],
    failedWrites: [{ path: `notes ${TOKEN}`, why: 'failed' }],
    recalledRequests: [secret],
    recalledOpen: [secret],
    checks: {
      failing: [{ key: 'k', family: 'curl', dir: '', paths: [], command: `curl ${TOKEN}`, kind: 'other' }],
      passed: [],
    },
    carry: {
      awaiting: [
        {
          call: {
            id: 't1',
            name: 'Bash',
            file: null,
            command: `export GH=${TOKEN}`,
            search: null,
            todos: null,
            plan: null,
            planFile: false,
            task: null,
          },
          path: null,
          sidechain: false,
          dir: null,
        },
      ],
      question: secret,
      interrupted: secret,
      lastRequest: secret,
      lastPlan: secret,
      turnText: secret,
    },
  };
  assert.equal(leaked(written(s)), null);
  // The draft kept in the session's state file is a persisted text too.
  assert.equal(leaked(JSON.stringify(filterSummary(s))), null);
});
