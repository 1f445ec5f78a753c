// A store to measure ranking on: entries of five roles, knowledge blocks,
// archived entries, 36 archive logs (some about the same subjects in
// passing), EPHEMERAL.md and docs/solutions, plus queries written the way a
// person or an agent would ask, each with the one document that should come
// first. Used by test/unit/search-ranking.test.ts and scripts/bench.ts
// (precision@1 in BENCHMARKS.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { renderEntry } from '../../src/core/entry/echo-document.ts';
import type { EchoEntry, Layer } from '../../src/core/entry/echo-entry.ts';

type E = [role: string, id: string, title: string, layer: Layer, tags: string, evidence: string, learning: string];

const ENTRIES: E[] = [
  [
    'planner',
    'express-prisma-stack',
    'Express and Prisma with async repositories',
    'etched',
    'stack,architecture',
    '`src/app.ts:1-30` — Express app, Prisma client in src/db',
    'The service is Express on Node 20 with Prisma; every repository method is async and returns plain objects.',
  ],
  [
    'planner',
    'ledger-writes-through-queue',
    'Ledger writes go through the queue',
    'etched',
    'ledger,queue',
    '`src/ledger/writer.ts:12-40` — all inserts enqueued',
    'All ledger writes are queued through BullMQ so balances are updated by one consumer; never insert ledger rows directly.',
  ],
  [
    'planner',
    'feature-flags-in-launchdarkly',
    'Feature flags live in LaunchDarkly',
    'inscribed',
    'flags',
    '`src/flags/client.ts:5` — LD client',
    'New features ship behind a LaunchDarkly flag; the flag key is the ticket id in kebab case.',
  ],
  [
    'planner',
    'monorepo-pnpm-workspaces',
    'Monorepo with pnpm workspaces',
    'etched',
    'tooling',
    '`pnpm-workspace.yaml:1-4` — packages/*',
    'The repository is a pnpm workspace: packages/api, packages/web, packages/shared. Run scripts with pnpm -F.',
  ],
  [
    'planner',
    'api-versioning-by-url',
    'API versioning in the URL path',
    'inscribed',
    'api',
    '`src/routes/index.ts:8` — /v2 prefix',
    'Breaking API changes get a new /vN prefix; old versions stay for two releases.',
  ],
  [
    'planner',
    'event-sourcing-for-orders',
    'Orders are event-sourced',
    'inscribed',
    'orders,events',
    '`src/orders/events.ts:1-60` — OrderPlaced, OrderShipped',
    'Order state is rebuilt from the order_events table; never update an order row in place.',
  ],
  [
    'workers',
    'pnpm-not-npm',
    'Use pnpm, not npm',
    'inscribed',
    'tooling',
    '`.claude/echoes/memories/archive-log-012.md` — user corrected npm install',
    'The project uses pnpm; npm install rewrites the lockfile. Run pnpm install and pnpm test.',
  ],
  [
    'workers',
    'integration-tests-need-test-db',
    'Integration tests need the test database',
    'inscribed',
    'tests,database',
    '`test/setup.ts:12-20` — connects to DATABASE_URL_TEST',
    'Integration tests need DATABASE_URL_TEST; start it with docker compose up db-test first.',
  ],
  [
    'workers',
    'jest-fake-timers-break-prisma',
    'Jest fake timers break the Prisma client',
    'inscribed',
    'tests,prisma',
    '`test/orders.spec.ts:3` — jest.useFakeTimers hangs',
    'With jest.useFakeTimers the Prisma client never resolves its queries; use modern timers only around the code under test.',
  ],
  [
    'workers',
    'prisma-generate-after-schema-change',
    'Run prisma generate after a schema change',
    'inscribed',
    'prisma,build',
    '`prisma/schema.prisma:1` — client out of date',
    'After editing schema.prisma run pnpm prisma generate, or the types of the client are stale and the build fails.',
  ],
  [
    'workers',
    'docker-build-cache-order',
    'Copy the lockfile before the source in Docker builds',
    'traced',
    'docker,ci',
    '`Dockerfile:4-9` — COPY . . before install',
    'Copying the whole tree before pnpm install defeats the Docker layer cache; copy package.json and the lockfile first.',
  ],
  [
    'workers',
    'env-loading-order',
    'dotenv must load before the config module',
    'inscribed',
    'config',
    '`src/config.ts:1-10` — reads process.env at import',
    'Import dotenv/config first in src/main.ts; the config module reads the environment when it is imported.',
  ],
  [
    'workers',
    'retry-backoff-jitter',
    'Payment retries use jittered exponential backoff',
    'inscribed',
    'payments,retry',
    '`src/payments/retry.ts:40-58` — capped at 3 attempts',
    'Payment retries are capped at 3 with full jitter backoff; raising the cap needs a metric for retry exhaustion.',
  ],
  [
    'workers',
    'bullmq-stalled-jobs',
    'Stalled BullMQ jobs after a deploy',
    'traced',
    'queue',
    '`src/queue/worker.ts:22` — no graceful shutdown',
    'Workers killed during a deploy leave stalled jobs; close the worker on SIGTERM so jobs are returned to the queue.',
  ],
  [
    'workers',
    'windows-line-endings-in-fixtures',
    'Fixtures with CRLF line endings break snapshot tests',
    'traced',
    'tests',
    '`test/fixtures/.gitattributes:1` — eol=lf missing',
    'Snapshot tests fail on Windows checkouts because fixtures get CRLF; keep eol=lf in test/fixtures/.gitattributes.',
  ],
  [
    'workers',
    'typescript-path-aliases',
    'Path aliases need tsconfig-paths at runtime',
    'inscribed',
    'typescript,build',
    '`tsconfig.json:12` — paths @/*',
    'The @/ import alias works in tsc but not in node; register tsconfig-paths or compile with tsc-alias.',
  ],
  [
    'reviewer',
    'unused-imports-in-new-files',
    'Unused imports in new files',
    'inscribed',
    'imports',
    '`src/auth.py:1-5` — 3 unused imports found',
    'Codebase tends to leave unused imports in newly created files; flag import hygiene in new files specifically.',
  ],
  [
    'reviewer',
    'n-plus-one-in-order-list',
    'N+1 queries in the order list endpoint',
    'inscribed',
    'performance,database',
    '`src/orders/list.ts:20-44` — one query per order',
    'Loops over orders issue one query per row; use include or a join to load line items in one query.',
  ],
  [
    'reviewer',
    'missing-index-customer-id',
    'Missing index on orders.customer_id',
    'inscribed',
    'database,performance',
    '`prisma/schema.prisma:88` — no @@index',
    'Queries filtering orders by customer scan the whole table; add @@index([customerId]).',
  ],
  [
    'reviewer',
    'sql-injection-in-report-builder',
    'String-built SQL in the report builder',
    'etched',
    'security,sql',
    '`src/reports/sql.ts:31` — template string with user input',
    'The report builder concatenates filter values into SQL; always use Prisma.sql tagged templates with parameters.',
  ],
  [
    'reviewer',
    'error-swallowed-in-catch',
    'Errors swallowed in empty catch blocks',
    'inscribed',
    'errors',
    '`src/http/client.ts:77` — catch {}',
    'Empty catch blocks hide failed HTTP calls; log with the request id or rethrow.',
  ],
  [
    'reviewer',
    'default-exports-break-refactors',
    'Default exports break automated renames',
    'traced',
    'imports,style',
    '`src/components/Button.tsx:1` — export default',
    'Prefer named exports: renaming a default export does not rename it at the call sites.',
  ],
  [
    'reviewer',
    'magic-numbers-in-timeouts',
    'Magic numbers in timeouts',
    'traced',
    'style',
    '`src/http/client.ts:12` — 30000 inline',
    'Timeouts are inline numbers; name them (HTTP_TIMEOUT_MS) in src/constants.ts.',
  ],
  [
    'reviewer',
    'barrel-files-import-cycles',
    'Barrel files create import cycles',
    'inscribed',
    'imports',
    '`src/index.ts:1-40` — export * from everywhere',
    'Re-exporting everything through index.ts makes modules import themselves; import from the module file directly.',
  ],
  [
    'reviewer',
    'date-handling-timezone',
    'Dates parsed without a time zone',
    'inscribed',
    'dates',
    '`src/billing/period.ts:14` — new Date(string)',
    'Billing periods are parsed as local time; use date-fns-tz with the account time zone.',
  ],
  [
    'auditor',
    'jwt-secret-from-env',
    'JWT secret must come from the environment',
    'etched',
    'security,auth',
    '`src/auth/jwt.ts:8` — reads JWT_SECRET',
    'Never hard-code the JWT signing secret; it is read from JWT_SECRET and rotated monthly.',
  ],
  [
    'auditor',
    'cors-wildcard-in-prod',
    'CORS wildcard allowed in production',
    'inscribed',
    'security,http',
    '`src/http/cors.ts:5` — origin: *',
    'The API allowed any origin with credentials; restrict origins to the web app domain list.',
  ],
  [
    'auditor',
    'session-cookie-samesite',
    'Session cookie without SameSite',
    'inscribed',
    'security,cookies',
    '`src/http/cookies.ts:10` — sameSite unset',
    'Session cookies were sent on cross-site requests; set SameSite=Lax and Secure.',
  ],
  [
    'auditor',
    'password-reset-token-expiry',
    'Password reset tokens never expire',
    'inscribed',
    'security,auth',
    '`src/auth/reset.ts:22` — no createdAt check',
    'Reset tokens had no creation time; they now expire after 30 minutes and are single use.',
  ],
  [
    'auditor',
    'dependency-audit-in-ci',
    'Dependency audit runs in CI',
    'traced',
    'security,ci',
    '`.github/workflows/ci.yml:40` — pnpm audit',
    'pnpm audit --prod runs in CI and fails on high severity advisories.',
  ],
  [
    'auditor',
    'rate-limit-login',
    'Login endpoint needs a rate limit',
    'inscribed',
    'security,auth',
    '`src/routes/login.ts:3` — no limiter',
    'Brute force on /login was possible; a per-IP and per-account rate limit is now required.',
  ],
  [
    'team',
    'commit-message-format',
    'Conventional commit messages',
    'etched',
    'workflow',
    '`.commitlintrc:1` — conventional config',
    'Commit messages follow Conventional Commits (feat:, fix:, chore:); commitlint checks them in a hook.',
  ],
  [
    'team',
    'pr-needs-two-reviews',
    'Pull requests need two approvals',
    'inscribed',
    'workflow',
    '`.github/CODEOWNERS:1` — two owners',
    'Every pull request needs two approvals, one from a code owner of the touched package.',
  ],
  [
    'team',
    'no-friday-deploys',
    'No production deploys on Friday afternoon',
    'inscribed',
    'deploy',
    'team decision 2026-01-10 — after an outage',
    'Production deploys stop at Friday 12:00; hotfixes need the on-call lead.',
  ],
  [
    'team',
    'logging-with-pino',
    'Structured logging with pino',
    'inscribed',
    'logging',
    '`src/log.ts:1-20` — pino with redaction',
    'Log with the shared pino logger and its redaction paths; console.log is rejected by lint.',
  ],
  [
    'team',
    'graphql-deprecated',
    'The GraphQL gateway is deprecated',
    'traced',
    'api',
    '`packages/gateway/README.md:1` — deprecated notice',
    'Do not add resolvers to the GraphQL gateway; new endpoints are REST under /v2.',
  ],
];

