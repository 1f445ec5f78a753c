// The rule table of the security filter (SPEC §7): which text counts as a
// secret, and the kind its redaction names. The engine that applies the rules
// is secret-filter.ts; the checks that turn non-secrets away are in
// secret-heuristics.ts.
//
// Three families, most specific first (an earlier kind wins an overlap):
// 1. provider formats: a fixed prefix and a body of known shape, found
//    anywhere (about 120 token formats of some 80 services);
// 2. structured credentials: private keys, URL user:password, Authorization
//    headers, SAS signatures, Docker auth, npm and netrc files;
// 3. credentials by position: a value after a secret-ish name (`api_key =`,
//    `STRIPE_SECRET:`, `"password": …`, a provider's name), a command-line
//    flag (`--password`, `mysql -p…`, `sshpass -p`, `curl -u`) or a query
//    parameter (`&sig=`), accepted only when the value looks random.
//
// Every rule stays linear on any input, because hooks run the filter over
// whole transcripts: a rule that starts with a character run is anchored at
// the start of that run with a negative lookbehind (`B`), so each run is
// tried once; gaps are bounded; no quantified group can match the same text
// two ways. Each rule names `keywords` (lower case): the engine runs a rule
// only on text that contains one, which keeps 150 rules cheap.

import { isCodeReference, isPathLike, isPlaceholder, isProse, isQuotedMessage, looksRandom } from './secret-heuristics.ts';

export interface SecretRule {
  kind: string;
  /** Global regex with the `d` flag. Named groups `s`, `s1`, `s2`… (the first that
   * took part) mark the part to redact; without them the whole match is. */
  pattern?: RegExp;
  /** Instead of a pattern: finds the [start, end) ranges to redact itself, each with its kind when it differs from `kind`. */
  scan?: (text: string) => Array<[number, number, string?]>;
  /** Second look at the redacted part (`text` from `start` on); false keeps it. */
  accept?: (value: string, text: string, start: number) => boolean;
  /** Lower-case literals of which one must occur in the text for the rule to run; none: always runs. */
  keywords?: readonly string[];
}

type Accept = NonNullable<SecretRule['accept']>;

/**
 * The start of a run of `chars`: not preceded by one of them, so each run is
 * tried once. Transcripts are often JSON-encoded, so a character escaped by a
 * backslash (the `n` of `\n`) does not count as part of a run.
 */
function runStart(chars: string): string {
  return String.raw`(?<!(?<!\\)[${chars}])`;
}

/** Stricter, for rules that start with a character class: never at the letter of a `\n`, `\t` or `\r` escape. */
function classRunStart(chars: string): string {
  return String.raw`(?:(?<![\\${chars}])|(?<=\\[nrt])|(?<=\\)(?![nrt]))`;
}

/** The start of a word, also right after a JSON escape such as `\n` (transcripts are JSON-encoded). */
const W = String.raw`(?:(?<![A-Za-z0-9_])|(?<=\\[nrt]))`;

/** The start of a run of token characters. */
const B = runStart('A-Za-z0-9_-');
/** The end of one. */
const E = String.raw`(?![A-Za-z0-9_-])`;
/** Quotes, markdown emphasis and JSON escapes allowed around a key name. */
const Q = String.raw`[*"'\x60\\]{0,4}`;
/** Between a key name and its value: `=`, `:`, `:=`, `=>`, `?=`, `: ` in YAML, a JSON `": "`. */
const SEP = String.raw`${Q}[ \t]{0,5}(?:=>|:=|\?=|[:=])[ \t]{0,5}${Q}`;

function exact(kind: string, source: string, keywords: readonly string[], accept?: Accept): SecretRule {
  return { kind, pattern: new RegExp(source, 'dg'), keywords, ...(accept ? { accept } : {}) };
}

function anyCase(kind: string, source: string, keywords: readonly string[], accept?: Accept): SecretRule {
  return { kind, pattern: new RegExp(source, 'dgi'), keywords, ...(accept ? { accept } : {}) };
}

/**
 * A token with a fixed prefix: `${B}prefix body` (the prefix is literal text,
 * escaped here). A prefix that no word ends in — four characters or more with
 * a `_` or `-`, like `ghp_` or `sk-ant-` — matches glued to what comes before
 * it too (`prefix_ghp_…`, `x=sk_live_…`): a secret does not hide behind a word.
 */
function prefixed(kind: string, prefixes: readonly string[], body: string, accept?: Accept): SecretRule {
  const literal = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const distinct = (p: string) => p.length >= 4 && /[_-]/.test(p);
  const glued = prefixes.filter(distinct).map(literal);
  const bounded = prefixes.filter((p) => !distinct(p)).map(literal);
  const alts = [...(glued.length ? [`(?:${glued.join('|')})`] : []), ...(bounded.length ? [`${B}(?:${bounded.join('|')})`] : [])];
  return exact(
    kind,
    `(?:${alts.join('|')})${body}`,
    prefixes.map((p) => p.toLowerCase()),
    accept,
  );
}

const mixedCase: Accept = (v) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v);
const notAllLetters: Accept = (v) => /\d/.test(v);

// ---- 1. provider formats ------------------------------------------------------

