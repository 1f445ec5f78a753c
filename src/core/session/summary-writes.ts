// Files as the tool results leave them: written, deleted, or a write that was
// refused or failed. A refused write is not done whatever the prose says
// afterwards; a later successful write of the same file makes it good, and a
// later deletion ends the story. Parts of a transcript merge in order: a later
// part's writes settle an earlier part's failures and deletions.

import type { FailedWrite, SessionSummary } from './summary-model.ts';
import { SUMMARY_LIMITS } from './summary-model.ts';

/** Why a write tool's error result says the write did not happen, in a few words. */
export function writeFailure(resultText: string): string {
  const t = resultText.replace(/<\/?tool_use_error>/g, '');
  if (/haven't granted|not been granted|permission/i.test(t)) return 'refused: permission not granted';
  if (/doesn't want to proceed|rejected|denied|declined/i.test(t)) return 'refused by the user';
  if (/not been read yet|read it first/i.test(t)) return 'failed: the file was not read first';
  if (/string to replace not found|old_string|no match/i.test(t)) return 'failed: the text to replace was not found';
  if (/modified since read|has been modified/i.test(t)) return 'failed: the file changed since it was read';
  if (/no such file|not found|ENOENT/i.test(t)) return 'failed: no such file or folder';
  return 'failed';
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

/** The file state of `a` then `b`: what `b` wrote or deleted wins over what `a` says of the same files. */
export function mergeFileStates(
  a: SessionSummary,
  b: SessionSummary,
): Pick<SessionSummary, 'failedWrites' | 'written' | 'filesDeleted' | 'filesReverted'> & { goneFromA: (path: string) => boolean } {
  const bWritten = new Set(b.written ?? []);
  const bDeleted = b.filesDeleted ?? [];
  const bReverted = b.filesReverted ?? [];
  const bFailed = new Set((b.failedWrites ?? []).map((f) => f.path));
  const failedWrites: FailedWrite[] = [
    ...(a.failedWrites ?? []).filter((f) => !bWritten.has(f.path) && !bFailed.has(f.path) && !bDeleted.some((d) => under(f.path, d))),
    ...(b.failedWrites ?? []),
  ].slice(-SUMMARY_LIMITS.failedWrites);
  const written = [...(a.written ?? []).filter((w) => !bWritten.has(w)), ...(b.written ?? [])].slice(-SUMMARY_LIMITS.written);
  const filesDeleted = [...(a.filesDeleted ?? []).filter((d) => !bWritten.has(d) && !bDeleted.includes(d)), ...bDeleted].slice(
    -SUMMARY_LIMITS.deleted,
  );
  const filesReverted = [...(a.filesReverted ?? []).filter((r) => !bWritten.has(r) && !bReverted.includes(r)), ...bReverted].slice(
    -SUMMARY_LIMITS.deleted,
  );
  return {
    failedWrites,
    written,
    filesDeleted,
    ...(filesReverted.length ? { filesReverted } : {}),
    goneFromA: (path) => [...bDeleted, ...bReverted].some((d) => under(path, d)),
  };
}
