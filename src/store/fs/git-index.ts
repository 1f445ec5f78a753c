// Which files under the store git tracks, read from the repository's index
// without running git (a hook cannot afford a process start). A personal file
// that git tracks came from a commit — a teammate's force-add, a cloned
// repository — and git replaces it on the next pull as it likes: it is never
// read as this clone's session state (SPEC §6b).
import { readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { findGitDirs, readPlain } from './git-dirs.ts';

/**
 * Paths (relative to `under`, with `/`) that the index of the repository
 * holding `under` lists below it; empty outside a repository or when the
 * index cannot be read. Versions 2 to 4 of the index format.
 */
export function trackedUnder(under: string): Set<string> {
  const out = new Set<string>();
  const dirs = findGitDirs(under);
  if (!dirs) return out;
  const rel = relative(dirs.root, under).split(sep).join('/');
  if (rel.startsWith('..')) return out;
  const prefix = rel === '' ? '' : `${rel}/`;
  const indexFile = join(dirs.gitDir, 'index');
  let buf: Buffer;
  let stamp: string;
  try {
    const st = statSync(indexFile);
    stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
    // One read per state of the index in a process, however many stores' paths ask.
    const known = lastRead.get(`${indexFile}\u0000${prefix}`);
    if (known && known.stamp === stamp) return new Set(known.paths);
    buf = readFileSync(indexFile);
  } catch {
    return out;
  }
  const done = (paths: Set<string>) => {
    lastRead.set(`${indexFile}\u0000${prefix}`, { stamp, paths: [...paths] });
    return paths;
  };
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return out;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return out;
  // Most repositories track nothing under the store: in versions 2 and 3 every path is written whole.
  if (version !== 4 && prefix !== '' && buf.indexOf(prefix, 12, 'utf8') < 0) return done(out);
  const sha256 = /objectformat\s*=\s*sha256/i.test(readPlain(join(dirs.commonDir, 'config')) ?? '');
  const hashSize = sha256 ? 32 : 20;
  const count = buf.readUInt32BE(8);
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    const start = at;
    at += 40 + hashSize;
    if (at + 2 > buf.length) break;
    const flags = buf.readUInt16BE(at);
    at += 2;
    if (version >= 3 && flags & 0x4000) at += 2;
    let path: string;
    if (version === 4) {
      // The path is the previous one less `strip` bytes, then this entry's suffix.
      let strip = 0;
      let byte = buf[at++] ?? 0;
      strip = byte & 0x7f;
      while (byte & 0x80) {
        byte = buf[at++] ?? 0;
        strip = ((strip + 1) << 7) | (byte & 0x7f);
      }
      const end = buf.indexOf(0, at);
      if (end < 0) break;
      const prev = Buffer.from(previous, 'utf8');
      path = Buffer.concat([prev.subarray(0, Math.max(0, prev.length - strip)), buf.subarray(at, end)]).toString('utf8');
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end < 0) break;
      path = buf.toString('utf8', at, end);
      // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
      at = start + ((end - start + 8) & ~7);
    }
    previous = path;
    if (path.startsWith(prefix)) out.add(path.slice(prefix.length));
  }
  return done(out);
}

const lastRead = new Map<string, { stamp: string; paths: string[] }>();
