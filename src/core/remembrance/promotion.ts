// Promotion of an etched entry to a Remembrance document (SPEC §11, seed 000's
// promotion flow). Pure: the rules are checked in the seed's order and the
// first that fails is reported with what to do; a pass gives the document.

import type { EchoEntry } from '../entry/echo-entry.ts';
import { slugifyTitle } from '../entry/entry-ids.ts';
import { renderSolutionDoc, type SolutionCategory, type SolutionDoc, type SolutionFrontmatter } from './solution-doc.ts';

export type PromotionRule = 'not-etched' | 'no-problem-solution' | 'not-validated' | 'not-actionable' | 'needs-human' | 'duplicate';

export interface PromotionInput {
  entry: EchoEntry;
  role: string;
  category: SolutionCategory;
  /** Values given on the command line, used where the entry has none. */
  given: { symptom?: string; rootCause?: string; solution?: string };
  /** 'human' only when the user said so in so many words. */
  verifiedBy: 'human' | 'agent';
  /** Distinct sessions whose usage events say they used the entry. */
  referencedSessions: number;
  /** The solution documents already there, with their paths. */
  existing: Array<{ path: string; doc: SolutionDoc }>;
  echoRef: string;
  today: string;
}

export type PromotionResult =
  | { ok: true; slug: string; frontmatter: SolutionFrontmatter; text: string }
  | { ok: false; rule: PromotionRule; message: string; existing?: string };

/** Validated (SPEC §11): confidence of at least this, or use by this many sessions. */
export const VALIDATED_CONFIDENCE = 0.9;
export const VALIDATED_SESSIONS = 2;

