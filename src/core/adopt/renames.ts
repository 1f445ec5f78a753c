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
const segments = (name: string): string[] => name.split(/[:/]/);

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
    const clash = [to, ...segments(to)].find((n) => olds.has(n));
    if (clash !== undefined) {
      throw new EchoesError(
        'bad-argument',
        `rename ${from}=${to}: "${clash}" is itself renamed; give the final name directly (one step per name)`,
      );
    }
    for (const [other] of map) {
      if (other !== from && segments(other).includes(to)) {
        throw new EchoesError(
          'bad-argument',
          `rename ${from}=${to}: "${to}" is part of the old name "${other}"; rename that one on its own`,
        );
      }
    }
  }
}

/** The value with every old name replaced; other characters keep their place. */
export function applyRenames(value: string, map: RenameMap): string {
  if (map.size === 0 || value === '') return value;
  return value.replace(TOKEN_RE, (token) => {
    const whole = map.get(token);
    if (whole !== undefined) return whole;
    return token.replace(/[^:/]+/g, (seg) => map.get(seg) ?? seg);
  });
}
