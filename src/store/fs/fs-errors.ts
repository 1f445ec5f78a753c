// What a file-system error means to the user, in one line: the store is not
// writable here (a read-only mount, another user's folder), the disk is full,
// a folder stands where a file should. Other errors are left as they are.

const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS']);

const codeOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.code;
const pathOf = (err: unknown): string | undefined => (err as NodeJS.ErrnoException | null)?.path;

/** True for an error that says this process may not write (or create) where it tried. */
export function isNotWritable(err: unknown): boolean {
  const code = codeOf(err);
  return code !== undefined && NOT_WRITABLE.has(code);
}

/** A plain sentence for the file-system errors a user can act on; null for the others. `path`: what was being read or written, when the error does not say. */
export function fsErrorLine(err: unknown, path?: string): string | null {
  const code = codeOf(err);
  const where = pathOf(err) ?? path ?? 'a file of the memory store';
  if (code === 'EROFS') return `cannot write ${where}: the file system is read-only`;
  if (code === 'EACCES' || code === 'EPERM')
    return `cannot write ${where}: permission denied (the memory folder is not writable by this user)`;
  if (code === 'ENOSPC') return `cannot write ${where}: no space left on the device`;
  if (code === 'EISDIR') return `${where} is a folder where a file was expected; move it away`;
  if (code === 'ENOTDIR') return `${where}: a file stands where a folder was expected; move it away`;
  return null;
}
