// The rule table of the security filter (SPEC §7): which text counts as a
// secret, and what kind label its redaction gets. The engine that applies the
// rules lives in secret-filter.ts.
//
// Every rule must stay linear on any input, because hooks run the filter over
// whole transcripts (megabytes). The discipline that guarantees it:
// - a rule that starts with a character run is anchored at the start of that
//   run with a negative lookbehind (`B` below), so the engine tries each run
//   once instead of once per character of it;
// - a rule that starts with a literal (`ghp_`, `AKIA`) uses bounded or
//   exact-length bodies, or the same lookbehind when the literal could repeat
//   inside a run;
// - gaps between a key name and its value are bounded (`{0,5}`), and no
//   quantified group contains a sub-pattern that can match the same text in
//   two ways.
// A regex decides where a candidate is; `accept` then rejects the obvious
// non-secrets (placeholders, identifiers, prose) so ordinary findings come
// through byte for byte.

export interface SecretRule {
  kind: string;
  /** Global regex with the `d` flag. Named groups `s`, `s1`, `s2`… (the first
   * that took part) mark the part to redact; without them the whole match is. */
  pattern: RegExp;
  /** Second look at the redacted part (`text` from `start` on); false keeps
   * the text as it is. */
  accept?: (value: string, text: string, start: number) => boolean;
}

type Accept = NonNullable<SecretRule['accept']>;

/**
 * The start of a run of `chars`: not preceded by one of them, so each run is
 * tried once. Transcripts and findings are often JSON-encoded, so a character
 * escaped by a backslash (the `n` of `\n`) does not count as part of a run.
 * A single lookbehind keeps V8's fast scan for the literal that follows.
 */
function runStart(chars: string): string {
  return String.raw`(?<!(?<!\\)[${chars}])`;
}

/**
 * Stricter, for rules that start with a character class: also never start at
 * the letter of a `\n`, `\t` or `\r` escape, which keeps redacted JSON
 * parseable (an address right after `\n` must not swallow the `n`).
 */
function classRunStart(chars: string): string {
  return String.raw`(?:(?<![\\${chars}])|(?<=\\[nrt])|(?<=\\)(?![nrt]))`;
}

/** The start of a run of token characters. */
const B = runStart('A-Za-z0-9_-');
/** Quotes, markdown emphasis and JSON escapes allowed around a key name. */
const Q = String.raw`[*"'\x60\\]{0,4}`;
/** Between a key name and its value: `=`, `:`, `:=`, `=>`, `?=`. */
const SEP = String.raw`${Q}[ \t]{0,5}(?:=>|:=|\?=|[:=])[ \t]{0,5}${Q}`;

function rule(kind: string, source: string, accept?: Accept): SecretRule {
  return { kind, pattern: new RegExp(source, 'dgi'), ...(accept ? { accept } : {}) };
}

/** Same, case-sensitive: provider prefixes are exact. */
function exact(kind: string, source: string, accept?: Accept): SecretRule {
  return { kind, pattern: new RegExp(source, 'dg'), ...(accept ? { accept } : {}) };
}

// ---- heuristics ---------------------------------------------------------

const PLACEHOLDER = new RegExp(
  [
    String.raw`^\[REDACTED`, // our own output: keeps the filter idempotent
    String.raw`^\$\{?[A-Za-z_]`, // $VAR, ${VAR}
    String.raw`^\{\{`, // {{ template }}
    String.raw`^<[^>]*>?$`, // <password>
    String.raw`^%\(?[A-Za-z_]*\)?s?%?$`, // %s, %(pw)s, %PW%
    String.raw`^[*x.•]+$`, // ****, xxxx, ...
    String.raw`^(?:string|str|text|bytes|secretstr|null|none|nil|undefined|true|false|required|optional|empty|redacted|hidden|masked)$`,
    String.raw`^(?:process\.env|os\.environ|os\.getenv|getenv|env\(|environ|settings\.|config\.|self\.|this\.)`,
  ].join('|'),
  'i',
);

/** True for values that stand for a secret instead of being one. */
export function isPlaceholder(value: string): boolean {
  return value.length === 0 || PLACEHOLDER.test(value);
}

