// rune-echoes status: is the store healthy? Sizes against limits, hook runs,
// logged errors, pending findings.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { countLines } from '../../core/entry/echo-document.ts';
import { entryUsage, relevanceIndex } from '../../core/lifecycle/usage-events.ts';
import { compareText, oneLine, plural } from '../../core/text.ts';
import { HOOKS } from '../../hooks/hook-registry.ts';
import { readTextFile, readTextOrNull } from '../../store/fs/atomic-file.ts';
import { type EchoPaths, knowledgeFile, memoryFile } from '../../store/fs/echo-paths.ts';
import { CONFIG_WARNING } from '../../store/fs/error-log.ts';
import { fsErrorLine } from '../../store/fs/fs-errors.ts';
import { lastRunFile } from '../../store/hook-runs.ts';
import { type RoleSummary, roleSummaries } from '../../store/memory/entry-cache.ts';
import { listFindingsFiles, listRoles, listSetAsideFindings } from '../../store/memory/role-listing.ts';
import { describeOutlook, type PruneOutlook, pruneOutlook } from '../../store/memory/role-pruning.ts';
import { solutionDrift } from '../../store/remembrance/solution-files.ts';
import { listArchiveLogs } from '../../store/session/archive-logs.ts';
import { givenFile } from '../../store/session/session-state.ts';
import { memoryConflicts } from '../../store/team/memory-conflicts.ts';
import { type TeamHealth, teamHealth } from '../../store/team/team-setup.ts';
import { readUsage } from '../../store/usage/usage-log.ts';
import { type Command, printJson } from '../cli-context.ts';
import { renderTable } from '../render/render-table.ts';
import { renderConflicts, renderTeamHealth } from '../render/render-team.ts';

/** A memory file's line count, or what is wrong with it (a health report reports a bad file and goes on). */
function measure(paths: EchoPaths, path: string, problems: string[]): number {
  try {
    const { text, unreadable } = readTextFile(paths, path);
    if (unreadable) problems.push(`${relative(paths.project, path)} is not a text memory file (left as it is; see rune-echoes show)`);
    return text === null ? 0 : countLines(text);
  } catch (err) {
    note(problems, err, relative(paths.project, path));
    return 0;
  }
}

function note(problems: string[], err: unknown, path?: string): void {
  const line = oneLine(fsErrorLine(err, path) ?? (err instanceof Error ? err.message : String(err)));
  if (!problems.includes(line)) problems.push(line);
}

/** What a step that reads every role gives, or `fallback` with its problem noted. */
function orNoted<T>(problems: string[], fallback: T, read: () => T): T {
  try {
    return read();
  } catch (err) {
    note(problems, err);
    return fallback;
  }
}

function gitHealth(ask: () => TeamHealth): TeamHealth | null {
  try {
    return ask();
  } catch {
    return null;
  }
}

const pick = (u: { injected: number; used: number }) => ({ injected: u.injected, used: u.used });

/** Given N times, used M times: the entries used most, and those given often but never used (candidates to forget). */
function usageLines(usage: Array<{ role: string; id: string; injected: number; used: number }>, sessions: number): string[] {
  if (usage.every((u) => u.injected === 0 && u.used === 0)) return [];
  const name = (u: { role: string; id: string; injected: number; used: number }) =>
    `${u.role}/${u.id} (given ${u.injected}×, used ${u.used}×)`;
  const used = usage.filter((u) => u.used > 0).sort((a, b) => b.used - a.used || compareText(a.id, b.id));
  const idle = usage.filter((u) => u.used === 0 && u.injected >= 3).sort((a, b) => b.injected - a.injected || compareText(a.id, b.id));
  const out = [
    `usage (${plural(sessions, 'session')} in the relevance window): ${plural(used.length, 'entry', 'entries')} used, ${idle.length} given 3× or more and never used`,
  ];
  if (used.length) out.push(`  used most: ${used.slice(0, 5).map(name).join(' · ')}`);
  if (idle.length)
    out.push(`  given, never used: ${idle.slice(0, 5).map(name).join(' · ')} — see rune-echoes show; forget what no longer helps`);
  return out;
}

