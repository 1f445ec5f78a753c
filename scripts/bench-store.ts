// Stores and transcripts for the benchmarks, written the way the hooks and
// agents leave them: roles with entries, archive logs, usage events, a
// hand-off, and Claude Code-shaped JSONL transcripts of any size.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { failureSignature } from '../src/core/capture/failure-key.ts';
import { renderEntry } from '../src/core/entry/echo-document.ts';
import type { EchoEntry } from '../src/core/entry/echo-entry.ts';
import { ledgerNames } from '../src/core/recall/file-names.ts';
import { emptyWorkedFiles, updateWorkedFiles } from '../src/core/recall/worked-files.ts';
import { outputWindow } from '../src/core/transcript/result-window.ts';

/** Errors the typical store's captured lessons know (a failed command printing one gets its lesson). */
export const KNOWN_ERRORS = [
  "Exit code 1\nnpm error Cannot read properties of null (reading 'matches')",
  "Exit code 1\nError: Cannot find module './generated/config.json'",
  'Exit code 127\n/bin/bash: line 1: psql: command not found',
];

/** Captured lessons, as capture writes them: a fix, an obstacle, a fix, each keyed as the failure hook reads its error. */
function capturedEntry(i: number): EchoEntry {
  const sig = failureSignature(outputWindow(KNOWN_ERRORS[i % KNOWN_ERRORS.length]!), 'npm install', null)!;
  const kind = i % 2 === 0 ? 'fix' : 'obstacle';
  return {
    ...entry(900 + i, 'traced'),
    kind: kind === 'fix' ? 'Fix' : 'Obstacle',
    title: `${kind === 'fix' ? 'Fixed' : 'Met again'}: ${sig.line}`,
    source: `capture (session 0000000${i})`,
    confidence: 0.5,
    captured: kind,
    signature: `error:${sig.key}`,
    learning: `${sig.line} — ${kind === 'fix' ? 'passed after `rm -rf node_modules` and a fresh `npm install`' : 'met in 2 sessions'}.`,
  };
}

export function entry(i: number, layer: EchoEntry['layer']): EchoEntry {
  return {
    id: `entry-${i}`,
    idExplicit: true,
    date: '2026-10-01',
    kind: 'Pattern',
    title: `Pattern number ${i} in module ${i % 9}`,
    layer,
    source: 'bench',
    confidence: 0.8,
    evidence: `\`src/module${i % 9}/file${i}.ts:${i}\` — seen`,
    verified: '2026-11-01',
    supersedes: 'none',
    tags: [],
    learning: `Learning ${i}: the service layer tends to repeat this; reviewers should flag it early.`,
    extra: [],
  };
}

export function transcriptLine(i: number, sid: string, cwd: string): string {
  const ts = new Date(Date.UTC(2026, 10, 22, 9, 0, i % 3600)).toISOString();
  if (i % 3 === 0)
    return JSON.stringify({
      type: 'user',
      sessionId: sid,
      cwd,
      timestamp: ts,
      uuid: `u${i}`,
      message: { role: 'user', content: `Request ${i}: refactor module ${i % 50} and keep the tests green` },
    });
  if (i % 3 === 1)
    return JSON.stringify({
      type: 'assistant',
      sessionId: sid,
      cwd,
      timestamp: ts,
      uuid: `a${i}`,
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: `t${i}`,
            name: 'Edit',
            input: { file_path: `${cwd}/src/m${i % 50}.ts`, old_string: 'x'.repeat(200), new_string: 'y'.repeat(200) },
          },
        ],
      },
    });
  return JSON.stringify({
    type: 'user',
    sessionId: sid,
    cwd,
    timestamp: ts,
    uuid: `r${i}`,
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${i - 1}`, content: 'ok '.repeat(100) }] },
  });
}

export function writeTranscript(path: string, bytes: number, sid: string, cwd: string): void {
  writeFileSync(path, '');
  let size = 0;
  let chunk: string[] = [];
  for (let i = 0; size < bytes; i++) {
    const line = `${transcriptLine(i, sid, cwd)}\n`;
    size += line.length;
    chunk.push(line);
    if (chunk.length >= 2000) {
      appendFileSync(path, chunk.join(''));
      chunk = [];
    }
  }
  appendFileSync(path, chunk.join(''));
}

export function typicalStore(dir: string): void {
  const e = join(dir, '.claude', 'echoes');
  const roles = ['planner', 'workers', 'reviewer', 'auditor', 'team'];
  roles.forEach((role, r) => {
    mkdirSync(join(e, role), { recursive: true });
    const entries = Array.from({ length: 14 }, (_, i) => entry(r * 100 + i, i < 2 ? 'etched' : i % 4 === 0 ? 'traced' : 'inscribed'));
    // Team memory also holds what capture wrote from sessions.
    if (role === 'team') entries.push(...KNOWN_ERRORS.map((_, i) => capturedEntry(i)));
    writeFileSync(
      join(e, role, 'MEMORY.md'),
      `<!-- echo-schema: v2 -->\n# ${role} Memory\n\n${entries.map((x) => renderEntry(x)).join('\n')}`,
    );
  });
  archiveLogs(e, 40, (i) => `- Task ${i}`);
  usageLog(e, 100, 25, 100);
  writeFileSync(
    join(e, 'EPHEMERAL.md'),
    '# Last session — 2026-11-21 10:00 → 11:00\n## Asked\n- Fix the payment retry backoff\n## Files\n- edited: src/payments.ts\n',
  );
  // The worked-files ledger of 25 working sessions: the few hundred files it keeps, one of them the webhook handler.
  let ledger = emptyWorkedFiles();
  for (let s = 0; s < 25; s++) {
    const files = Array.from({ length: 14 }, (_, i) => `src/module${(s + i) % 9}/file${s * 14 + i}.ts`);
    ledger = updateWorkedFiles(ledger, s === 20 ? [...files, WEBHOOK_HANDLER] : files, `s${s}`);
  }
  mkdirSync(join(e, '.state'), { recursive: true });
  writeFileSync(join(e, '.state', 'worked-files.json'), JSON.stringify(ledger));
  writeFileSync(join(e, '.state', 'worked-names.txt'), ledgerNames(Object.keys(ledger.files)));
}