const PROVIDER_RULES: readonly SecretRule[] = [
  // AI services
  prefixed('anthropic-key', ['sk-ant-'], String.raw`[A-Za-z0-9]{2,8}\d{2}-[A-Za-z0-9_-]{20,}`),
  prefixed('anthropic-key', ['sk-ant-'], String.raw`[A-Za-z0-9_-]{20,}`),
  exact('openai-key', String.raw`${B}sk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`, ['sk-'], (v) => /[0-9A-Z]/.test(v.slice(3))),
  prefixed('huggingface-token', ['hf_'], String.raw`[A-Za-z0-9]{30,40}${E}`),
  prefixed('huggingface-token', ['api_org_'], String.raw`[A-Za-z]{34}${E}`),
  prefixed('perplexity-key', ['pplx-'], String.raw`[A-Za-z0-9]{40,56}${E}`),
  prefixed('groq-key', ['gsk_'], String.raw`[A-Za-z0-9]{40,60}${E}`),
  prefixed('replicate-token', ['r8_'], String.raw`[A-Za-z0-9]{37}${E}`),
  prefixed('xai-key', ['xai-'], String.raw`[A-Za-z0-9]{60,90}${E}`),
  // Source hosting and CI
  prefixed('github-token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], String.raw`[A-Za-z0-9]{30,255}`),
  prefixed('github-token', ['github_pat_'], String.raw`[A-Za-z0-9_]{22,255}`),
  prefixed(
    'gitlab-token',
    ['glpat-', 'gldt-', 'glft-', 'glrt-', 'glsoat-', 'glffct-', 'glimt-', 'gloas-', 'glagent-', 'glcbt-'],
    String.raw`[A-Za-z0-9_.-]{20,300}`,
  ),
  prefixed('gitlab-token', ['glptt-'], String.raw`[0-9a-f]{40}${E}`),
  prefixed('gitlab-token', ['GR1348941'], String.raw`[A-Za-z0-9_-]{20,}`),
  exact('gitlab-token', String.raw`_gitlab_session=(?<s>[0-9a-z]{32})${E}`, ['_gitlab_session']),
  prefixed('bitbucket-token', ['ATBB'], String.raw`[A-Za-z0-9_=.-]{28,}`),
  prefixed('atlassian-token', ['ATATT3', 'ATCTT3'], String.raw`[A-Za-z0-9_=-]{60,}`),
  prefixed('npm-token', ['npm_'], String.raw`[A-Za-z0-9]{36}${E}`),
  prefixed('pypi-token', ['pypi-AgEIcHlwaS5vcmc', 'pypi-AgENdGVzdC5weXBpLm9yZw'], String.raw`[A-Za-z0-9_-]{40,}`),
  prefixed('rubygems-token', ['rubygems_'], String.raw`[a-f0-9]{48}${E}`),
  prefixed('clojars-token', ['CLOJARS_'], String.raw`[a-z0-9]{60}${E}`),
  prefixed('nuget-key', ['oy2'], String.raw`[a-z0-9]{43}${E}`),
  prefixed('artifactory-token', ['AKCp'], String.raw`[A-Za-z0-9]{60,80}${E}`),
  prefixed('artifactory-token', ['cmVmd'], String.raw`[A-Za-z0-9]{55,70}${E}`),
  prefixed('docker-hub-token', ['dckr_pat_', 'dckr_oat_'], String.raw`[A-Za-z0-9_-]{20,}`),
  prefixed('codecov-token', ['CODECOV_TOKEN='], String.raw`[0-9a-f-]{36}`),
  prefixed('sonar-token', ['squ_', 'sqp_', 'sqa_'], String.raw`[a-f0-9]{40}${E}`),
  prefixed('snyk-token', ['snyk_'], String.raw`[A-Za-z0-9_-]{30,}`),
  prefixed('circleci-token', ['CCIPAT_'], String.raw`[A-Za-z0-9_]{20,}`),
  prefixed('buildkite-token', ['bkua_'], String.raw`[a-f0-9]{40}${E}`),
  prefixed('sourcegraph-token', ['sgp_'], String.raw`(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}${E}`),
  exact('terraform-token', String.raw`${B}[a-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}`, ['atlasv1']),
  prefixed('pulumi-token', ['pul-'], String.raw`[a-f0-9]{40}${E}`),
  prefixed('prefect-token', ['pnu_'], String.raw`[A-Za-z0-9]{36}${E}`),
  prefixed('octopus-key', ['API-'], String.raw`[A-Z0-9]{26}${E}`, notAllLetters),
  prefixed('harness-token', ['pat.', 'sat.'], String.raw`[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}${E}`),
  prefixed('postman-key', ['PMAK-'], String.raw`[a-f0-9]{24}-[a-f0-9]{34}${E}`),
  prefixed('readme-key', ['rdme_'], String.raw`[a-z0-9]{70}${E}`),
  // Cloud
  exact(
    'aws-access-key-id',
    // Not inside a run of capitals and digits, but after a lower-case word (`key=xAKIA…`) still.
    String.raw`${runStart('A-Z0-9')}(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])`,
    ['akia', 'asia', 'abia', 'acca', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'a3t'],
  ),
  exact('aws-mws-key', String.raw`amzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`, ['amzn.mws']),
  exact('google-api-key', String.raw`${B}AIza[A-Za-z0-9_-]{35}${E}`, ['aiza']),
  prefixed('google-oauth-secret', ['GOCSPX-'], String.raw`[A-Za-z0-9_-]{20,}`),
  exact('google-oauth-token', String.raw`${B}ya29\.[A-Za-z0-9_-]{30,}`, ['ya29.']),
  exact('google-refresh-token', String.raw`${B}1//0[A-Za-z0-9_-]{40,}`, ['1//0']),
  // A service-account key's id, however the JSON is quoted or escaped (`\"private_key_id\": …`, Python's quotes, YAML, env).
  anyCase('google-service-account-key', String.raw`${W}private_key_id${SEP}(?<s>[a-f0-9]{32,64})${E}`, ['private_key_id']),
  exact('azure-storage-key', String.raw`AccountKey[ \t]{0,5}=[ \t]{0,5}(?<s>[A-Za-z0-9+/]{40,}={0,2})`, ['accountkey']),
  exact(
    'azure-client-secret',
    String.raw`${classRunStart('A-Za-z0-9_~.-')}[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`,
    ['q~'],
  ),
  exact('azure-sas-signature', String.raw`[?&;]sig=(?<s>[A-Za-z0-9%+/]{20,}(?:%3D|=){0,2})`, ['sig=']),
  prefixed('alibaba-key', ['LTAI'], String.raw`[A-Za-z0-9]{20}${E}`, notAllLetters),
  prefixed('digitalocean-token', ['dop_v1_', 'doo_v1_', 'dor_v1_'], String.raw`[a-f0-9]{64}${E}`),
  prefixed('databricks-token', ['dapi'], String.raw`[a-f0-9]{32}(?:-\d)?${E}`),
  prefixed('heroku-key', ['HRKU-AA'], String.raw`[A-Za-z0-9_-]{58}${E}`),
  prefixed('flyio-token', ['fo1_'], String.raw`[A-Za-z0-9_-]{43}`),
  prefixed('flyio-token', ['fm1a_', 'fm1r_', 'fm2_'], String.raw`[A-Za-z0-9+/]{60,}={0,3}`),
  prefixed('cloudflare-origin-key', ['v1.0-'], String.raw`[a-f0-9]{24}-[a-f0-9]{146}`),
  prefixed('scalingo-token', ['tk-us-'], String.raw`[A-Za-z0-9_-]{48}`),
  prefixed('planetscale-token', ['pscale_tkn_', 'pscale_oauth_', 'pscale_pw_'], String.raw`[A-Za-z0-9_=.-]{32,64}`),
  prefixed('openshift-token', ['sha256~'], String.raw`[A-Za-z0-9_-]{43}${E}`),
  prefixed('doppler-token', ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'], String.raw`[A-Za-z0-9]{40,44}${E}`),
  exact('vault-token', String.raw`${B}hv[sbr]\.[A-Za-z0-9_-]{24,300}`, ['hvs.', 'hvb.', 'hvr.']),
  exact(
    'vault-token',
    String.raw`${runStart('A-Za-z0-9_.-')}s\.[A-Za-z0-9]{24}(?![A-Za-z0-9_.-])`,
    ['s.'],
    (v) => /\d/.test(v) && /[A-Z]/.test(v) && /[a-z]/.test(v.slice(2)),
  ),
  prefixed('onepassword-token', ['ops_eyJ'], String.raw`[A-Za-z0-9+/]{100,}={0,3}`),
  exact(
    'onepassword-secret-key',
    String.raw`${B}A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}${E}`,
    ['a3-'],
  ),
  prefixed('dynatrace-token', ['dt0c01.'], String.raw`[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}${E}`),
  prefixed('newrelic-key', ['NRAK-'], String.raw`[A-Z0-9]{27}${E}`),
  prefixed('newrelic-key', ['NRII-', 'NRIQ-'], String.raw`[A-Za-z0-9_-]{32}${E}`),
  prefixed('newrelic-key', ['NRJS-'], String.raw`[a-f0-9]{19}${E}`),
  prefixed('grafana-token', ['glsa_'], String.raw`[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}${E}`),
  prefixed('grafana-token', ['glc_'], String.raw`[A-Za-z0-9+/]{32,400}={0,3}`),
  prefixed('grafana-token', ['eyJrIjoi'], String.raw`[A-Za-z0-9]{60,400}={0,3}`),
  prefixed('sentry-token', ['sntryu_'], String.raw`[a-f0-9]{64}${E}`),
  prefixed('sentry-token', ['sntrys_eyJ'], String.raw`[A-Za-z0-9+/=_]{60,}`),
  prefixed('age-secret-key', ['AGE-SECRET-KEY-1'], String.raw`[0-9A-Z]{58}`),
  prefixed('infracost-token', ['ico-'], String.raw`[A-Za-z0-9]{32}${E}`, notAllLetters),
  prefixed('clickhouse-key', ['4b1d'], String.raw`[A-Za-z0-9]{38}${E}`, mixedCase),
  // Payments and commerce
  prefixed('stripe-key', ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'], String.raw`[A-Za-z0-9]{10,99}${E}`),
  prefixed('stripe-key', ['whsec_'], String.raw`[A-Za-z0-9]{24,}`),
  prefixed('square-token', ['sq0atp-', 'sq0csp-'], String.raw`[A-Za-z0-9_-]{22,60}`),
  prefixed('square-token', ['EAAA'], String.raw`[A-Za-z0-9_-]{56,64}${E}`, mixedCase),
  prefixed('shopify-token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], String.raw`[a-fA-F0-9]{32}${E}`),
  prefixed('shippo-token', ['shippo_live_', 'shippo_test_'], String.raw`[a-fA-F0-9]{40}${E}`),
  prefixed('easypost-key', ['EZAK', 'EZTK'], String.raw`[A-Za-z0-9]{54}${E}`),
  prefixed('flutterwave-key', ['FLWSECK-', 'FLWSECK_TEST-'], String.raw`[A-Za-z0-9]{12,32}(?:-X)?`),
  prefixed('duffel-token', ['duffel_live_', 'duffel_test_'], String.raw`[A-Za-z0-9_=-]{43}`),
  prefixed('gocardless-token', ['live_'], String.raw`[A-Za-z0-9_=-]{40}${E}`, mixedCase),
  prefixed('adobe-secret', ['p8e-'], String.raw`[A-Za-z0-9]{32}${E}`),
  prefixed('coinbase-key', ['organizations/'], String.raw`[0-9a-f-]{36}/apiKeys/[0-9a-f-]{36}`),
  // Messaging, mail and social
  exact('django-secret-key', String.raw`django-insecure-[^\s'"\x60]{16,}`, ['django-insecure']),
  exact('slack-token', String.raw`${B}xox[abposre]-[A-Za-z0-9-]{10,}`, ['xox']),
  exact('slack-token', String.raw`${B}xoxe\.xox[bp]-\d-[A-Za-z0-9]{60,}`, ['xoxe.']),
  exact('slack-token', String.raw`${B}xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+`, ['xapp-']),
  exact('slack-webhook', String.raw`hooks\.slack\.com/(?:services|workflows|triggers)/(?<s>[A-Za-z0-9_/+-]{20,})`, ['hooks.slack.com']),
  exact('discord-webhook', String.raw`discord(?:app)?\.com/api/webhooks/(?<s>[0-9]{5,}/[A-Za-z0-9_-]{20,})`, ['discord']),
  exact('discord-bot-token', String.raw`${B}[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}${E}`, [], mixedCase),
  // Telegram bot tokens, also inside `https://api.telegram.org/bot<token>/…`.
  exact('telegram-bot-token', String.raw`(?:(?<=/bot)|${runStart('A-Za-z0-9_:-')})\d{8,12}:AA[A-Za-z0-9_-]{33}${E}`, [':aa']),
  exact('teams-webhook', String.raw`webhook\.office\.com/webhookb2/(?<s>[A-Za-z0-9@/-]{60,})`, ['webhook.office.com']),
  prefixed('sendgrid-key', ['SG.'], String.raw`[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}${E}`),
  prefixed('sendinblue-key', ['xkeysib-', 'xsmtpsib-'], String.raw`[a-f0-9]{64}-[A-Za-z0-9]{16}${E}`),
  prefixed('mailgun-key', ['key-'], String.raw`[a-z0-9]{32}${E}`, (v) => /\d/.test(v) && /[a-z]/.test(v.slice(4))),
  exact('mailgun-key', String.raw`${B}[a-f0-9]{32}-[a-f0-9]{8}-[a-f0-9]{8}${E}`, ['mailgun']),
  exact('mailchimp-key', String.raw`${B}[a-f0-9]{32}-us\d{1,2}${E}`, ['-us']),
  exact('twilio-key', String.raw`${B}SK[0-9a-fA-F]{32}${E}`, ['sk'], (v) => /\d/.test(v) && /[a-f]/i.test(v.slice(2))),
  // A Twilio auth token next to its account SID: `AC… 5f8c…`, `AC…:5f8c…`, `AC…|5f8c…`, `Client("AC…", "5f8c…")`,
  // the call broken over lines, the token passed by name (`auth_token="5f8c…"`) or after a word (`sid AC… token 5f8c…`).
  exact(
    'twilio-auth-token',
    String.raw`${B}AC[0-9a-fA-F]{32}\\?["'\x60]?(?:\s{1,12}|\s{0,12}[,:|;/]\s{0,12})(?:[A-Za-z_]{2,20}(?:[ \t]{0,3}[=:][ \t]{0,3}|[ \t]{1,3}))?\\?["'\x60]?(?<s>[0-9a-fA-F]{32})${E}`,
    ['ac'],
  ),
  prefixed('linear-key', ['lin_api_'], String.raw`[A-Za-z0-9]{40}${E}`),
  prefixed('linear-key', ['lin_oauth_'], String.raw`[A-Za-z0-9]{64}${E}`),
  prefixed('notion-token', ['ntn_'], String.raw`[A-Za-z0-9]{40,50}${E}`),
  prefixed('notion-token', ['secret_'], String.raw`[A-Za-z0-9]{43}${E}`, mixedCase),
  exact('airtable-token', String.raw`${B}pat[A-Za-z0-9]{14}\.[a-f0-9]{64}${E}`, ['pat']),
  prefixed('typeform-token', ['tfp_'], String.raw`[A-Za-z0-9_.=-]{44,64}`),
  prefixed('facebook-token', ['EAAM', 'EAAC', 'EAAG', 'EAAB'], String.raw`[A-Za-z0-9]{90,}`),
  prefixed('mapbox-secret-token', ['sk.eyJ'], String.raw`[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{15,}`),
  prefixed('yandex-key', ['AQVN'], String.raw`[A-Za-z0-9_-]{35,38}${E}`),
  prefixed('yandex-token', ['t1.'], String.raw`[A-Za-z0-9_-]{20,}={0,2}\.[A-Za-z0-9_-]{86}={0,2}`),
  prefixed('intercom-token', ['dG9rOj'], String.raw`[A-Za-z0-9+/]{30,}={0,2}`),
  prefixed('frameio-token', ['fio-u-'], String.raw`[A-Za-z0-9_=-]{64}`),
  prefixed('settlemint-token', ['sm_aat_', 'sm_pat_', 'sm_sat_'], String.raw`[A-Za-z0-9]{16}${E}`),
  exact('sidekiq-credentials', String.raw`https?://(?<s>[a-f0-9]{8}:[a-f0-9]{8})@(?:gems|enterprise)\.contribsys\.com`, ['contribsys']),
  exact('maxmind-key', String.raw`${B}[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk${E}`, ['_mmk']),
  exact('jwt', String.raw`${B}eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*`, ['eyj']),
];

// ---- 2. structured credentials ------------------------------------------------

/** `scheme://user:pass@host`: the part between `//` and `@`. */
function acceptUrlCredentials(userinfo: string): boolean {
  const colon = userinfo.indexOf(':');
  const user = userinfo.slice(0, colon);
  const pass = userinfo.slice(colon + 1);
  // `redis://:pass@host` has no user; only the password must be real.
  return (user === '' || !isPlaceholder(user)) && !isPlaceholder(pass);
}

/** Bearer/Authorization values: a digit, or a long mixed-case run. */
function looksLikeCredential(value: string): boolean {
  if (isPlaceholder(value) || isCodeReference(value)) return false;
  return /\d/.test(value) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

/**
 * After `Bearer ` a dotted value is a token (`F.E_Hr…`, a JWT), not a property
 * path, unless it starts from an object code names (`this.token`, `req.headers…`).
 */
function looksLikeBearerToken(value: string): boolean {
  if (isPlaceholder(value) || /^(?:this|self|req|request|res|ctx|config|process|options|opts|env)\./.test(value)) return false;
  return /\d/.test(value) || (value.length >= 16 && /[a-z]/.test(value) && /[A-Z]/.test(value));
}

const STRUCTURED_RULES: readonly SecretRule[] = [
  // A PEM private key encoded once more in base64 (`tls.key: LS0tLS1CRUdJTi…` in Kubernetes secrets).
  exact('private-key', String.raw`${B}LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}`, ['ls0tls1crudjti']),
  // A DER key body without its PEM header, right after a name that says it is a key.
  anyCase('private-key', String.raw`key${Q}[ \t]{0,5}(?:=|:)[ \t]{0,5}${Q}(?<s>MII[A-Za-z0-9+/]{60,}={0,2})`, ['mii']),
  anyCase(
    'url-credentials',
    String.raw`${runStart('A-Za-z0-9+.-')}[A-Za-z][A-Za-z0-9+.-]{1,30}://(?<s>[^\s:@/\\"'\x60<>]{0,256}:[^\s@/\\"'\x60<>]{1,256})@`,
    ['://'],
    acceptUrlCredentials,
  ),
  anyCase(
    'bearer-token',
    String.raw`${runStart('A-Za-z0-9_')}bearer\s{1,5}(?<s>[A-Za-z0-9._~+/-]{8,}={0,3})`,
    ['bearer'],
    looksLikeBearerToken,
  ),
  anyCase(
    'authorization',
    String.raw`${runStart('A-Za-z0-9_')}(?:proxy-)?authorization${SEP}(?:(?:bearer|basic|token|digest|bot|apikey|api-key|negotiate|ntlm|hmac|sso-key|key)[ \t]{1,5})?(?<s>[A-Za-z0-9._~+/=:-]{8,})`,
    ['authorization'],
    looksLikeCredential,
  ),
  // Docker's config.json: `"auth": "base64(user:pass)"`, `"identitytoken": "…"`.
  anyCase('docker-auth', String.raw`"(?:auth|identitytoken|registrytoken)"\s{0,5}:\s{0,5}"(?<s>[A-Za-z0-9+/=._-]{8,})"`, [
    '"auth"',
    'identitytoken',
    'registrytoken',
  ]),
  // .npmrc and .pypirc.
  exact(
    'npm-token',
    String.raw`(?:^|[:\s])(?:_authToken|_auth|_password)[ \t]{0,5}=[ \t]{0,5}["']?(?<s>[^\s"'\\]{8,})`,
    ['_auth', '_password'],
    (v) => !isPlaceholder(v),
  ),
  // .netrc: `machine host login me password s3cret`.
  anyCase(
    'netrc-password',
    String.raw`\blogin[ \t]+\S{1,100}[ \t]+password[ \t]+(?<s>[^\s"'\\]{1,200})`,
    ['password'],
    (v) => !isPlaceholder(v),
  ),
  // ADO.NET and JDBC connection strings: `Server=…;User Id=sa;Password=my pass;` (values may hold spaces).
  anyCase(
    'connection-string-password',
    String.raw`;[ \t]{0,3}(?:password|pwd)[ \t]{0,3}=[ \t]{0,3}(?<s>[^;"'\r\n]{1,200})(?=[;"']|$)`,
    ['password', 'pwd'],
    (v) => !isPlaceholder(v.trim()),
  ),
];

// ---- 3. credentials by position -----------------------------------------------

/** Provider and product names that, as part of a key name, mean the value is their secret. */
const PROVIDER_NAMES = [
  'adafruit',
  'adobe',
  'airtable',
  'algolia',
  'alibaba',
  'asana',
  'atlassian',
  'jira',
  'confluence',
  'beamer',
  'bitbucket',
  'bittrex',
  'cloudflare',
  'codecov',
  'cohere',
  'coinbase',
  'confluent',
  'contentful',
  'datadog',
  'discord',
  'droneci',
  'dropbox',
  'etsy',
  'facebook',
  'fastly',
  'finicity',
  'finnhub',
  'flickr',
  'freshbooks',
  'gitter',
  'gocardless',
  'heroku',
  'hubspot',
  'intercom',
  'jfrog',
  'kraken',
  'kucoin',
  'launchdarkly',
  'linkedin',
  'mailchimp',
  'mailgun',
  'mailjet',
  'mapbox',
  'mattermost',
  'messagebird',
  'netlify',
  'newrelic',
  'nytimes',
  'okta',
  'openai',
  'anthropic',
  'plaid',
  'postmark',
  'pusher',
  'rapidapi',
  'sendbird',
  'sentry',
  'snyk',
  'sonar',
  'squarespace',
  'sumo',
  'telegram',
  'travis',
  'twilio',
  'twitch',
  'twitter',
  'typeform',
  'yandex',
  'zendesk',
  'vercel',
  'supabase',
  'firebase',
  'algolia',
  'auth0',
  'segment',
  'mixpanel',
  'amplitude',
  'pagerduty',
  'opsgenie',
  'vonage',
  'nexmo',
];

/** Words that make a key name a secret's name, anywhere in it (`stripeSecretKey`, `DB_PASSWORD`). */
const SECRET_WORDS = [
  'secret',
  'token',
  'passwd',
  'password',
  'passphrase',
  'apikey',
  'api_key',
  'api-key',
  'credential',
  'private_key',
  'privatekey',
  'access_key',
  'accesskey',
  'client_secret',
  'cookie',
  'session_key',
];
/** Short words that count only as a whole word of the name (`REDIS_PASS`, `smtpPwd`), not inside `bypass` or `signature`. */
const SHORT_WORDS = new Set(['pass', 'pwd', 'sig', 'auth', 'creds', 'key']);

const NAME_WORDS = [...new Set([...SECRET_WORDS, ...PROVIDER_NAMES])];
const LONG_NAME_RE = new RegExp(NAME_WORDS.map((w) => w.replace(/[-_]/g, '[_.-]?')).join('|'), 'i');

/** A key name that holds a secret's word: `DB_PASSWORD`, `stripeSecretKey`, `"api-key"`, `TWILIO_AUTH`, `smtpPwd`. */
function isSecretName(name: string): boolean {
  if (LONG_NAME_RE.test(name)) return true;
  // Words of the name: split at separators and camelCase humps (`smtpPwd` → smtp, pwd).
  const words = name.split(/[_.-]+|(?<=[a-z0-9])(?=[A-Z])/);
  // A lone `key` is too common (`cache_key`, `sort-key`); it counts next to api/access/private/secret only, which the long words cover.
  return words.some((w) => w.length > 0 && SHORT_WORDS.has(w.toLowerCase()) && w.toLowerCase() !== 'key');
}
/** Names that end in a word that makes the value something else: `token_url`, `password_length`, `key_id`. */
const NOT_A_SECRET_NAME =
  /(?:_|-|\.|^)(?:url|uri|endpoint|path|file|dir|name|type|length|len|size|count|min|max|id|ids|expiry|expires|expires_at|ttl|timeout|hint|policy|field|prompt|label|mode|format|version|header|param|regex|pattern|rule|rules|hash|hashed|algorithm|algo|scope|scopes|issuer|audience|provider|store|storage|manager|class|method|required|enabled|disabled|reset|usage|limit|seconds|secs|ms|minutes|mins|hours|days|age|retries|attempts|rounds|cost|bits|chars|digits|words|strength|strategy|enc|encoding|kind|source|env|var|table|column)$|^(?:public|pub|publishable|csrf|xsrf|next|page|continuation|cursor)(?:[_.-]|$)|(?:Count|Length|Url|Uri|Name|Type|Id|Path|File|Hash|Ttl|Seconds|Policy|Field)$/;
const PASSWORD_NAME = /pass|pwd/i;

/** A run of name characters, then a separator: the candidates scanNamedValues looks at (each run tried once). */
const NAME_SEP = new RegExp(
  String.raw`${runStart('A-Za-z0-9_.-')}((?:[A-Za-z0-9_.-]|\\_){1,80})[*"'\x60\\]{0,4}[ \t]{0,5}(?:=>|:=|\?=|[:=])(?![:=])[ \t]{0,5}`,
  'g',
);
const QUOTES = new Set(['"', "'", '\x60']);
const BARE_CHAR = /[^\s"'\x60\\]/;
/** Quoted values end on their line, within this many characters. */
const MAX_QUOTED = 4096;
/** How much of a long value decides whether it looks like a secret: keeps a megabyte of `a=a=a=…` linear. */
const SAMPLE = 256;

/**
 * Finds where values end. A bare value is a run of non-space characters;
 * every position inside a run ends where the run ends, so the end found once
 * is reused, and no character is scanned twice however many candidates share a run.
 */
class ValueReader {
  private runFrom = -1;
  private runEnd = -1;
  constructor(private readonly text: string) {}

  at(start: number): [number, number] | null {
    const text = this.text;
    let i = start;
    if (text[i] === '\\' && text[i + 1] === '"') i++; // a JSON-escaped quote
    const q = text[i];
    if (q !== undefined && QUOTES.has(q)) {
      const limit = Math.min(text.length, i + 1 + MAX_QUOTED);
      let close = -1;
      for (let k = i + 1; k < limit; k++) {
        const c = text[k];
        if (c === q) {
          close = k;
          break;
        }
        if (c === '\n' || c === '\r') break;
      }
      if (close >= 0) {
        const end = text[close - 1] === '\\' ? close - 1 : close;
        return end > i + 1 ? [i + 1, end] : null;
      }
      // A quote that never closes (a text cut short, a line broken up): the value is the run after it.
      i++;
    }
    if (!(i >= this.runFrom && i < this.runEnd)) {
      let e = i;
      while (e < text.length && BARE_CHAR.test(text[e] as string)) e++;
      this.runFrom = i;
      this.runEnd = e;
    }
    let end = this.runEnd;
    // Trailing `;`, `,` or a closing bracket belong to the code around the value (`password: string;`).
    while (end > i && /[;,)\]}>*]/.test(text[end - 1] ?? '')) end--;
    return end > i ? [i, end] : null;
  }
}

/** Values that follow a secret's name (see acceptNamedValue), found in one linear pass. */
function scanNamedValues(text: string): Array<[number, number, string?]> {
  const out: Array<[number, number, string?]> = [];
  const values = new ValueReader(text);
  NAME_SEP.lastIndex = 0;
  for (let m = NAME_SEP.exec(text); m; m = NAME_SEP.exec(text)) {
    // A name as markdown escapes it (`db\_password`) is the name.
    const name = (m[1] ?? '').replace(/\\_/g, '_');
    if (!isSecretName(name) || NOT_A_SECRET_NAME.test(name)) continue;
    const range = values.at(m.index + m[0].length);
    if (!range) continue;
    const value = text.slice(range[0], Math.min(range[1], range[0] + SAMPLE));
    if (!acceptNamedValue(name, value, text, range[0])) continue;
    out.push([range[0], range[1], PASSWORD_NAME.test(name) ? 'password' : 'api-key']);
    // Whatever looked like a name inside the redacted value is redacted with it.
    NAME_SEP.lastIndex = Math.max(NAME_SEP.lastIndex, range[1]);
  }
  return out;
}

function acceptNamedValue(name: string, value: string, text: string, start: number): boolean {
  if (isPlaceholder(value) || isCodeReference(value) || !/[A-Za-z0-9]/.test(value)) return false;
  const quoted = /["'\x60]/.test(text[start - 1] ?? '');
  if (PASSWORD_NAME.test(name)) {
    if (quoted) return !isPathLike(value) && !/^\s|\s$/.test(value);
    // `self.password = password`: an unquoted name after a spaced `=` is a variable in
    // every language that allows that spacing; env files don't.
    if (/^[A-Za-z_$][\w$]*$/.test(value) && /[ \t]=[ \t]*$/.test(text.slice(Math.max(0, start - 8), start))) return false;
    // A short number after a password's name is a length or a count, not the password.
    if (/^\d{1,6}$/.test(value)) return false;
    return !isProse(value, text, start + value.length) && !isQuotedMessage(value, text, start) && !isPathLike(value);
  }
  return looksRandom(value);
}

const QUOTED = String.raw`"(?<s1>[^"\\\r\n]{1,512})"|'(?<s2>[^'\\\r\n]{1,512})'|\\"(?<s3>[^"\\\r\n]{1,512})\\"`;

function acceptFlagValue(value: string): boolean {
  return !isPlaceholder(value) && !value.startsWith('-') && !isPathLike(value) && !isCodeReference(value) && value.length >= 4;
}

const POSITION_RULES: readonly SecretRule[] = [
  anyCase(
    'aws-secret-key',
    // The name as markdown writes it too: `aws\_secret\_access\_key`, `**aws_secret_access_key** wJalr…`.
    String.raw`(?:secret(?:\\?[_.-])?access(?:\\?[_.-])?key|aws(?:\\?[_.-])?secret(?:(?:\\?[_.-])?key)?)(?:${SEP}|[*_\x60]{1,3}[ \t]{1,5})(?<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
    ['secret'],
  ),
  // A password written in prose: `using password Tr0ub4dor3xQ`, `the password is hunter2` (letters and digits, so not a word).
  anyCase(
    'password',
    String.raw`\b(?:password|passwd|passphrase)\b(?:[ \t]+(?:is|was|set to|=|:))?[ \t]+["'\x60]?(?!\[REDACTED)(?<s>[^\s"'\x60\\]{3,127}[^\s"'\x60\\.,;:!?)\]])`,
    ['pass'],
    (v) => /\d/.test(v) && /[A-Za-z]/.test(v) && !isPlaceholder(v) && !isPathLike(v) && !isCodeReference(v) && !/^v?\d+(?:\.\d+)*$/.test(v),
  ),
  // An AWS secret key written in prose: `the secret is wJalr…` (40 characters of its alphabet, not a hex hash).
  anyCase(
    'aws-secret-key',
    String.raw`\bsecret\b[^\n]{0,24}?(?<![A-Za-z0-9/+])(?<s>(?![0-9a-fA-F]{40}(?![A-Za-z0-9/+]))[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
    ['secret'],
    (v) => /[A-Z]/.test(v) && /[a-z]/.test(v) && /\d/.test(v) && looksRandom(v),
  ),
  // Command lines: `--password s3cret`, `--api-key=…`, `mysql -u root -ps3cret`, `sshpass -p s3cret`, `curl -u me:s3cret`.
  anyCase(
    'password',
    String.raw`(?:^|[\s"']|(?<=\\[nrt]))--?[A-Za-z0-9-]{0,20}(?:password|passwd|passphrase|pass|pwd)(?:[ \t]{1,3}|=)(?:${QUOTED}|(?<s5>[^\s"'\x60;|&)\\]{1,512}))`,
    ['pass', 'pwd'],
    acceptFlagValue,
  ),
  anyCase(
    'api-key',
    String.raw`(?:^|[\s"']|(?<=\\[nrt]))--?[A-Za-z0-9-]{0,20}(?:token|secret|api-?key|access-?key|private-?key|auth-?key|credentials?)(?:[ \t]{1,3}|=)(?:${QUOTED}|(?<s5>[^\s"'\x60;|&)\\]{1,512}))`,
    ['token', 'secret', 'key', 'credential'],
    (v) => acceptFlagValue(v) && looksRandom(v),
  ),
  anyCase(
    'password',
    String.raw`${W}(?:mysql|mysqldump|mysqladmin|mariadb|mariadb-dump)\b[^\n|;&]{0,200}?[ \t]-p(?<s>[^\s"'\x60;|&\\]{1,256})`,
    ['mysql', 'mariadb'],
    (v) => !isPlaceholder(v),
  ),
  anyCase('password', String.raw`${W}sshpass[ \t]+(?:-[a-zA-Z][ \t]+\S+[ \t]+)*-p[ \t]*(?:${QUOTED}|(?<s5>[^\s"'\x60;|&\\]{1,256}))`, [
    'sshpass',
  ]),
  // `curl … -u user:pass`: the flag must belong to that command (no `$(`, backtick or separator between).
  anyCase(
    'password',
    String.raw`(?:^|[\s;&|(]|(?<=\\[nrt]))(?:curl|wget|http)(?:[ \t][^\n|;&()$\x60]{0,300}?)?[ \t](?:-u|--user|--proxy-user)(?:[ \t]{1,3}|=)["']?[^\s:"']{1,100}:(?<s>[^\s"'\x60;|&@\\]{1,256})`,
    ['curl', 'wget', 'http'],
    (v) => !isPlaceholder(v),
  ),
  // Query strings: `?token=…&sig=…`.
  anyCase(
    'url-secret',
    String.raw`[?&](?:access_token|refresh_token|id_token|token|api_key|apikey|key|secret|client_secret|password|pwd|auth|signature|x-amz-signature|x-amz-credential|x-goog-signature)=(?<s>[^&\s#"'<>\x60]{8,1024})`,
    ['token=', 'key=', 'secret=', 'password=', 'pwd=', 'auth=', 'signature=', 'credential='],
    (v) => looksRandom(decodeURIComponentSafe(v)),
  ),
  // A value after a secret's name, in code, config, env files, YAML, JSON, headers.
  // (Its prerequisite is a separator; the names are checked per candidate, which is cheaper than 300 keywords.)
  { kind: 'password', scan: scanNamedValues, keywords: [':', '='] },
];

function decodeURIComponentSafe(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

export const SECRET_RULES: readonly SecretRule[] = [...PROVIDER_RULES, ...STRUCTURED_RULES, ...POSITION_RULES];

/** E-mail addresses: only redacted when the caller asks (see filterFinding). */
export const EMAIL_RULE: SecretRule = anyCase(
  'email',
  String.raw`${classRunStart('A-Za-z0-9._%+-')}(?<s>[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){1,8})`,
  ['@'],
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
