// rune-echoes import: adopt the memory people already have (issue 12).
import { homedir } from 'node:os';
import { plural } from '../../core/text.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';
import { renderTable } from '../render/render-table.ts';

export const importCommand: Command = {
  name: 'import',
  access: 'write',
  summary:
    'bring in memory other tools wrote (Claude Code auto and subagent memory, old Rune echoes, continuity.md, ArcheFlow, CLAUDE.md learnings, recall-echo), once',
  usage:
    'rune-echoes import [source…] [--dry-run] [--role R]   (source: a file, or auto-memory, agent-memory, rune, continuity, archeflow, claude-md, recall-echo)',
  options: { 'dry-run': { type: 'boolean' }, role: { type: 'string' } },
  async run(ctx, values, positionals) {
    // The readers (and the YAML parser for frontmatter) load only for this command.
    const { importMemory } = await import('../../store/adopt/memory-import.ts');
    const { claudeConfigDir } = await import('../../store/adopt/memory-sources.ts');
    const dryRun = values['dry-run'] === true;
    const role = stringOpt(values, 'role');
    const report = importMemory(ctx.paths, ctx.config, {
      dryRun,
      now: ctx.io.now,
      home: ctx.io.env.HOME || homedir(),
      configDir: claudeConfigDir(ctx.io.env.HOME || homedir(), ctx.io.env),
      only: positionals,
      ...(role === undefined ? {} : { role }),
    });
    if (ctx.json) {
      printJson(ctx, report);
      return 0;
    }
    const out: string[] = [];
    out.push(`Import${dryRun ? ' (dry run: nothing written)' : ''} — ${plural(report.sources.length, 'source')} found\n\n`);
    if (report.sources.length) {
      const rows = report.sources.map((s) => [
        s.ref,
        s.kind ?? '?',
        s.role,
        s.unreadable ? 'unreadable' : String(s.entries),
        s.unreadable ? '-' : String(s.fresh),
        s.unreadable ? '-' : `${plural(s.verbatimParts, 'part')}, ${plural(s.verbatimLines, 'line')}`,
      ]);
      out.push(
        `${renderTable(['source', 'format', 'role', 'entries', 'new', 'kept verbatim (left in the source)'], rows, [70, 12, 24, 8, 6, 40])}\n`,
      );
    } else {
      out.push(
        'No memory of other tools found for this project (auto memory, .claude/agent-memory/, continuity.md, .archeflow/, CLAUDE.md, ~/.claude/memory/).\n',
      );
    }
    const perRole = new Map<string, number>();
    for (const s of report.sources) perRole.set(s.role, (perRole.get(s.role) ?? 0) + s.fresh);
    const fresh = [...perRole].filter(([, n]) => n > 0);
    if (dryRun) {
      out.push(
        fresh.length
          ? `would add up to ${plural(
              fresh.reduce((n, [, k]) => n + k, 0),
              'entry',
              'entries',
            )}: ${fresh.map(([r, n]) => `${r} ${n}`).join(', ')} (repeats merge with entries already there; run without --dry-run to import)\n`
          : 'nothing new to import\n',
      );
    } else if (report.roles.length) {
      for (const r of report.roles) {
        const extra = [
          r.merged ? `${r.merged} merged with entries already there` : '',
          r.forgotten ? `${r.forgotten} left out (forgotten before)` : '',
          r.stripped ? `${r.stripped} lost evidence to the security filter` : '',
        ].filter(Boolean);
        out.push(
          `imported into ${r.role}/MEMORY.md: ${plural(r.added.length, 'new entry', 'new entries')}${extra.length ? ` (${extra.join('; ')})` : ''}\n`,
        );
        if (r.linesAfter > ctx.config.memoryMaxLines) {
          out.push(
            `  ${r.role}/MEMORY.md is now ${r.linesAfter}/${ctx.config.memoryMaxLines} lines: sessions archive at most ${ctx.config.prunePerSession} entries at a time; \`rune-echoes status\` says what \`prune\` would do now\n`,
          );
        }
      }
    } else out.push('nothing new to import\n');
    const notes = [
      ...report.ignoredSettings.map(
        (f) =>
          `${f}: its autoMemoryDirectory is not followed (a project's settings cannot move auto memory) — set it in ~/.claude/settings.json`,
      ),
      ...report.sources.flatMap((s) => s.notes),
    ];
    if (notes.length) out.push(`notes:\n${notes.map((n) => `  ${n}\n`).join('')}`);
    if (report.oldFormat.length) {
      out.push(
        `in this store, old format (no ids, no v2 header): ${report.oldFormat.map((f) => f.role).join(', ')} — already memory here; \`rune-echoes migrate --dry-run\` shows the upgrade\n`,
      );
    }
    ctx.io.stdout(out.join(''));
    return 0;
  },
};
