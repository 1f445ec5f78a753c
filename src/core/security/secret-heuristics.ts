// What separates a secret from text that merely sits where a secret could:
// placeholders, code, paths, word phrases, prose, and values too regular to
// be random. The rules (secret-rules.ts) find candidates by shape or context;
// these checks turn the obvious non-secrets away, so ordinary findings come
// through byte for byte. Pure and linear.

const PLACEHOLDER = new RegExp(
  [
    String.raw`^\[REDACTED`, // our own output: keeps the filter idempotent
    String.raw`^\$\{?[A-Za-z_]`, // $VAR, ${VAR}
    String.raw`^\$\(`, // $(command)
    String.raw`^\{\{`, // {{ template }}
    String.raw`^<[^>]*>?$`, // <password>
    String.raw`^%(?:s|\([A-Za-z_]*\)s|[A-Za-z_]\w*%)$`, // %s, %(pw)s, %PW% (not a value that starts with %: `%HBPx…`)
    String.raw`^[*x.•]+$`, // ****, xxxx, ...
    String.raw`^(?:string|str|text|bytes|secretstr|null|none|nil|undefined|true|false|required|optional|empty|redacted|hidden|masked|unset|default|auto|env|os|input|prompt|ask)$`,
    String.raw`^(?:process\.env|os\.environ|os\.getenv|getenv|env\(|environ|settings\.|config\.|self\.|this\.|secrets\.|vars\.|inputs\.)`,
  ].join('|'),
  'i',
);

// `your_password`, `YOUR_API_KEY`, `myPassword`, `ChangeMe`: words, in one case or in camel humps of whole
// words (case-sensitive, so `myMbhoSwIeRxoq`, random letters after `my`, is no placeholder).
const PLACEHOLDER_WORDS =
  /^(?:(?:your|my|example|sample|dummy|placeholder|change[_-]?me|insert|enter|put)(?:[_-]?[a-z]+){0,4}|(?:YOUR|MY|EXAMPLE|SAMPLE|DUMMY|PLACEHOLDER|CHANGE[_-]?ME|INSERT|ENTER|PUT)(?:[_-]?[A-Z]+){0,4}|(?:[Yy]our|[Mm]y|[Ee]xample|[Ss]ample|[Dd]ummy|[Pp]laceholder|[Cc]hange[_-]?[Mm]e|[Ii]nsert|[Ee]nter|[Pp]ut)(?:[_-]?[A-Z][a-z]{2,}){0,4})$/;

/** True for values that stand for a secret instead of being one. */
export function isPlaceholder(value: string): boolean {
  return value.length === 0 || PLACEHOLDER.test(value) || PLACEHOLDER_WORDS.test(value);
}

/** `form.password.data`, `getPassword(`, `request.form[`: code, not a value. */
export function isCodeReference(value: string): boolean {
  if (/^[A-Za-z_$][\w$.]*[([]/.test(value)) return true;
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value);
}

/** `./config/token-2024.json`: a path to a secret, not the secret. */
export function isPathLike(value: string): boolean {
  return /^(?:\.{1,2}|~)\//.test(value) || (value.includes('/') && /\.[a-z]{1,5}$/.test(value) && !/[+=]/.test(value));
}

/** `get_user_token_v2`, `test-only-secret-for-local-runs-64`: words, not randomness. */
export function isWordPhrase(value: string): boolean {
  const parts = value.split(/[-_.]+/).filter(Boolean);
  return parts.length >= 3 && parts.every((p) => /^[a-z]{2,}$|^[A-Z]{2,}$|^[A-Z][a-z]+$|^\d{1,4}$/.test(p));
}

/** `abcabcabc…`, `x1x1x1…`: a short unit repeated is filler, not a key. */
export function isRepetitive(value: string): boolean {
  for (let period = 1; period <= 16 && period * 2 <= value.length; period++) {
    let same = true;
    for (let i = period; i < value.length && same; i++) same = value[i] === value[i - period];
    if (same) return true;
  }
  return false;
}

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const c of value) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / value.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Random enough for a value found only by its context (a key name, a flag):
 * at least 8 characters; letters and digits mixed, or high entropy when long;
 * never a placeholder, code, a path or a phrase of words.
 */