const KNOWLEDGE: Record<string, string> = {
  workers: [
    '<!-- knowledge blocks: 9 entries compressed on 2026-03-01 -->',
    '',
    '**flaky tests** — 3 entries, 2026-01-10…2026-02-20',
    '- Clock-dependent retry test: the retry spec sleeps for real time and fails on a busy runner. [`test/payments/retry.spec.ts:10-30`] (0.70)',
    '- Shared integration database: parallel workers see each other rows and fail on unique constraints. [`test/setup/db.ts:1-15`] (0.65)',
    '- Snapshot churn: large snapshots get updated wholesale and nobody reads the diff. [`test/ui/__snapshots__/cart.snap`] (0.60)',
    '',
    '**webpack** — 2 entries, 2026-01-05…2026-01-20',
    '- Source maps in production builds: devtool was eval-source-map in the production config, tripling bundle size. [`webpack.prod.js:12`] (0.80)',
    '- Moment locales bloat: moment pulls every locale; the IgnorePlugin keeps only en and de. [`webpack.common.js:40`] (0.75)',
    '',
  ].join('\n'),
  reviewer: [
    '<!-- knowledge blocks: 4 entries compressed on 2026-03-01 -->',
    '',
    '**accessibility** — 2 entries, 2026-02-01…2026-02-11',
    '- Buttons without labels: icon-only buttons lack aria-label, screen readers say "button". [`src/components/IconButton.tsx:5`] (0.80)',
    '- Focus lost after modal close: focus is not returned to the trigger element. [`src/components/Modal.tsx:60-80`] (0.70)',
    '',
  ].join('\n'),
};

