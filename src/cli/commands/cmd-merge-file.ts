// rune-echoes merge-file %O %A %B [%P]: git's merge driver for memory files
// (installed by `team init`). Exit 0 when merged cleanly, 1 when hand-written
// text was left between conflict markers or a version could not be read —
// git's contract: the result is in %A either way.
import { resolve } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { mergeDriverFiles } from '../../store/team/merge-driver.ts';
import { type Command, printJson } from '../cli-context.ts';

export const mergeFileCommand: Command = {
  name: 'merge-file',
  summary: "git's merge driver for memory files: merges by entry into %A (installed by team init)",
  usage: 'rune-echoes merge-file <ancestor %O> <ours %A> <theirs %B> [<path %P>]',
  options: {},
  run(ctx, _values, positionals) {
    if (positionals.length < 3 || positionals.length > 4)
      throw new EchoesError(
        'bad-argument',
        'merge-file takes the files git names: %O %A %B, and optionally %P (see rune-echoes team init)',
      );
    const [base, ours, theirs, shown] = positionals as [string, string, string, string | undefined];
    const at = (p: string) => resolve(ctx.io.cwd, p);
    const outcome = mergeDriverFiles({ base: at(base), ours: at(ours), theirs: at(theirs) });
    const name = shown ?? ours;
    if (ctx.json) printJson(ctx, { file: name, conflicts: outcome.conflicts, notes: outcome.notes });
    else for (const note of outcome.notes) ctx.io.stderr(`rune-echoes: ${name}: ${note}\n`);
    return outcome.conflicts > 0 ? 1 : 0;
  },
};
