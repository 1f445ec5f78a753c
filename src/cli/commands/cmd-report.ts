// rune-echoes report: the memory as one self-contained HTML page to look at —
// store health, entries per role, what reached the model and was used, captured
// lessons over time, the hand-off history. Written to .claude/echoes/report.html
// (personal, git-ignored in every mode, never read as memory) or --out FILE.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { renderReport } from '../../core/report/report-page.ts';
import { quoteInput } from '../../core/text.ts';
import { HOOKS } from '../../hooks/hook-registry.ts';
import { writeFileAtomic } from '../../store/fs/atomic-file.ts';
import { withExtraWritable } from '../../store/fs/echo-paths.ts';
import { ensureStoreGitignore, ensureStoreIgnored } from '../../store/gitignore.ts';
import { gatherReport, REPORT_FILE } from '../../store/report/report-data.ts';
import { type Command, printJson, stringOpt } from '../cli-context.ts';

export const reportCommand: Command = {
  name: 'report',
  summary: 'write the memory report: one HTML page (health, entries, what was given and used, captured lessons, hand-offs)',
  usage: 'rune-echoes report [--out FILE.html] [--json]',
  options: { out: { type: 'string' } },
  async run(ctx, values) {
    const { paths } = ctx;
    const outOpt = stringOpt(values, 'out');
    if (outOpt !== undefined && !/\.html?$/i.test(outOpt.trim()))
      throw new EchoesError('bad-argument', `--out must name an .html file, got "${quoteInput(outOpt)}"`);
    const out = outOpt === undefined ? join(paths.echoes, REPORT_FILE) : resolve(ctx.io.cwd, outOpt.trim());
    if (outOpt !== undefined && !existsSync(dirname(out)))
      throw new EchoesError('not-found', `--out ${quoteInput(outOpt)}: the folder ${quoteInput(dirname(out))} does not exist`);

    const input = await gatherReport(paths, ctx.config, { now: ctx.io.now, hooks: HOOKS.map((h) => h.name) });
    const page = renderReport(input);

    if (outOpt === undefined) {
      // The report lives in the store: the store is git-ignored (or, with team memory, its .gitignore names the report).
      ensureStoreIgnored(paths, ctx.config.versionControlled);
      if (existsSync(paths.storeGitignore)) ensureStoreGitignore(paths);
      writeFileAtomic(paths, out, page, { durable: false });
    } else writeFileAtomic(withExtraWritable(paths, [dirname(out)]), out, page, { durable: false });

    if (ctx.json) printJson(ctx, { report: out, bytes: Buffer.byteLength(page) });
    else ctx.io.stdout(`${out}\n`);
    return 0;
  },
};
