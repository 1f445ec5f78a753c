// `rune-echoes merge-file %O %A %B`, git's merge-driver contract: read the
// common ancestor, ours and theirs from the temporary files git names, merge
// them by entry (core/team/entry-merge.ts), and leave the result in the file
// of ours. That file is git's, outside the memory folders: it is the one write
// of this plugin there, made because git asks for it, never through a symlink.
import { lstatSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EchoesError } from '../../core/errors.ts';
import { type MergeOutcome, mergeEchoTexts } from '../../core/team/entry-merge.ts';
import { readForeignText } from '../fs/atomic-file.ts';
import { uniqueSuffix } from '../fs/unique-suffix.ts';

export interface DriverFiles {
  base: string;
  ours: string;
  theirs: string;
}

function readVersion(path: string, which: string): string {
  let read: ReturnType<typeof readForeignText>;
  try {
    read = readForeignText(path);
  } catch (err) {
    throw new EchoesError('unreadable', `cannot read the ${which} version (${path}): ${(err as Error).message}`);
  }
  if (read.unreadable) throw new EchoesError('unreadable', `the ${which} version is not UTF-8 text; git keeps ours and reports a conflict`);
  if (read.text === null) throw new EchoesError('not-found', `the ${which} version ${path} does not exist`);
  return read.text;
}

/** Replaces git's file of ours by the merged text (temp file and rename beside it, same permissions). */
function replaceOurs(path: string, text: string): void {
  const st = lstatSync(path);
  if (!st.isFile()) throw new EchoesError('unsafe-path', `${path} is not a regular file; refusing to write through it`);
  const tmp = join(dirname(path), `.${basename(path)}.${uniqueSuffix()}.tmp`);
  try {
    writeFileSync(tmp, text, { flag: 'wx', mode: st.mode & 0o777 });
    renameSync(tmp, path);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {
      /* not created */
    }
    throw err;
  }
}

export function mergeDriverFiles(files: DriverFiles): MergeOutcome {
  const [base, ours, theirs] = [readVersion(files.base, 'ancestor'), readVersion(files.ours, 'our'), readVersion(files.theirs, 'their')];
  const outcome = mergeEchoTexts(base, ours, theirs);
  if (outcome.text !== ours) replaceOurs(files.ours, outcome.text);
  return outcome;
}