/** Archived (pruned or forgotten) entries: old lessons that still answer a query about them. */
const ARCHIVED: E[] = [
  [
    'workers',
    'redis-session-store',
    'Sessions stored in Redis',
    'traced',
    'sessions',
    '`src/session/store.ts:8` — ioredis',
    'Sessions used to live in Redis with a 24 h TTL; moved to Postgres in 7f3e2aa.',
  ],
  [
    'reviewer',
    'lodash-full-import',
    'Full lodash import in the web bundle',
    'traced',
    'bundle',
    '`packages/web/src/util.ts:1` — import _ from lodash',
    'Importing all of lodash added 70 KB; import per method (lodash/debounce).',
  ],
];

const SOLUTIONS: Array<{
  path: string;
  title: string;
  category: string;
  tags: string[];
  symptom: string;
  rootCause: string;
  summary: string;
  body: string;
}> = [
  {
    path: 'build-errors/cannot-find-module-prisma-client.md',
    title: 'Cannot find module @prisma/client after install',
    category: 'build-errors',
    tags: ['prisma', 'build'],
    symptom: 'The build fails with "Cannot find module \'@prisma/client\'" on a fresh clone.',
    rootCause: 'prisma generate never ran: the generated client is not committed.',
    summary: 'Run prisma generate in the postinstall script.',
    body: 'Add "postinstall": "prisma generate" to packages/api/package.json.',
  },
  {
    path: 'test-failures/jest-open-handles.md',
    title: 'Jest does not exit: open handles after the test run',
    category: 'test-failures',
    tags: ['jest', 'tests'],
    symptom: 'Jest prints "Jest did not exit one second after the test run has completed".',
    rootCause: 'The BullMQ queue connection and the Prisma client stay open after the tests.',
    summary: 'Close the queue and disconnect Prisma in a global afterAll.',
    body: 'See test/setup/teardown.ts for the global teardown.',
  },
  {
    path: 'performance/slow-order-list.md',
    title: 'Order list endpoint takes five seconds',
    category: 'performance',
    tags: ['performance', 'database'],
    symptom: 'GET /v2/orders takes 5 s for customers with many orders.',
    rootCause: 'N+1 queries for line items and a missing index on customer_id.',
    summary: 'Load line items with include and add the customer_id index.',
    body: 'Measured 5.1 s → 180 ms on the staging copy.',
  },
  {
    path: 'configuration/env-not-loaded-in-worker.md',
    title: 'Environment variables undefined in the queue worker',
    category: 'configuration',
    tags: ['config', 'queue'],
    symptom: 'The worker process crashes with "REDIS_URL is undefined".',
    rootCause: 'The worker entry point imports the config module before dotenv is loaded.',
    summary: 'Import dotenv/config first in src/worker.ts as in src/main.ts.',
    body: 'Same fix as the API entry point.',
  },
];

