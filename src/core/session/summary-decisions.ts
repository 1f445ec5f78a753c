// Deterministic heuristics that pick "what was done and decided" out of
// assistant prose. No model call: cue phrases, sentence position and a few
// shapes (plans, commit messages, wrap-up lists) are scored, and the best few
// are kept. Scores are small integers so ties resolve by position, stably.

import { clip, oneLine } from '../text.ts';
import { plainMarkdown, splitSentences, stripCodeFences } from './summary-text.ts';

export const DECISION_MAX_CHARS = 220;

interface Cue {
  re: RegExp;
  weight: number;
}

const CUES: Cue[] = [
  { re: /\broot[- ]cause\b/i, weight: 4 },
  { re: /\bthe (?:real |actual |underlying )?(?:issue|problem|bug|culprit|cause) (?:is|was|here is)\b/i, weight: 4 },
  { re: /\b(?:that|this)(?:'s| is| was) (?:the|a) (?:real )?(?:bug|problem|issue|cause)\b/i, weight: 4 },
  { re: /\bthe issue is clear\b/i, weight: 3 },
  { re: /\bcaused by\b|\bturns out\b|\bthe fix (?:is|was)\b/i, weight: 3 },
  { re: /\bfalse positive\b|\bworkaround\b|\b(?:a|the) regression\b|\bregressed\b/i, weight: 3 },
  { re: /\b(?:decided|decision|we agreed|going with|opted|chose)\b/i, weight: 3 },
  { re: /\binstead of\b|\brather than\b|\binstead\b/i, weight: 2 },
  { re: /\b(?:fixed|resolved)\b/i, weight: 2 },
  { re: /\bbecause\b|\bsince the\b|\bso that\b/i, weight: 1 },
  { re: /\bshould(?: not|n't)? (?:be|use|have|go)\b|\bmust\b|\bnever\b|\balways\b/i, weight: 1 },
  { re: /^(?:I'll|I will|We'll|I'm going to)\b/i, weight: 1 },
  { re: /^(?:done|all done)\b/i, weight: 2 },
  { re: /\b(?:is|are|was|were) (?:now )?(?:done|complete|fixed|resolved|unblocked)\b|\bpre-existing\b/i, weight: 1 },
];

const PENALTIES: Cue[] = [
  { re: /^(?:now,? |next,? |first,? |then,? |ok(?:ay)?,? |good,? )?(?:let me|let's|let us)\b/i, weight: -5 },
  { re: /^(?:now|next|first|then)\b/i, weight: -1 },
  { re: /:$/, weight: -2 },
  { re: /\?$/, weight: -2 },
  { re: /^(?:I need to|I have to|I should check|I see\b)/i, weight: -1 },
  { re: /[,;—-]\s*(?:so )?let me\b/i, weight: -3 },
];

const FILLER = /^(?:perfect|great|excellent|good|nice|awesome|ok|okay|done|all done|all set|got it|sure|alright)[!.,]*$/i;

// Openers that narrate the assistant's own state, not the work.
const NARRATION =
  /^(?:(?:now|ok(?:ay)?|good|great|perfect),? )?(?:let me|let's|i now have|now i have|i have (?:all|a (?:complete|clear|good|full|thorough)))\b/i;

// Sentences that announce a list ("Here's a summary:") carry no content themselves.
const ANNOUNCE = /^(?:here(?:'s| is| are)\b|below is\b|the following\b|summary\b|in summary\b|to summari[sz]e\b)/i;

/** Scores one sentence of assistant prose; ≥ CUE_THRESHOLD makes it a candidate decision. */
export function scoreSentence(sentence: string): number {
  const s = sentence.trim();
  if (s.length < 20 || FILLER.test(s)) return -5;
  let score = 0;
  for (const c of CUES) if (c.re.test(s)) score += c.weight;
  for (const p of PENALTIES) if (p.re.test(s)) score += p.weight;
  if (s.length > 400) score -= 1;
  return score;
}

export const CUE_THRESHOLD = 3;

// "I see the issue." announces that the next sentence explains it.
const ANNOUNCES_CAUSE =
  /\b(?:i see|i found|found|here's|spotted) (?:the|an?) (?:issue|problem|bug|cause)\b|\bthe (?:issue|problem) is clear\b/i;

/** The strongest cue phrase a sentence matched, lowercased ("" when none): near-repeats share it. */
export function mainCue(sentence: string): string {
  let best = '';
  let weight = 0;
  for (const c of CUES) {
    const m = c.re.exec(sentence);
    if (m && c.weight > weight) {
      best = m[0].toLowerCase();
      weight = c.weight;
    }
  }
  return best;
}

/** Cue sentences of one assistant text block, scored, in order. */
export function cueSentences(text: string): Array<{ text: string; score: number; cue: string }> {
  const prose = stripCodeFences(text)
    .split('\n')
    .filter((l) => !/^\s*(?:\||#)/.test(l))
    .join('\n');
  const sentences = splitSentences(plainMarkdown(prose));
  const out: Array<{ text: string; score: number; cue: string }> = [];
  let boost = 0;
  for (const raw of sentences) {
    const s = oneLine(raw);
    const score = scoreSentence(s) + boost;
    boost = ANNOUNCES_CAUSE.test(s) && s.length < 60 ? 3 : 0;
    if (score >= CUE_THRESHOLD && !/^I see the (issue|problem)\.?$/i.test(s)) {
      out.push({ text: clip(s, DECISION_MAX_CHARS), score, cue: mainCue(s) });
    }
  }
  return out;
}

function isListLine(line: string): boolean {
  return /^(?:[-*+•]|\d+[.)])\s+/.test(line);
}

function tableCells(line: string): string[] | null {
  if (!/^\|.*\|$/.test(line)) return null;
  if (/^\|[\s:|-]+\|$/.test(line)) return [];
  return line
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim())
    .filter(Boolean);
}

/**
 * Condenses the last text of an assistant turn (its wrap-up) to one line:
 * the first sentence that says something, plus the first few list items or
 * table rows when the message is a list of what was done.
 */
export function condenseConclusion(text: string): string | null {
  const clean = plainMarkdown(stripCodeFences(text));
  const rawLines = clean.split('\n');
  let headline = '';
  const items: string[] = [];
  let tableHeader = true;
  for (const raw of rawLines) {
    const indented = /^\s{2,}\S/.test(raw);
    const line = raw.trim();
    if (!line || /^[-*_=]{3,}$/.test(line) || /^<\/?[\w-]+>$/.test(line)) continue;
    const cells = tableCells(line);
    if (cells) {
      if (cells.length === 0) {
        tableHeader = false; // the separator: rows after it are data
      } else if (!tableHeader && items.length < 3) {
        items.push(clip(cells.join(' · '), 90));
      }
      continue;
    }
    if (isListLine(line)) {
      if (!indented && items.length < 3) items.push(clip(oneLine(line.replace(/^(?:[-*+•]|\d+[.)])\s+/, '')), 90));
      continue;
    }
    if (headline || items.length > 0) {
      if (items.length >= 3) break;
      continue;
    }
    const kept = splitSentences(line).filter((s) => !FILLER.test(s) && !ANNOUNCE.test(s) && !NARRATION.test(s));
    if (kept.length > 0) headline = oneLine(kept.slice(0, 2).join(' '));
  }
  if (!headline) return items.length > 0 ? clip(items.join('; '), DECISION_MAX_CHARS) : null;
  headline = headline.replace(/[:：\s]+$/, '');
  // A turn that ends by asking the user decided nothing yet (the question is reported as open).
  if (items.length === 0 && /\?$/.test(headline)) return null;
  const joined = items.length > 0 ? `${headline.replace(/[.!]$/, '')}: ${items.join('; ')}` : headline;
  return clip(joined, DECISION_MAX_CHARS);
}

/** "Plan: <title> — <first point>" from ExitPlanMode plan text. */
export function planHeadline(plan: string): string | null {
  const lines = stripCodeFences(plan)
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^[-*_=]{3,}$/.test(l));
  if (lines.length === 0) return null;
  const titleLine = lines.find((l) => /^#{1,3}\s/.test(l)) ?? lines[0] ?? '';
  const title = oneLine(plainMarkdown(titleLine)).replace(/^plan:\s*/i, '');
  // The first prose line after a heading that names the approach, else after the title.
  let detail = '';
  let afterApproach = false;
  for (const l of lines) {
    if (/^#{1,6}\s/.test(l)) {
      afterApproach = /approach|strategy|solution|design|decision|summary|goal/i.test(l);
      continue;
    }
    if (afterApproach && !detail) detail = l;
  }
  if (!detail) detail = lines.find((l) => l !== titleLine && !/^#{1,6}\s/.test(l)) ?? '';
  const first = (splitSentences(plainMarkdown(detail))[0] ?? '').replace(/[:：]$/, '');
  const text = first ? `Plan: ${title} — ${first}` : `Plan: ${title}`;
  return clip(oneLine(text), DECISION_MAX_CHARS);
}

/** The summary's own line for a session's commits: the count and the last subject. */
export const commitLine = (count: number, subject: string): string =>
  count === 1 ? `Committed: ${subject}` : `Committed ${count} times, last: ${subject}`;

/** Such a line (`Committed: subject`, `Committed 3 times, last: …`). */
export const COMMIT_LINE = /^Committed(?::| \d+ times, last:)/;

/** The subject line of a `git commit -m …` command, or null when there is none. */
export function commitSubject(command: string): string | null {
  if (!/\bgit\s+(?:-\S+\s+)*commit\b/.test(command)) return null;
  const heredoc = /<<-?\s*['"]?(\w+)['"]?[^\n]*\n\s*([^\n]*)/.exec(command);
  let subject = '';
  if (heredoc && /-m\s+"?\$\(cat/.test(command)) {
    subject = heredoc[2] ?? '';
  } else {
    const m = /-m\s+(?:"((?:[^"\\]|\\.)*)"|'([^']*)')/.exec(command);
    subject = (m?.[1] ?? m?.[2] ?? '').split('\n')[0] ?? '';
  }
  subject = oneLine(subject.replace(/\\"/g, '"'));
  return subject ? clip(subject, 120) : null;
}

// Where the assistant hands steps to the user: "You'll need to:", "Next steps:", "To apply it, run …".
const HANDED_ON =
  /\b(?:you(?:'ll| will)? (?:still )?need to|you(?:'ll| will) (?:still )?have to|next steps?(?: for you)?|remaining steps|to (?:finish|apply|activate|deploy) (?:it|this|the changes?)),?\s*:?/i;
const STEP_ITEM = /^\s*(?:[-*+•]|\d+[.)])\s+(.*)$/;
const STEPS_MAX = 4;

/**
 * The steps a turn's text hands to the user ("You'll need to: 1. update … 2. run `sudo nixos-rebuild
 * switch`"): the list after such a cue, or the rest of the cue's sentence; none when the text hands nothing on.
 */
export function handedOnSteps(text: string): string[] {
  const lines = stripCodeFences(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = HANDED_ON.exec(plainMarkdown(lines[i]!));
    if (!m) continue;
    const line = plainMarkdown(lines[i]!);
    const rest = line.slice(m.index + m[0].length).trim();
    const steps: string[] = [];
    for (let j = i + 1; j < lines.length && steps.length < STEPS_MAX; j++) {
      if (lines[j]!.trim() === '') {
        if (steps.length > 0) break;
        continue;
      }
      const item = STEP_ITEM.exec(lines[j]!);
      if (!item) break;
      steps.push(clip(oneLine(plainMarkdown(item[1]!)), 100));
    }
    if (steps.length > 0) return steps;
    // One sentence: "You'll need to run `npm run migrate` on the server."
    if (rest.length > 3 && !rest.endsWith('?')) return [clip(oneLine(rest.replace(/[.!]\s.*$/, '')), 140)];
  }
  return [];
}
