// The store's own random key, for keyed fingerprints of evidence that had to
// be dropped (core/security/fingerprint.ts). Kept in the git-ignored
// bookkeeping folder, so a fingerprint in shared memory means nothing to
// anyone who has the memory but not the machine. Made on first use only.
import { join } from 'node:path';
import { type Fingerprint, keyedFingerprint } from '../../core/security/fingerprint.ts';
import { createFileExclusive, readTextOrNull } from './atomic-file.ts';
import type { EchoPaths } from './echo-paths.ts';

const keyFile = (paths: EchoPaths) => join(paths.stateDir, 'evidence-key');

/** The key itself (hex), made on first use; also what marks the entries this clone writes (store/memory/entry-origin.ts). */
export function storeKey(paths: EchoPaths): string {
  const existing = readTextOrNull(paths, keyFile(paths))?.trim();
  if (existing && /^[0-9a-f]{32,}$/.test(existing)) return existing;
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const key = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  // Two processes making the key at once: the first file wins, and both use it.
  if (createFileExclusive(paths, keyFile(paths), `${key}\n`)) return key;
  return readTextOrNull(paths, keyFile(paths))?.trim() || key;
}

/** A fingerprint under this store's key; the key is read (or made) only when something is fingerprinted. */
export function storeFingerprint(paths: EchoPaths): Fingerprint {
  let fingerprint: Fingerprint | null = null;
  return (text) => {
    fingerprint ??= keyedFingerprint(storeKey(paths));
    return fingerprint(text);
  };
}
