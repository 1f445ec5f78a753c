// What a shell command's text says about where it ran and which files it
// changed: a leading `cd`, stdout redirections, `tee`, `sed -i` and `touch`
// (writes), `rm`, `git rm` and `git clean` (deletions), `mv` and `git mv` (both), `cp` (a write),
// `git checkout -- f` (or `git checkout f` when git reports paths updated), `git restore f` and `git reset --hard` (reverts to what
// was committed), and `git commit` (after which a reset keeps what it took). Read conservatively: only the first
// line (a heredoc body is content, not commands), quoted words whole, and no
// word that the shell would expand ($…, backticks) is taken for a path.

export interface ShellEffects {
  /** The directory a leading `cd X &&` (or `;`) moves to, as written; null when there is none. */
  cd: string | null;
  writes: string[];
  deletes: string[];
  /** Files put back as they were committed (`git checkout -- f`, `git restore f`). */
  reverts: string[];
  /** Every uncommitted change put back (`git reset --hard`, `git checkout -- .`, `git restore .`). */
  revertsAll: boolean;
  /** A `git commit`: what was edited before it is no longer an uncommitted change. */
  commits: boolean;
}

interface Word {
  text: string;
  /** An operator (`&&`, `|`, `>` …) rather than a word. */
  op: boolean;
}

/** What ends one step of a shell line and begins another. */
export const SEPARATORS = new Set(['&&', '||', ';', '|', '&']);
// Sticky: matched where the scan stands, never by copying the rest of the line.
const OPERATOR = /&&|\|\||>>|&>|<<-?|[0-9]?>&?[0-9-]?|[;|&<>]/y;

/** The words and operators of one line, quotes removed from quoted words. */
export function shellWords(line: string): Word[] {
  const out: Word[] = [];
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (c === ' ' || c === '\t') {
      i++;
      continue;
    }
    OPERATOR.lastIndex = i;
    const op = OPERATOR.exec(line);
    if (op) {
      out.push({ text: op[0], op: true });
      i += op[0].length;
      continue;
    }
    let text = '';
    while (i < line.length && !/[\s;|&<>]/.test(line[i]!)) {
      const q = line[i]!;
      if (q === '"' || q === "'") {
        const end = line.indexOf(q, i + 1);
        if (end < 0) return out; // an unclosed quote: the rest is not read
        text += line.slice(i + 1, end);
        i = end + 1;
      } else {
        text += q;
        i++;
      }
    }
    out.push({ text, op: false });
  }
  return out;
}

/** A line without its comment: from a `#` at its start or after a space, outside quotes, to its end. */
function withoutComment(line: string): string {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line;
}

/**
 * A command's lines without comments and blank lines, a line that ends in `&&`, `||`, `|` or `\` joined with
 * the next (`cd web && # build it` then `npm run build` is `cd web && npm run build`). Only for the lines of
 * commands: a heredoc's body, which is content, must be cut off first.
 */
export function withoutComments(command: string): string {
  const out: string[] = [];
  for (const raw of command.split('\n')) {
    const line = withoutComment(raw);
    if (!line.trim()) continue;
    const prev = out.at(-1);
    if (prev !== undefined && /(?:&&|\|\||\||\\)\s*$/.test(prev))
      out[out.length - 1] = `${prev.replace(/\\\s*$/, '').trimEnd()} ${line.trim()}`;
    else out.push(line);
  }
  return out.join('\n');
}