/** A log a session wrote: what was asked, done and touched. */
const LOGS: Array<[asked: string, done: string, files: string]> = [
  [
    'Upgrade Prisma to 6 and fix the generated types',
    'Ran prisma generate; updated three repositories for the new types.',
    'prisma/schema.prisma, src/orders/repo.ts',
  ],
  [
    'Investigate the flaky checkout e2e test',
    'The test waited on a fixed timeout; replaced with waitFor on the order total.',
    'e2e/checkout.spec.ts',
  ],
  [
    'Add the refund endpoint',
    'POST /v2/refunds validates the amount against the captured payment.',
    'src/routes/refunds.ts, src/payments/refund.ts',
  ],
  [
    'Speed up the CI pipeline',
    'Split tests into four shards and cached the pnpm store; CI went from 14 to 6 minutes.',
    '.github/workflows/ci.yml',
  ],
  ['Fix the timezone bug in invoices', 'Invoice dates now use the account time zone via date-fns-tz.', 'src/billing/period.ts'],
  [
    'Rotate the Stripe webhook secret',
    'New secret stored in the vault; webhook handler reads STRIPE_WEBHOOK_SECRET.',
    'src/payments/webhook.ts',
  ],
  [
    'Migrate the search page to the new design system',
    'Replaced legacy grid with the Stack component; kept the URL params.',
    'packages/web/src/pages/search.tsx',
  ],
  [
    'Debug memory growth in the export worker',
    'The CSV export kept every row in memory; now streams rows to S3 with a pipeline.',
    'src/export/csv.ts',
  ],
  ['Add pagination to the audit log API', 'Cursor pagination by created_at and id; page size capped at 200.', 'src/routes/audit.ts'],
  [
    'Write the ADR for moving sessions to Postgres',
    'Decided to drop Redis sessions; Postgres table with a TTL job.',
    'docs/adr/0007-sessions.md',
  ],
  [
    'Fix the broken password reset email link',
    'The link used the API host instead of the web host; now built from WEB_ORIGIN.',
    'src/auth/reset.ts',
  ],
  ['Add Sentry tracing to the API', 'Tracing sample rate 0.1 in production; spans around Prisma queries.', 'src/observability/sentry.ts'],
  [
    'Clean up the feature flag for the new checkout',
    'Removed the flag checkout-v2 and its dead branch after 100% rollout.',
    'src/checkout/index.ts',
  ],
  [
    'Reproduce the duplicate ledger entries',
    'Two consumers processed the same job after a stalled job was retried; made the consumer idempotent by job id.',
    'src/ledger/consumer.ts',
  ],
  ['Update Node to 22 in the Dockerfile', 'Base image node:22-alpine; rebuilt native modules.', 'Dockerfile'],
  [
    'Translate the onboarding emails to German',
    'Added de templates; the locale comes from the user profile.',
    'src/emails/onboarding/de.mjml',
  ],
  [
    'Investigate slow cold starts of the API container',
    'Most time was spent loading every locale of moment; switched to date-fns.',
    'src/dates.ts',
  ],
  [
    'Add a health check endpoint for the load balancer',
    'GET /healthz checks the database and Redis within 200 ms.',
    'src/routes/health.ts',
  ],
  ['Refactor the report builder', 'Split SQL building from formatting; parameters via Prisma.sql.', 'src/reports/sql.ts'],
  ['Set up Renovate for dependency updates', 'Weekly schedule, grouped minor updates, automerge for dev dependencies.', 'renovate.json'],
  ['Fix the CSV import for large files', 'Parse with a stream and validate rows in batches of 500.', 'src/import/csv.ts'],
  [
    'Add the Korean translation of the dashboard',
    '대시보드 번역을 추가했습니다; locale ko with 결제 and 주문 labels.',
    'packages/web/src/i18n/ko.json',
  ],
  [
    'Investigate 502 errors behind the load balancer',
    'Keep-alive timeout of Node was lower than the load balancer idle timeout; raised to 65 s.',
    'src/server.ts',
  ],
  [
    'Write tests for the retry policy',
    'Property tests for the backoff delays; asserts the cap of 3 attempts.',
    'test/payments/retry.spec.ts',
  ],
  ['Document the release process', 'Release branches cut on Tuesday; tags trigger the deploy workflow.', 'docs/release.md'],
  ['Fix the dark mode colours of charts', 'Chart palette now reads CSS variables.', 'packages/web/src/charts/palette.ts'],
  ['Remove the GraphQL gateway from the deploy', 'Gateway no longer deployed; clients moved to REST v2.', 'deploy/gateway.yaml'],
  ['Bump TypeScript to 5.6', 'Fixed new strictness errors in two generics.', 'tsconfig.json'],
  ['Add an index for the audit log query', 'Composite index on (account_id, created_at).', 'prisma/schema.prisma'],
  [
    'Triage the Sentry alert about unhandled promise rejections',
    'Missing await in the webhook handler; added the await and a lint rule no-floating-promises.',
    'src/payments/webhook.ts',
  ],
  [
    'Pair on the onboarding wizard state machine',
    'Modelled the wizard with XState; steps persist in local storage.',
    'packages/web/src/onboarding/machine.ts',
  ],
  ['Tune the Postgres connection pool', 'Pool size 20 per instance; PgBouncer in transaction mode.', 'src/db/client.ts'],
  [
    'Investigate the memory leak in the websocket server',
    'Listeners were never removed on disconnect; now cleaned in the close handler.',
    'src/ws/server.ts',
  ],
  ['Set up the staging seed script', 'Seeds 50 accounts with orders and refunds; runs with pnpm seed.', 'scripts/seed.ts'],
  [
    'Fix the unicode search of customer names',
    'Names are normalised to NFC before comparison; José and Jose both match.',
    'src/customers/search.ts',
  ],
  ['Make the export filename safe', 'Filenames strip path separators and control characters.', 'src/export/filename.ts'],
];