export function looksRandom(value: string): boolean {
  if (value.length < 8 || isPlaceholder(value) || isCodeReference(value) || isPathLike(value) || isWordPhrase(value)) return false;
  // Tokens are written in URL- and base64-safe characters; braces, brackets and spaces are code or prose.
  if (!/^[A-Za-z0-9_\-./+=~:%]+$/.test(value)) return false;
  const letters = /[A-Za-z]/.test(value);
  const digits = /\d/.test(value);
  const symbols = /[^A-Za-z0-9]/.test(value);
  if (/^\d+$/.test(value)) return value.length >= 12; // a long number (an account token), not a port or a year
  if (isRepetitive(value)) return false;
  if (value.length >= 16 && shannonEntropy(value) >= 3.3) return true;
  return letters && (digits || (symbols && /[A-Z]/.test(value) && /[a-z]/.test(value)));
}

const COMMON_WORDS = new Set(
  `a an the is are was were be been must should can will may might not no yes and or but of to for in on at by with from
  as it this that these those if then else when where which who what how all any each every some such only also just
  here there now new old same other more most less least very too so than into onto over under about after before
  field fields value values set sets use uses used using user users stored store saved hashed required optional
  empty minimum maximum min max length characters chars long short at least see check`.split(/\s+/),
);

/**
 * A word of prose where a password would sit: `password: Must be 12
 * characters`, `password is hashed with bcrypt`. Only letters, and either a
 * common word or followed by more words.
 */
export function isProse(value: string, text: string, end: number): boolean {
  if (!/^[A-Za-z][a-z']*[.,:;!?]?$/.test(value)) return false;
  const word = value.replace(/[.,:;!?]$/, '').toLowerCase();
  if (COMMON_WORDS.has(word)) return true;
  // More words follow on the same line: a sentence, not a value.
  return /^[ \t]+[A-Za-z][a-z']*(?:[ \t,.;:]|$)/.test(text.slice(end, end + 40));
}

/** Words that introduce what a screen, a log or a reply says. */
const SAYS =
  /\b(?:show(?:s|n|ed|ing)?|say(?:s|ing)?|said|display(?:s|ed|ing)?|read(?:s|ing)?|print(?:s|ed|ing)?|return(?:s|ed|ing)?|repl(?:y|ies|ied)|respond(?:s|ed)?|message|messages|error|errors|warning|warnings|notice|alert|text|label|prompt|toast|banner|status|response|output|logs|logged)\b[^"'\x60\u2018\u201c\n]{0,40}$/i;

/**
 * A message quoted in a sentence: `the page shows the message 'password: incorrect'`, `the error
 * "token: expired"`. The name and one word after it sit inside quotes that close right after that
 * word and open after a word that says something is shown, said or logged: what a screen or a log
 * says, not a credential (`config has 'password: letmein'` stays a password).
 */
export function isQuotedMessage(value: string, text: string, start: number): boolean {
  const m = /^([A-Za-z][a-z]*)([\u2019\u201d]?)$/.exec(value);
  if (!m) return false;
  const close = m[2] || (text[start + value.length] ?? '');
  const before = text.slice(Math.max(0, start - 160), start);
  const quoted = /(["'\x60\u2018\u201c])[A-Za-z0-9_. -]{1,80}[:=][ \t]*$/.exec(before);
  if (!quoted?.[1] || !SAYS.test(before.slice(0, quoted.index))) return false;
  const pairs: Record<string, string> = { '\u2018': '\u2019', '\u201c': '\u201d' };
  return close === (pairs[quoted[1]] ?? quoted[1]);
}