/** A word that names a file: no expansion, no option, not a device or a descriptor. */
function isPathWord(w: string): boolean {
  return w !== '' && !w.startsWith('-') && !/[$`]/.test(w) && !w.startsWith('/dev/') && !/^&?\d+$/.test(w) && !w.includes('://');
}

/** The commands of a line split at `&&`, `||`, `;`, `|` and `&`, each as its words and redirections. */
function segments(words: Word[]): Word[][] {
  const out: Word[][] = [[]];
  for (const w of words) {
    if (w.op && SEPARATORS.has(w.text)) out.push([]);
    else out[out.length - 1]!.push(w);
  }
  return out.filter((s) => s.length > 0);
}

/** The command words of a segment after environment assignments and `sudo`/`command`/`env`. */
function commandWords(seg: Word[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < seg.length; i++) {
    const w = seg[i]!;
    if (w.op) {
      i++; // a redirection and its target are not arguments
      continue;
    }
    words.push(w.text);
  }
  while (words.length > 0 && (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!) || /^(?:sudo|command|env|nohup|time)$/.test(words[0]!))) {
    words.shift();
  }
  return words;
}

// What git prints when `git checkout` put files back (`Updated 2 paths from the index`, `… from 3f2a1b4`).
const CHECKED_OUT_PATHS = /^Updated \d+ paths? from\b/m;

/**
 * `output`: what the command printed, when known. It settles what the text alone cannot: `git checkout x`
 * without `--` put files back when git says it updated paths (and then `x` was no branch).
 */
/** What `mv` or `cp` with these file words puts where: source and destination, each file whose place is sure. */
function copies(files: string[]): Array<[string, string]> {
  const into = files.at(-1) ?? '';
  const sources = files.slice(0, -1);
  if (files.length === 2 && !into.endsWith('/')) return [[files[0]!, into]];
  if (sources.length === 0 || files.some((f) => /[*?[]/.test(f))) return [];
  const folder = into.replace(/\/+$/, '');
  return sources.filter(hasExtension).map((f) => [f, `${folder}/${f.split('/').pop()}`]);
}

/** The last part of a path has an extension (`a.ts`, `.env.example`). */
const hasExtension = (path: string): boolean => /\.\w+$/.test(path.split('/').pop() ?? '');

export function shellEffects(command: string, output = ''): ShellEffects {
  // The first line that is a command, with the lines it goes on in (`cd web && # build` then `npm run build`);
  // comments say nothing, and a heredoc's body, after the first line, is never reached.
  const line = withoutComments(command).split('\n')[0] ?? '';
  const segs = segments(shellWords(line));
  const effects: ShellEffects = { cd: null, writes: [], deletes: [], reverts: [], revertsAll: false, commits: false };
  const first = segs[0] ? commandWords(segs[0]) : [];
  if (first[0] === 'cd' && first.length === 2 && segs.length > 1 && isPathWord(first[1]!)) effects.cd = first[1]!;
  for (const seg of segs) {
    // Redirections: `> file`, `>> file`, `&> file`; a heredoc's delimiter is not a file.
    for (let i = 0; i < seg.length - 1; i++) {
      const w = seg[i]!;
      if (w.op && /^(?:>|>>|1>|&>)$/.test(w.text) && !seg[i + 1]!.op && isPathWord(seg[i + 1]!.text)) {
        effects.writes.push(seg[i + 1]!.text);
      }
    }
    const words = commandWords(seg);
    const [cmd, sub] = words;
    const args = words.slice(1).filter((a) => !a.startsWith('-'));
    if (cmd === 'tee' || cmd === 'touch') effects.writes.push(...args.filter(isPathWord));
    else if (cmd === 'rm') effects.deletes.push(...args.filter(isPathWord));
    else if (cmd === 'git' && sub === 'rm' && !words.includes('--cached')) effects.deletes.push(...args.slice(1).filter(isPathWord));
    else if (cmd === 'git' && sub === 'clean' && words.some((a) => /^-[a-zA-Z]*f/.test(a)))
      effects.deletes.push(...args.slice(1).filter(isPathWord));
    else if ((cmd === 'mv' || cmd === 'cp' || (cmd === 'git' && sub === 'mv')) && !words.some((a) => /^-[a-zA-Z]*t/.test(a))) {
      // `mv a b` and `cp a b`: b written (and a gone, for a move). Into a folder (`mv a b dir`, `cp a dir/`:
      // several sources, or a trailing slash, can only mean one) each file keeps its name there; a pattern
      // (`*.log`) names no file, and a source without an extension may be a folder, so it is left out.
      const files = (cmd === 'git' ? args.slice(1) : args).filter(isPathWord);
      for (const [from, to] of copies(files)) {
        // A copy of something without an extension may be a whole folder (`cp -r a b`): its files are not known.
        if (cmd === 'cp' && !hasExtension(from)) continue;
        if (cmd !== 'cp') effects.deletes.push(from);
        effects.writes.push(to);
      }
    } else if (cmd === 'git' && (sub === 'checkout' || sub === 'restore')) {
      // `git checkout -- f` (only after `--`: without it the word may be a branch), `git restore f` (not only the index).
      const staged = words.includes('--staged') || words.includes('-S');
      const worktree = words.includes('--worktree') || words.includes('-W') || !staged;
      const dash = words.indexOf('--');
      // Without `--`, git's report says the words were files; a ref beside them (`HEAD~1`, `origin/main`) has no extension.
      const named = dash < 0 && sub === 'checkout' && CHECKED_OUT_PATHS.test(output);
      const files =
        sub === 'checkout'
          ? dash >= 0
            ? words.slice(dash + 1)
            : named
              ? args.slice(1).filter((a) => a === '.' || hasExtension(a))
              : []
          : args.slice(1).filter((a) => !/^-/.test(a));
      if (worktree && (sub === 'restore' || dash >= 0 || named)) {
        if (files.some((f) => f === '.' || f === './' || f === ':/')) effects.revertsAll = true;
        else effects.reverts.push(...files.filter(isPathWord));
      }
    } else if (cmd === 'git' && sub === 'reset' && words.includes('--hard')) effects.revertsAll = true;
    else if (cmd === 'git' && sub === 'commit') effects.commits = true;
    else if (cmd === 'sed' && words.some((a) => /^-i/.test(a) || a === '--in-place')) {
      // Without -e or -f the first plain word is the script, the rest are the files edited in place.
      const scripted = words.some((a) => a === '-e' || a === '-f');
      const plain = words.slice(1).filter((a, i, all) => a !== '' && !a.startsWith('-') && !/^-[ef]$/.test(all[i - 1] ?? ''));
      effects.writes.push(...(scripted ? plain : plain.slice(1)).filter(isPathWord));
    }
  }
  return effects;
}