/** Words that mark a lesson about the agent's own workings rather than the project (seed: "not agent-internal optimization"). */
const AGENT_INTERNAL_TAGS = new Set(['agent-internal', 'prompt', 'prompting', 'context-window', 'token-budget', 'subagent']);
const AGENT_INTERNAL_TEXT = /\b(?:context window|token budget|system prompt|the (?:model|agent) should|subagents?|tool calls?)\b/i;
/** Something a person can act on: a file, a command, a config key, code. */
const CONCRETE =
  /`[^`]+`|\b[\w./-]+\.(?:[a-z]{1,5})\b|\b(?:run|add|set|use|remove|install|upgrade|configure|import|call|pass|enable|disable|rename|move|pin|restart)\b/i;

/**
 * Verbs of a step a person takes on a project, in the form an instruction starts
 * with ("Redact the Authorization header in the logger"). Vague ones (be, try,
 * consider, remember) are not here: "Be more careful next time" is no step.
 */
const STEP_VERBS = new Set(
  (
    'add allow allowlist annotate apply archive assert audit avoid back backport batch block bump cache call cancel cap ' +
    'catch change check chmod clean clear clone close commit compress configure convert copy create debounce declare ' +
    'decode decrypt delete deny deploy deprecate detach disable document downgrade drain drop dump encode encrypt ' +
    'enable enforce escape exclude expire export extract fetch filter fix flush force format forward freeze generate ' +
    'grant guard handle hash hide ignore import include increase index inject install invalidate isolate keep kill ' +
    'label limit lint list load lock log lower mark mask merge migrate mock mount move mute normalize normalise ' +
    'omit open override parse pass patch pin poll prefix prune publish pull purge push put quote raise rate-limit ' +
    'read rebase rebuild redact reduce refactor refresh regenerate reject release reload remove rename render reorder ' +
    'replace require reset resize restart restore restrict retry return reuse revert review revoke rollback rotate ' +
    'run sanitize sanitise scope seed send serialize set shorten skip sort split squash start stop store strip stub ' +
    'submit swap switch sync tag test throttle throw time-out timeout trim truncate turn unlock unmount unpin unset ' +
    'update upgrade upload use validate verify wait wrap write'
  ).split(' '),
);
/** Words an instruction may open with before its verb: "Always redact…", "Never log…", "Do not…", "First run…". */
const STEP_LEAD = /^(?:(?:always|never|first|then|also|please|do not|don't|make sure to|be sure to|remember to)\s+)+/i;

/** An instruction a person can follow: some sentence of it opens with a step verb and says what to act on. */
function namesAStep(text: string): boolean {
  return text
    .split(/[.;!?\n]+|\s+(?:and then|then)\s+/i)
    .map((part) => part.replace(/^[\s>*+\-\d.)(]+/, '').replace(STEP_LEAD, ''))
    .some((part) => {
      const words = part.match(/[\p{L}\p{N}'_-]+/gu) ?? [];
      return words.length >= 2 && STEP_VERBS.has(words[0]!.toLowerCase());
    });
}

function refuse(rule: PromotionRule, message: string, existing?: string): PromotionResult {
  return { ok: false, rule, message, ...(existing ? { existing } : {}) };
}

export function planPromotion(input: PromotionInput): PromotionResult {
  const { entry: e } = input;
  if (e.layer !== 'etched') {
    return refuse(
      'not-etched',
      `only etched entries are promoted; ${e.id} is ${e.layer} (etch it first with rune-echoes remember … --layer etched, if the user wants it permanent)`,
    );
  }
  const symptom = (e.symptom ?? input.given.symptom ?? '').trim();
  const rootCause = (e.rootCause ?? input.given.rootCause ?? '').trim();
  const solution = (e.solution ?? input.given.solution ?? '').trim();
  const missing = [!symptom && 'symptom', !rootCause && 'root cause', !solution && 'solution'].filter(Boolean);
  if (missing.length > 0) {
    return refuse(
      'no-problem-solution',
      `no problem-solution pair: ${e.id} has no ${missing.join(', ')} (give ${missing.map((m) => `--${String(m).replace(' ', '-')}`).join(', ')})`,
    );
  }
  if (!(e.confidence >= VALIDATED_CONFIDENCE) && input.referencedSessions < VALIDATED_SESSIONS) {
    return refuse(
      'not-validated',
      `not validated: confidence ${e.confidence} is below ${VALIDATED_CONFIDENCE} and ${input.referencedSessions} session(s) used it (needs ${VALIDATED_SESSIONS})`,
    );
  }
  const internal = e.tags.some((t) => AGENT_INTERNAL_TAGS.has(t.toLowerCase())) || AGENT_INTERNAL_TEXT.test(`${e.title} ${solution}`);
  if (internal || !(CONCRETE.test(solution) || namesAStep(solution))) {
    return refuse(
      'not-actionable',
      internal
        ? `not actionable for people: ${e.id} is about the agent's own workings (tags or wording), not the project`
        : `not actionable for people: the solution names no file, command or step a person can take ("${solution.slice(0, 60)}")`,
    );
  }
  if (input.category === 'security' && input.verifiedBy !== 'human') {
    return refuse(
      'needs-human',
      'the security category needs --verified-by human: ask the user whether they checked this solution themselves; an agent never sets it',
    );
  }
  const title = e.title.replace(/\s+/g, ' ').trim();
  const dup = findDuplicate({ title, rootCause, tags: e.tags, id: e.id, role: input.role }, input.existing);
  if (dup) return refuse('duplicate', `duplicate of ${dup.path} (${dup.why})`, dup.path);

  const frontmatter: SolutionFrontmatter = {
    title,
    category: input.category,
    tags: [...e.tags],
    date: input.today,
    symptom,
    root_cause: rootCause,
    solution_summary: solution,
    echo_ref: input.echoRef,
    confidence: e.confidence >= VALIDATED_CONFIDENCE ? 'high' : 'medium',
    verified_by: input.verifiedBy,
  };
  const body = [
    `# ${title}`,
    '',
    '## Symptom',
    '',
    symptom,
    '',
    '## Root cause',
    '',
    rootCause,
    '',
    '## Solution',
    '',
    solution,
    ...(e.learning.trim() ? ['', '## Background', '', e.learning.trim()] : []),
    ...(e.evidence.trim() ? ['', '## Evidence', '', e.evidence.trim()] : []),
  ].join('\n');
  return { ok: true, slug: slugifyTitle(title), frontmatter, text: renderSolutionDoc(frontmatter, body) };
}

/** Seed rule: same title, a similar root cause, or three or more shared tags; also the same entry promoted before. */
export function findDuplicate(
  c: { title: string; rootCause: string; tags: string[]; id: string; role: string },
  existing: PromotionInput['existing'],
): { path: string; why: string } | null {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  const words = (s: string) => new Set(s.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []);
  const cause = words(c.rootCause);
  const tags = new Set(c.tags.map(norm));
  for (const { path, doc } of existing) {
    if (doc.echoRef.includes(`/${c.role}/MEMORY.md#${c.id}@`)) return { path, why: 'the same entry was promoted before' };
    if (norm(doc.title) === norm(c.title)) return { path, why: 'same title' };
    const other = words(doc.rootCause);
    if (cause.size > 0 && other.size > 0) {
      let shared = 0;
      for (const t of cause) if (other.has(t)) shared++;
      if (shared / (cause.size + other.size - shared) >= 0.6) return { path, why: 'similar root cause' };
    }
    const sharedTags = doc.tags.filter((t) => tags.has(norm(t)));
    if (sharedTags.length >= 3) return { path, why: `shares the tags ${sharedTags.join(', ')}` };
  }
  return null;
}
