// The plugin's review agents (memory-auditor, echo-reader, signal-discoverer)
// only read. Claude Code gives a subagent its tools by name: a `Bash` in the
// list is all of Bash, whatever pattern follows it, and the user's own allow
// rules (say `Bash(rune-echoes:*)`) apply inside it. So a PreToolUse hook asks
// this policy about every call those agents make: file writes are refused, and
// a shell command runs only if every part of it is on a list of read-only
// programs (search, listing, git history, the CLI's read commands).

/** Agent types that may only read, as Claude Code names them (plugin agents carry the `rune:` prefix). */
export const READ_ONLY_AGENTS: ReadonlySet<string> = new Set(['memory-auditor', 'echo-reader', 'signal-discoverer']);

export function isReadOnlyAgent(agentType: string | undefined): boolean {
  if (!agentType) return false;
  return READ_ONLY_AGENTS.has(agentType.startsWith('rune:') ? agentType.slice(5) : agentType);
}

const WRITING_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);

/** Programs that only read, and for some the subcommands that only read. */
const READ_ONLY: Record<string, readonly string[] | true> = {
  git: ['log', 'show', 'diff', 'blame', 'status', 'ls-files', 'rev-parse', 'grep', 'shortlog', 'cat-file', 'ls-tree', 'describe'],
  'rune-echoes': ['show', 'search', 'status', 'remembrance'],
  grep: true,
  egrep: true,
  rg: true,
  ugrep: true,
  find: true,
  bfs: true,
  ls: true,
  cat: true,
  head: true,
  tail: true,
  wc: true,
  sort: true,
  uniq: true,
  cut: true,
  stat: true,
  file: true,
  pwd: true,
  cd: true,
  tree: true,
  du: true,
  basename: true,
  dirname: true,
  realpath: true,
  echo: true,
  true: true,
};

/** Options that turn a reading program into one that writes or runs other programs. */
const FIND_WRITES = /^-(?:delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)$/;
const UNSAFE_OPTION: Record<string, RegExp> = {
  find: FIND_WRITES,
  bfs: FIND_WRITES,
  rg: /^--pre(?:-glob)?(?:=.*)?$/,
  sort: /^(?:-o|--output(?:=.*)?)$/,
  tree: /^-o$/,
  git: /^--output(?:=.*)?$/,
};

/**
 * Why this call may not run, or null when it may. Only asked about calls of a
 * read-only agent; everything else is Claude Code's usual permission system.
 */
export function refuseWrite(toolName: string | undefined, command: string | undefined): string | null {
  if (toolName && WRITING_TOOLS.has(toolName)) return `${toolName} is not allowed: this agent only reads and proposes changes`;
  if (toolName !== 'Bash') return null;
  const text = command ?? '';
  // Output redirection, command substitution and background jobs are ways around a read-only program list.
  // Quoted text is only data ('=>' in a grep pattern), except that double quotes still substitute.
  const unsingled = text.replace(/'[^']*'/g, "''");
  const unquoted = unsingled.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/2>&1|[0-9]?>\s*\/dev\/null/g, '');
  if (/`|\$\(|<\(|>\(/.test(unsingled) || />|(?:^|[^&])&(?!&)/.test(unquoted)) {
    return 'shell redirection, substitution and background jobs are not allowed for this read-only agent';
  }
  for (const part of splitCommands(text)) {
    const words = shellWords(part);
    const [program = '', sub = ''] = words;
    const allowed = READ_ONLY[program.replace(/^.*\//, '')];
    if (allowed === undefined)
      return `"${program}" is not on the read-only list of this agent (it may search, list, read and look at git history)`;
    if (allowed !== true && !allowed.includes(sub)) return `"${program} ${sub}" changes things; this agent only reads`;
    const name = program.replace(/^.*\//, '');
    const unsafe = UNSAFE_OPTION[name] ? words.find((w) => UNSAFE_OPTION[name]!.test(w)) : undefined;
    if (unsafe) return `"${name} ${unsafe}" writes or runs other programs; this agent only reads`;
  }
  return null;
}

/** Splits a command line at ; && || | and line breaks outside quotes. */
export function splitCommands(text: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') cur += text[i++] ?? '';
      cur += c;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if (c === ';' || c === '\n' || c === '|' || (c === '&' && text[i + 1] === '&')) {
      if (c === '&' || (c === '|' && text[i + 1] === '|')) i++;
      if (cur.trim()) parts.push(cur.trim());
      cur = '';
      continue;
    }
    cur += c;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

/** Words of one command, quotes removed, leading VAR=value assignments skipped. */
function shellWords(part: string): string[] {
  const words = [...part.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
  return words;
}