const EPHEMERAL = [
  '# Last session — 2026-04-20 09:10 → 10:45 (session 9f1c…, branch feat/invoice-pdf)',
  '## Asked',
  '- Generate invoice PDFs with the new template',
  '## Done and decided',
  '- PDFs rendered with Playwright from the HTML invoice; fonts embedded.',
  '## Files',
  '- edited: src/invoices/pdf.ts · read: src/invoices/template.html',
  '## Open',
  '- [ ] Add page numbers to multi-page invoices',
  '',
].join('\n');

/** Query → the document that must rank first: `path#id` for entries, the path for other files. */
export const RANKING_QUERIES: Array<[query: string, expected: string]> = [
  ['which web framework and ORM do we use', 'planner/MEMORY.md#express-prisma-stack'],
  ['how are ledger balances written', 'planner/MEMORY.md#ledger-writes-through-queue'],
  ['launchdarkly flag naming', 'planner/MEMORY.md#feature-flags-in-launchdarkly'],
  ['pnpm workspace packages', 'planner/MEMORY.md#monorepo-pnpm-workspaces'],
  ['breaking change new api version', 'planner/MEMORY.md#api-versioning-by-url'],
  ['order events table rebuild state', 'planner/MEMORY.md#event-sourcing-for-orders'],
  ['npm install rewrote the lockfile', 'workers/MEMORY.md#pnpm-not-npm'],
  ['DATABASE_URL_TEST docker compose', 'workers/MEMORY.md#integration-tests-need-test-db'],
  ['fake timers hang prisma', 'workers/MEMORY.md#jest-fake-timers-break-prisma'],
  ['stale prisma client types after schema edit', 'workers/MEMORY.md#prisma-generate-after-schema-change'],
  ['docker layer cache lockfile', 'workers/MEMORY.md#docker-build-cache-order'],
  ['dotenv import order config', 'workers/MEMORY.md#env-loading-order'],
  ['payment retry backoff cap', 'workers/MEMORY.md#retry-backoff-jitter'],
  ['stalled jobs after deploy SIGTERM', 'workers/MEMORY.md#bullmq-stalled-jobs'],
  ['CRLF fixtures snapshot windows', 'workers/MEMORY.md#windows-line-endings-in-fixtures'],
  ['@/ alias fails in node', 'workers/MEMORY.md#typescript-path-aliases'],
  ['unused imports', 'reviewer/MEMORY.md#unused-imports-in-new-files'],
  ['N+1 query per order', 'reviewer/MEMORY.md#n-plus-one-in-order-list'],
  ['customerId index missing', 'reviewer/MEMORY.md#missing-index-customer-id'],
  ['sql injection report', 'reviewer/MEMORY.md#sql-injection-in-report-builder'],
  ['empty catch swallows errors', 'reviewer/MEMORY.md#error-swallowed-in-catch'],
  ['export default rename', 'reviewer/MEMORY.md#default-exports-break-refactors'],
  ['HTTP_TIMEOUT_MS constant', 'reviewer/MEMORY.md#magic-numbers-in-timeouts'],
  ['index.ts re-export cycle', 'reviewer/MEMORY.md#barrel-files-import-cycles'],
  ['billing period local time zone', 'reviewer/MEMORY.md#date-handling-timezone'],
  ['JWT_SECRET hard-coded', 'auditor/MEMORY.md#jwt-secret-from-env'],
  ['cors origin wildcard credentials', 'auditor/MEMORY.md#cors-wildcard-in-prod'],
  ['SameSite cookie cross-site', 'auditor/MEMORY.md#session-cookie-samesite'],
  ['reset token expiry', 'auditor/MEMORY.md#password-reset-token-expiry'],
  ['pnpm audit high severity', 'auditor/MEMORY.md#dependency-audit-in-ci'],
  ['brute force login rate limit', 'auditor/MEMORY.md#rate-limit-login'],
  ['conventional commits commitlint', 'team/MEMORY.md#commit-message-format'],
  ['how many approvals does a pull request need', 'team/MEMORY.md#pr-needs-two-reviews'],
  ['deploy on friday', 'team/MEMORY.md#no-friday-deploys'],
  ['console.log pino redaction', 'team/MEMORY.md#logging-with-pino'],
  ['add a graphql resolver', 'team/MEMORY.md#graphql-deprecated'],
  ['flaky retry spec busy runner', 'workers/knowledge.md › flaky tests'],
  ['moment locales bundle size webpack', 'workers/knowledge.md › webpack'],
  ['aria-label icon buttons screen readers', 'reviewer/knowledge.md › accessibility'],
  ['redis sessions ttl', 'workers/archive/pruned.md#redis-session-store'],
  ['lodash bundle size', 'reviewer/archive/pruned.md#lodash-full-import'],
  ["Cannot find module '@prisma/client'", 'docs/solutions/build-errors/cannot-find-module-prisma-client.md'],
  ['jest did not exit open handles', 'docs/solutions/test-failures/jest-open-handles.md'],
  ['REDIS_URL is undefined in worker', 'docs/solutions/configuration/env-not-loaded-in-worker.md'],
  ['memory growth csv export streaming', 'memories/archive-log-008.md'],
  ['502 keep-alive timeout load balancer', 'memories/archive-log-023.md'],
  ['websocket listeners leak on disconnect', 'memories/archive-log-033.md'],
  ['duplicate ledger entries idempotent consumer', 'memories/archive-log-014.md'],
  ['invoice pdf page numbers', 'EPHEMERAL.md'],
  ['대시보드 번역', 'memories/archive-log-022.md'],
  ['José customer name search', 'memories/archive-log-035.md'],
];