/** `form.password.data`, `getPassword(`, `request.form[`: code, not a value. */
function isCodeReference(value: string): boolean {
  if (/^[A-Za-z_$][\w$.]*[([]/.test(value)) return true;
  return /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value) && !/\d/.test(value);
}

/** `./config/token-2024.json`: a path to a secret, not the secret. */
function isPathLike(value: string): boolean {
  return /^(?:\.{1,2}|~)\//.test(value) || (value.includes('/') && /\.[a-z]{1,5}$/.test(value));
}

/** `get_user_token_v2`, `test-only-secret-for-local-runs-64`: words, not randomness. */
function isWordPhrase(value: string): boolean {
  const parts = value.split(/[-_.]+/).filter(Boolean);
  return parts.length >= 3 && parts.every((p) => /^[a-z]{2,}$|^[A-Z]{2,}$|^\d{1,4}$/.test(p));
}

/** Random-looking enough for a rule that found it only by its key name. */
export function looksLikeTokenValue(value: string): boolean {
  return /\d/.test(value) && !isPlaceholder(value) && !isCodeReference(value) && !isPathLike(value) && !isWordPhrase(value);
}

/** Bearer/Authorization values: a digit, or a long mixed-case run. */
function looksLikeCredential(value: string): boolean {
  if (isPlaceholder(value) || isCodeReference(value)) return false;
  return /\d/.test(value) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

function acceptPassword(value: string, text: string, start: number): boolean {
  if (isPlaceholder(value) || isCodeReference(value)) return false;
  // `self.password = password`: an unquoted name after a spaced `=` is a
  // variable in every language that allows that spacing; env files don't.
  const quoted = /["'\x60]/.test(text[start - 1] ?? '');
  return quoted || !/^[A-Za-z_$][\w$]*$/.test(value) || !/[ \t]=[ \t]*$/.test(text.slice(Math.max(0, start - 8), start));
}

/** OpenAI-style `sk-` keys always mix in digits or capitals; kebab words do not. */
function acceptSkKey(value: string): boolean {
  return /[0-9A-Z]/.test(value.slice(3));
}

/** `scheme://user:pass@host`: the part between `//` and `@`. */
function acceptUrlCredentials(userinfo: string): boolean {
  const colon = userinfo.indexOf(':');
  const user = userinfo.slice(0, colon);
  const pass = userinfo.slice(colon + 1);
  // `redis://:pass@host` has no user; only the password must be real.
  return (user === '' || !isPlaceholder(user)) && !isPlaceholder(pass);
}

// ---- the rules, most specific first (earlier kinds win overlaps) ----------

const PASSWORD_KEY = String.raw`(?:pass(?:word|wd|phrase)|(?<=_)(?:pass|pwd))`;
const VALUE_IN_QUOTES = String.raw`"(?<s1>[^"\\\n]{1,256})"|'(?<s2>[^'\\\n]{1,256})'|\\"(?<s3>[^"\\\n]{1,256})\\"`;
// Unquoted: up to whitespace or a quote, minus trailing `;`, `,` or a closing
// bracket (`password: string;`), so a password with a comma inside is whole.
const BARE_VALUE = String.raw`(?<s>[^\s"'\x60\\]{0,255}[^\s"'\x60\\;,)\]}])`;

const TOKEN_KEY = String.raw`(?:(?:api|access|secret|private|signing|encryption|master|account|auth|client)[_.-]?key|apikey|secret|token|credentials?)`;
const TOKEN_VALUE = String.raw`(?<s>[A-Za-z0-9_\-./+~]{20,}={0,3})`;

export const SECRET_RULES: readonly SecretRule[] = [
  // Provider formats: a fixed prefix and a body of known shape.
  exact('anthropic-key', String.raw`${B}sk-ant-[A-Za-z0-9_-]{20,}`),
  exact('openai-key', String.raw`${B}sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}`, acceptSkKey),
  exact('github-token', String.raw`${B}gh[pousr]_[A-Za-z0-9]{30,}`),
  exact('github-token', String.raw`${B}github_pat_[A-Za-z0-9_]{22,}`),
  exact('gitlab-token', String.raw`${B}glpat-[A-Za-z0-9_-]{20,}`),
  exact('slack-token', String.raw`${B}(?:xox[abposre]|xapp)-[A-Za-z0-9-]{10,}`),
  exact('slack-webhook', String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/(?<s>[A-Za-z0-9_/+-]{20,})`),
  exact('discord-webhook', String.raw`discord(?:app)?\.com/api/webhooks/(?<s>[0-9]{5,}/[A-Za-z0-9_-]{20,})`),
  exact('aws-access-key-id', String.raw`${runStart('A-Za-z0-9')}(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`),
  rule(
    'aws-secret-key',
    String.raw`(?:secret[_.-]?access[_.-]?key|aws[_.-]?secret(?:[_.-]?key)?)${SEP}(?<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
  ),
  exact('google-api-key', String.raw`${B}AIza[A-Za-z0-9_-]{35}(?![A-Za-z0-9_-])`),
  exact('google-oauth-secret', String.raw`${B}GOCSPX-[A-Za-z0-9_-]{20,}`),
  exact('stripe-key', String.raw`${B}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}`),
  exact('stripe-key', String.raw`${B}whsec_[A-Za-z0-9]{24,}`),
  exact('npm-token', String.raw`${B}npm_[A-Za-z0-9]{36}(?![A-Za-z0-9])`),
  rule('npm-token', String.raw`_authToken[ \t]{0,5}=[ \t]{0,5}["']?(?<s>[^\s"'\\]{8,})`, (v) => !isPlaceholder(v)),
  exact('huggingface-token', String.raw`${B}hf_[A-Za-z]{34}(?![A-Za-z0-9])`),
  exact('sendgrid-key', String.raw`${B}SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`),
  exact('pypi-token', String.raw`${B}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`),
  exact('digitalocean-token', String.raw`${B}do[opr]_v1_[a-f0-9]{64}(?![a-f0-9])`),
  exact('shopify-token', String.raw`${B}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}(?![a-fA-F0-9])`),
  exact('age-secret-key', String.raw`AGE-SECRET-KEY-1[0-9A-Z]{58}`),
  rule('azure-storage-key', String.raw`AccountKey[ \t]{0,5}=[ \t]{0,5}(?<s>[A-Za-z0-9+/]{40,}={0,2})`),
  exact('jwt', String.raw`${B}eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`),

  // Credentials found by their surroundings.
  rule(
    'url-credentials',
    String.raw`${runStart('A-Za-z0-9+.-')}[A-Za-z][A-Za-z0-9+.-]{1,30}://(?<s>[^\s:@/\\"'\x60<>]{0,256}:[^\s@/\\"'\x60<>]{1,256})@`,
    acceptUrlCredentials,
  ),
  rule('bearer-token', String.raw`${runStart('A-Za-z0-9_')}bearer\s{1,5}(?<s>[A-Za-z0-9._~+/-]{8,}={0,3})`, looksLikeCredential),
  rule(
    'authorization',
    String.raw`${runStart('A-Za-z0-9_')}(?:proxy-)?authorization${SEP}(?:(?:bearer|basic|token|digest|bot|apikey|api-key|negotiate|ntlm|hmac)[ \t]{1,5})?(?<s>[A-Za-z0-9._~+/-]{8,}={0,3})`,
    looksLikeCredential,
  ),
  rule('password', String.raw`${PASSWORD_KEY}${SEP}(?:${VALUE_IN_QUOTES}|${BARE_VALUE})`, acceptPassword),
  rule('password', String.raw`${runStart('A-Za-z0-9-')}--password[ =](?:${VALUE_IN_QUOTES}|${BARE_VALUE})`, acceptPassword),
  rule('api-key', String.raw`${TOKEN_KEY}[A-Za-z0-9_.-]{0,30}${SEP}${TOKEN_VALUE}`, looksLikeTokenValue),
];

/** E-mail addresses: only redacted when the caller asks (see filterFinding). */
export const EMAIL_RULE: SecretRule = rule(
  'email',
  String.raw`${classRunStart('A-Za-z0-9._%+-')}(?<s>[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})`,
  acceptEmail,
);

const NOT_EMAIL_TLD = /^(?:png|jpe?g|gif|svg|webp|ico|js|ts|tsx|jsx|json|lock)$/i;
// RFC 2606 names are documentation, and no-reply senders (`Co-Authored-By:
// Claude <noreply@anthropic.com>`) identify no one.
const RESERVED_DOMAIN = /(?:^|\.)(?:example\.(?:com|org|net)|example|test|invalid|localhost)$/i;
const NO_REPLY_LOCAL = /^no-?reply$/i;

function acceptEmail(address: string): boolean {
  const at = address.indexOf('@');
  const local = address.slice(0, at);
  const tld = address.slice(address.lastIndexOf('.') + 1);
  // `git@github.com:org/repo` is an SSH remote, not a person.
  if (local === 'git' || NO_REPLY_LOCAL.test(local)) return false;
  if (RESERVED_DOMAIN.test(address.slice(at + 1))) return false;
  return /^[A-Za-z]{2,24}$/.test(tld) && !NOT_EMAIL_TLD.test(tld);
}