export const statusCommand: Command = {
  name: 'status',
  summary: 'health: sizes against limits, last hook runs, logged errors, pending findings',
  usage: 'rune-echoes status [--json]',
  options: {},
  async run(ctx) {
    const { paths, config } = ctx;
    const problems: string[] = [];
    const roles = listRoles(paths).map((role) => ({
      role,
      memoryLines: measure(paths, memoryFile(paths, role), problems),
      knowledgeLines: measure(paths, knowledgeFile(paths, role), problems),
      pendingFindings: listFindingsFiles(paths, role).length,
    }));
    // Roles over their limit: what pruning will do, and what the user can do (one line each).
    const events = readUsage(paths);
    const outlooks: PruneOutlook[] = [];
    for (const r of roles) {
      if (r.memoryLines <= config.memoryMaxLines) continue;
      try {
        const o = pruneOutlook(paths, config, r.role, { now: ctx.io.now, events });
        if (o) outlooks.push(o);
      } catch {
        /* an unreadable file is reported by show and the log */
      }
    }
    // Memory other tools keep that was never imported: one line, whatever the number of files.
    const { sourcesNotImported } = await import('../../store/adopt/import-ledger.ts');
    const { claudeConfigDir } = await import('../../store/adopt/memory-sources.ts');
    const home = ctx.io.env.HOME || homedir();
    const notImported = sourcesNotImported(paths, home, claudeConfigDir(home, ctx.io.env));
    // Findings files consolidation could not read without loss: kept in the archive until the user acts.
    const setAside = listSetAsideFindings(paths);
    for (const f of setAside) {
      problems.push(
        f.why === 'unreadable'
          ? `${relative(paths.project, f.path)}: findings of ${f.agent} set aside unread (not UTF-8 text); convert it to UTF-8 and move it back as ${f.role}/${f.agent}-findings.md`
          : `${relative(paths.project, f.path)}: a findings link leading out of the memory folders, never read; remove it`,
      );
    }
    const hooks = HOOKS.map(({ name: hook }) => {
      let last: string | null = null;
      try {
        last = statSync(lastRunFile(paths, hook)).mtime.toISOString();
      } catch {
        /* never ran */
      }
      return { hook, lastRun: last };
    });
    const log = readTextOrNull(paths, paths.logFile) ?? '';
    // Config warnings are logged once per change of the file; they are not errors, and `config:` below shows the live ones.
    const errors = log.split('\n').filter((l) => l !== '' && !l.includes(` ${CONFIG_WARNING}`));
    const ephemeral = readTextOrNull(paths, paths.ephemeral);
    let solutions = 0;
    try {
      solutions = readdirSync(paths.solutionsDir, { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
    } catch {
      /* none */
    }
    // Per entry: how often it was given to the model and how often a session used it (only use counts).
    const index = relevanceIndex(events, config.relevanceWindow);
    let summaries: RoleSummary[] = [];
    try {
      summaries = await roleSummaries(paths);
    } catch (err) {
      note(problems, err);
    }
    const usage = summaries.flatMap((r) =>
      r.entries.filter((e) => !e.status).map((e) => ({ role: r.role, id: e.id, ...pick(entryUsage(index, e.id, r.role)) })),
    );
    const report = {
      project: paths.project,
      store: paths.echoes,
      limits: { memoryMaxLines: config.memoryMaxLines, knowledgeMaxLines: config.knowledgeMaxLines },
      roles,
      overLimit: outlooks.map((o) => ({
        role: o.role,
        lines: o.lines,
        nextSession: o.automatic.archive.length + o.automatic.compress.length,
        pruneNow: o.full.archive.length + o.full.compress.length,
        reason: o.full.overReason,
        advice: describeOutlook(o, config),
      })),
      archiveLogs: listArchiveLogs(paths).length,
      ephemeral:
        ephemeral !== null && ephemeral.trim() !== ''
          ? 'waiting for the next session'
          : existsSync(givenFile(paths))
            ? 'none waiting (the last one was handed on)'
            : 'none yet',
      solutions,
      // Promoted documents whose entry changed or vanished since (SPEC §11 echo_ref).
      solutionsOutOfDate: orNoted(problems, [], () => solutionDrift(paths))
        .filter((d) => d.state !== 'current')
        .map(({ path, state }) => ({ path, state })),
      hooks,
      errors: { count: errors.length, recent: errors.slice(-3) },
      configWarnings: ctx.configWarnings,
      notImported: notImported.map((s) => ({ kind: s.kind, ref: s.ref })),
      injection: config.inject && ctx.io.env.RUNE_ECHOES_DISABLE !== '1' ? 'on' : 'off',
      promptRecall: config.recall.onPrompt && ctx.io.env.RUNE_ECHOES_DISABLE !== '1' ? 'on' : 'off',
      usage: { sessions: index.sessions.length, entries: usage },
      // Team memory (SPEC §3): null when git itself could not be asked.
      team: gitHealth(() => teamHealth(paths, config)),
      conflicts: orNoted(problems, [], () => memoryConflicts(paths)),
      setAsideFindings: setAside.map((f) => ({ ...f, path: relative(paths.project, f.path) })),
      problems,
    };
    if (ctx.json) {
      printJson(ctx, report);
      return 0;
    }
    const out: string[] = [`Rune Echoes — ${paths.echoes}\n\n`];
    if (roles.length) {
      const rows = roles.map((r) => [
        r.role,
        `${r.memoryLines}/${config.memoryMaxLines}${r.memoryLines > config.memoryMaxLines ? ' (over, see below)' : ''}`,
        `${r.knowledgeLines}/${config.knowledgeMaxLines}`,
        String(r.pendingFindings),
      ]);
      out.push(`${renderTable(['role', 'MEMORY.md lines', 'knowledge.md lines', 'pending findings'], rows, [30, 50, 20, 10])}\n`);
      for (const o of outlooks) out.push(`over the limit: ${describeOutlook(o, config)}\n`);
      if (outlooks.length) out.push('\n');
    } else out.push('No roles yet.\n\n');
    out.push(
      `archive logs: ${report.archiveLogs} · EPHEMERAL.md: ${report.ephemeral} · solutions: ${solutions} · injection: ${report.injection} · prompt recall: ${report.promptRecall}\n`,
    );
    for (const line of usageLines(usage, index.sessions.length)) out.push(`${line}\n`);
    for (const d of report.solutionsOutOfDate)
      out.push(
        `solution out of date: ${d.path} (${d.state === 'vanished' ? 'its entry is gone' : d.state === 'changed' ? 'its entry changed since promotion' : 'echo_ref unreadable'}; see rune-echoes remembrance --verify)\n`,
      );
    out.push(`hooks: ${hooks.map((h) => `${h.hook} ${h.lastRun ? h.lastRun.slice(0, 16).replace('T', ' ') : 'never'}`).join(' · ')}\n`);
    if (notImported.length) {
      const kinds = [...new Set(notImported.map((s) => s.kind))];
      out.push(
        `memory to adopt: ${plural(notImported.length, 'file')} of ${kinds.join(', ')} not imported yet — see \`rune-echoes import --dry-run\`\n`,
      );
    }
    for (const w of report.configWarnings) out.push(`config: ${w}\n`);
    for (const p of problems) out.push(`problem: ${p}\n`);
    out.push(`errors logged: ${errors.length}${errors.length ? ` (latest in ${join('.claude', 'echoes', '.log')})` : ''}\n`);
    for (const e of report.errors.recent) out.push(`  ${e}\n`);
    const team = report.team === null ? ['team: git could not be run, so team memory was not checked'] : renderTeamHealth(report.team);
    for (const line of [...team, ...renderConflicts(report.conflicts)]) out.push(`${line}\n`);
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
