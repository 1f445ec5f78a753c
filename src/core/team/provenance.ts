// Who wrote an entry (SPEC §6b). Every entry this clone writes carries an
// `origin` mark: a keyed hash (HMAC-SHA-256) of what the entry says, under
// this clone's random key, kept in its git folder where no commit or pull
// reaches (store/memory/entry-origin.ts). A teammate can write only committed
// files, so they can copy a mark but not make one for other text: their
// entries, and any entry of ours they changed, carry no valid mark and are
// theirs. The stamp a re-verification changes (`verified`, `confidence`) is
// not part of what is marked, so re-verifying keeps the mark.
import type { EchoEntry } from '../entry/echo-entry.ts';
import { entryFieldValues } from '../entry/entry-fields.ts';
import { hmacSha256Hex } from '../security/fingerprint.ts';

const DOMAIN = 'rune-echoes origin v1\u0000';

/** What the mark covers: every field and kept line but the mark itself and the verification stamp. */
function markedText(entry: EchoEntry): string {
  const { origin: _o, verified: _v, confidence: _c, confidenceWord: _w, ...rest } = entryFieldValues(entry);
  return JSON.stringify([rest, entry.extra]);
}

/** The mark this clone's key gives the entry as it is now. */
export function originMark(entry: EchoEntry, key: string): string {
  return hmacSha256Hex(key, DOMAIN + markedText(entry)).slice(0, 20);
}

/** The entry carries this clone's mark for what it says now. */
export function markedByKey(entry: EchoEntry, key: string | null): boolean {
  return key !== null && typeof entry.origin === 'string' && entry.origin === originMark(entry, key);
}