/** A file of the typical store's worked-files ledger, named by a benchmark prompt by its name alone. */
export const WEBHOOK_HANDLER = 'src/payments/webhook-handler.ts';

/**
 * A store after months of use: every role's MEMORY.md at its 150-line limit, a
 * 300-line knowledge.md each, 3,000 archive logs with their index, 2,000 usage events.
 */
export function largeStore(dir: string): void {
  typicalStore(dir);
  const e = join(dir, '.claude', 'echoes');
  const roles = ['planner', 'workers', 'reviewer', 'auditor', 'team'];
  roles.forEach((role, r) => {
    const blocks = Array.from({ length: 30 }, (_, b) =>
      [
        `## Block ${b} of ${role}`,
        ...Array.from({ length: 9 }, (_, l) => `- knowledge line ${l} of block ${b}: keep the ${role} checks in module ${(r + b + l) % 9}`),
      ].join('\n'),
    );
    writeFileSync(join(e, role, 'knowledge.md'), `# ${role} knowledge\n\n${blocks.join('\n\n')}\n`.split('\n').slice(0, 300).join('\n'));
  });
  archiveLogs(e, 3000, (i) => `- Task ${i}: refactor module ${i % 50}\n## Files\n- edited: src/m${i % 50}.ts`);
  usageLog(e, 2000, 200, 500);
}

/** `count` archive logs and their ARCHIVE.md index, as session ends write them. */
function archiveLogs(e: string, count: number, asked: (i: number) => string): void {
  mkdirSync(join(e, 'memories'), { recursive: true });
  const index: string[] = [];
  for (let i = 1; i <= count; i++) {
    const n = String(i).padStart(3, '0');
    writeFileSync(
      join(e, 'memories', `archive-log-${n}.md`),
      `# Archive log ${n}\n- session: s${i}\n- trigger: session-end\n\n## Asked\n${asked(i)}\n`,
    );
    index.push(`- ${n} · 2026-11-01 · session-end · task ${i}`);
  }
  writeFileSync(join(e, 'ARCHIVE.md'), `# Archive\n\n${index.join('\n')}\n`);
}

/** `count` usage events over `sessions` sessions, naming entries up to `ids`. */
function usageLog(e: string, count: number, sessions: number, ids: number): void {
  const events = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      ts: `2026-11-${String(1 + (i % 20)).padStart(2, '0')}T10:00:00Z`,
      session: `s${i % sessions}`,
      event: 'injected',
      ids: ['entry-1', `entry-${i % ids}`],
    }),
  );
  writeFileSync(join(e, 'usage.jsonl'), `${events.join('\n')}\n`);
}

/** A role's findings file as an agent leaves it at the end of a turn. */
export function findingsFile(dir: string, role: string, agent: string, n: number): void {
  const text = Array.from(
    { length: 2 },
    (_, k) =>
      `### [2026-11-22] Pattern: Finding ${n}-${k} of ${agent}\n- **layer**: inscribed\n- **evidence**: \`src/m${n % 9}.ts:${k + 1}\`\n- What ${agent} learned in turn ${n}.\n`,
  ).join('\n');
  writeFileSync(join(dir, '.claude', 'echoes', role, `${agent}-findings.md`), text);
}
