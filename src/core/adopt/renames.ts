// Renames of stale agent and concept names (seed 000, RENAME-2): `old=new`
// pairs from `--rename` and `echoes.renames`, applied to metadata values only.
//
// A name is a token like `forge-warden` or `rune:review`; it matches a whole
// token of a value, or a whole `:`/`/`-separated segment of one, never part
// of a word (`auth` does not touch `src/auth.py`). Pairs that could make a
// second run change something again (a new name that is an old one, or holds
// one as a segment) are refused, so applying the map twice changes nothing.

import { EchoesError } from '../errors.ts';

export type RenameMap = ReadonlyMap<string, string>;

const NAME_RE = /^[A-Za-z0-9_.@-]+(?:[:/][A-Za-z0-9_.@-]+)*$/;
// A token never ends with `.`, `:` or `/`: `forge-warden.` at the end of a sentence is the name `forge-warden`.
const TOKEN_RE = /[A-Za-z0-9_.@:/-]*[A-Za-z0-9_@-]/g;
/** Every run of whole consecutive segments of a name, with the separators between them (`src/money.js` → src, money.js, src/money.js). */
function segmentRuns(name: string): string[] {
  const parts = name.split(/([:/])/);
  const runs: string[] = [];
  for (let i = 0; i < parts.length; i += 2) for (let j = i; j < parts.length; j += 2) runs.push(parts.slice(i, j + 1).join(''));
  return runs;
}

/** `old=new` arguments → a map; one clear error for a malformed pair. */
export function parseRenameArgs(args: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const arg of args) {
    const at = arg.indexOf('=');
    if (at <= 0 || at === arg.length - 1) throw new EchoesError('bad-argument', `--rename needs old=new, got ${JSON.stringify(arg)}`);
    out.set(arg.slice(0, at).trim(), arg.slice(at + 1).trim());
  }
  return out;
}

/** Checks a whole map (config and flags together); throws a one-line bad-argument for the first problem. */
export function checkRenames(map: RenameMap): void {
  const olds = new Set(map.keys());
  for (const [from, to] of map) {
    for (const name of [from, to]) {
      if (!NAME_RE.test(name)) {
        throw new EchoesError(
          'bad-argument',
          `rename ${from}=${to}: "${name}" is not a name (letters, digits, . _ @ - and : or / between parts)`,
        );
      }
    }
    if (from === to) throw new EchoesError('bad-argument', `rename ${from}=${to}: the new name is the old one`);
    const clash = segmentRuns(to).find((n) => olds.has(n));
    if (clash !== undefined) {
      throw new EchoesError(
        'bad-argument',
        `rename ${from}=${to}: "${clash}" is itself renamed; give the final name directly (one step per name)`,
      );
    }
    for (const [other] of map) {
      if (other !== from && segmentRuns(other).includes(to)) {
        throw new EchoesError(
          'bad-argument',
          `rename ${from}=${to}: "${to}" is part of the old name "${other}"; rename that one on its own`,
        );
      }
    }
  }
}

/**
 * The value with every old name replaced; other characters keep their place.
 * An old name matches a whole token or a run of whole segments of one, so a
 * path renames where it is cited (`src/money.js=lib/money.js` rewrites
 * `src/money.js:12`); the longest old name at a place wins.
 */
export function applyRenames(value: string, map: RenameMap): string {
  if (map.size === 0 || value === '') return value;
  return value.replace(TOKEN_RE, (token) => {
    const parts = token.split(/([:/])/);
    let out = '';
    for (let i = 0; i < parts.length; ) {
      let j = parts.length - 1;
      for (; j >= i; j -= 2) {
        const to = map.get(parts.slice(i, j + 1).join(''));
        if (to === undefined) continue;
        out += to;
        break;
      }
      if (j >= i) i = j + 1;
      else out += parts[i++] ?? '';
      // The separator after a segment (or after a renamed run) is kept as it was.
      if (i < parts.length && i % 2 === 1) out += parts[i++] ?? '';
    }
    return out;
  });
}
