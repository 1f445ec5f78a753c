// rune-echoes status: is the store healthy? Sizes against limits, hook runs,
// logged errors, pending findings.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { countLines } from '../../core/entry/echo-document.ts';
import { HOOKS } from '../../hooks/hook-registry.ts';
import { readTextOrNull } from '../../store/fs/atomic-file.ts';
import { knowledgeFile, memoryFile } from '../../store/fs/echo-paths.ts';
import { lastRunFile } from '../../store/hook-runs.ts';
import { listFindingsFiles, listRoles } from '../../store/memory/role-listing.ts';
import { solutionDrift } from '../../store/remembrance/solution-files.ts';
import { listArchiveLogs } from '../../store/session/archive-logs.ts';
import { type Command, printJson } from '../cli-context.ts';
import { renderTable } from '../render/render-table.ts';

const lines = (path: string) => {
  const t = readTextOrNull(path);
  return t === null ? 0 : countLines(t);
};

export const statusCommand: Command = {
  name: 'status',
  summary: 'health: sizes against limits, last hook runs, logged errors, pending findings',
  usage: 'rune-echoes status [--json]',
  options: {},
  run(ctx) {
    const { paths, config } = ctx;
    const roles = listRoles(paths).map((role) => ({
      role,
      memoryLines: lines(memoryFile(paths, role)),
      knowledgeLines: lines(knowledgeFile(paths, role)),
      pendingFindings: listFindingsFiles(paths, role).length,
    }));
    const hooks = HOOKS.map(({ name: hook }) => {
      let last: string | null = null;
      try {
        last = statSync(lastRunFile(paths, hook)).mtime.toISOString();
      } catch {
        /* never ran */
      }
      return { hook, lastRun: last };
    });
    const log = readTextOrNull(paths.logFile) ?? '';
    const errors = log.split('\n').filter(Boolean);
    const ephemeral = readTextOrNull(paths.ephemeral);
    let solutions = 0;
    try {
      solutions = readdirSync(paths.solutionsDir, { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
    } catch {
      /* none */
    }
    const report = {
      project: paths.project,
      store: paths.echoes,
      limits: { memoryMaxLines: config.memoryMaxLines, knowledgeMaxLines: config.knowledgeMaxLines },
      roles,
      archiveLogs: listArchiveLogs(paths).length,
      ephemeral: ephemeral === null ? 'absent' : ephemeral.trim() === '' ? 'empty (consumed)' : 'waiting for the next session',
      solutions,
      // Promoted documents whose entry changed or vanished since (SPEC §11 echo_ref).
      solutionsOutOfDate: solutionDrift(paths)
        .filter((d) => d.state !== 'current')
        .map(({ path, state }) => ({ path, state })),
      hooks,
      errors: { count: errors.length, recent: errors.slice(-3) },
      injection: config.inject && ctx.io.env.RUNE_ECHOES_DISABLE !== '1' ? 'on' : 'off',
    };
    if (ctx.json) {
      printJson(ctx, report);
      return 0;
    }
    const out: string[] = [`Rune Echoes — ${paths.echoes}\n\n`];
    if (roles.length) {
      const rows = roles.map((r) => [
        r.role,
        `${r.memoryLines}/${config.memoryMaxLines}${r.memoryLines > config.memoryMaxLines ? ' (over: prunes at next session start)' : ''}`,
        `${r.knowledgeLines}/${config.knowledgeMaxLines}`,
        String(r.pendingFindings),
      ]);
      out.push(`${renderTable(['role', 'MEMORY.md lines', 'knowledge.md lines', 'pending findings'], rows, [30, 50, 20, 10])}\n`);
    } else out.push('No roles yet.\n\n');
    out.push(
      `archive logs: ${report.archiveLogs} · EPHEMERAL.md: ${report.ephemeral} · solutions: ${solutions} · injection: ${report.injection}\n`,
    );
    for (const d of report.solutionsOutOfDate)
      out.push(
        `solution out of date: ${d.path} (${d.state === 'vanished' ? 'its entry is gone' : d.state === 'changed' ? 'its entry changed since promotion' : 'echo_ref unreadable'}; see rune-echoes remembrance --verify)\n`,
      );
    out.push(`hooks: ${hooks.map((h) => `${h.hook} ${h.lastRun ? h.lastRun.slice(0, 16).replace('T', ' ') : 'never'}`).join(' · ')}\n`);
    out.push(`errors logged: ${errors.length}${errors.length ? ` (latest in ${join('.claude', 'echoes', '.log')})` : ''}\n`);
    for (const e of report.errors.recent) out.push(`  ${e}\n`);
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