function entry(e: E, date: string): EchoEntry {
  const [, id, title, layer, tags, evidence, learning] = e;
  return {
    id,
    idExplicit: true,
    date,
    kind: 'Pattern',
    title,
    layer,
    source: 'fixture',
    confidence: layer === 'etched' ? 0.95 : 0.8,
    evidence,
    verified: date,
    supersedes: 'none',
    tags: tags.split(','),
    learning,
    extra: [],
  };
}

function write(root: string, rel: string, text: string): void {
  mkdirSync(dirname(join(root, rel)), { recursive: true });
  writeFileSync(join(root, rel), text);
}

/** Writes the fixture store into `project` (a fresh folder). */
export function writeSearchFixture(project: string): void {
  const echoes = '.claude/echoes';
  const roles = [...new Set(ENTRIES.map((e) => e[0]))];
  for (const role of roles) {
    const entries = ENTRIES.filter((e) => e[0] === role).map((e, i) => entry(e, `2026-0${1 + (i % 4)}-1${i % 10}`));
    const title = `${role[0]!.toUpperCase()}${role.slice(1)} Memory`;
    write(
      project,
      `${echoes}/${role}/MEMORY.md`,
      `<!-- echo-schema: v2 -->\n# ${title}\n\n${entries.map((x) => renderEntry(x)).join('\n')}`,
    );
  }
  for (const [role, text] of Object.entries(KNOWLEDGE)) write(project, `${echoes}/${role}/knowledge.md`, text);
  for (const role of new Set(ARCHIVED.map((e) => e[0]))) {
    const entries = ARCHIVED.filter((e) => e[0] === role).map((e) => entry(e, '2025-11-02'));
    write(
      project,
      `${echoes}/${role}/archive/pruned.md`,
      `<!-- echo-schema: v2 -->\n# Archived\n\n${entries.map((x) => renderEntry(x)).join('\n')}`,
    );
  }
  LOGS.forEach(([asked, done, files], i) => {
    const n = String(i + 1).padStart(3, '0');
    const day = `2026-0${1 + (i % 4)}-${String(10 + (i % 18)).padStart(2, '0')}`;
    write(
      project,
      `${echoes}/memories/archive-log-${n}.md`,
      `# Archive log ${n}\n- session: s${i + 1}\n- trigger: session-end\n- span: ${day}T09:00:00Z → ${day}T10:00:00Z\n\n## Asked\n- ${asked}\n## Done and decided\n- ${done}\n## Files\n- edited: ${files}\n`,
    );
  });
  write(project, `${echoes}/EPHEMERAL.md`, EPHEMERAL);
  for (const s of SOLUTIONS) {
    const front = [
      '---',
      `title: ${JSON.stringify(s.title)}`,
      `category: ${s.category}`,
      `tags: [${s.tags.join(', ')}]`,
      'date: 2026-03-01',
      `symptom: ${JSON.stringify(s.symptom)}`,
      `root_cause: ${JSON.stringify(s.rootCause)}`,
      `solution_summary: ${JSON.stringify(s.summary)}`,
      'confidence: high',
      'verified_by: human',
      '---',
      '',
    ].join('\n');
    write(project, `docs/solutions/${s.path}`, `${front}\n# ${s.title}\n\n${s.body}\n`);
  }
}

/** The key of a hit in RANKING_QUERIES' terms: `role/file#id` for entries, `role/file › title` for paragraphs, else the path. */
export function hitKey(hit: { path: string; id?: string; source: string; title: string }): string {
  const rel = hit.path.replace(/^\.claude\/echoes\//, '');
  if (hit.id) return `${rel}#${hit.id}`;
  if (hit.source === 'knowledge' || hit.source === 'topic') return `${rel} › ${hit.title}`;
  return rel;
}
