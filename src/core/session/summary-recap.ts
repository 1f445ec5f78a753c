// A compaction summary inside a transcript is a source, not a request. Claude
// Code writes it in fixed numbered sections ("1. Primary Request and Intent:",
// "6. All user messages:", "7. Pending Tasks:" …): the user's own messages
// say what was asked when the transcript no longer holds them, and the
// pending tasks are what was open at that point, until more work follows.

import { clip, oneLine } from '../text.ts';
import { plainMarkdown } from './summary-text.ts';

export interface Recap {
  /** The user's messages as the summary quotes them (or its primary request). */
  requests: string[];
  /** Its pending tasks, top-level items only. */
  pending: string[];
}

const HEADING = /^\s{0,3}\d+\.\s+\**([A-Z][A-Za-z ,/&'-]{2,60}?)\**:\s*$/;
const PENDING_MAX = 6;

/** The numbered sections of the summary part, by lower-cased title. */
function recapSections(text: string): Map<string, string[]> {
  const tagged = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(text)?.[1];
  const body = tagged ?? text;
  const start = body.search(/^\s{0,3}1\.\s+\**Primary Request/m);
  const lines = (start >= 0 ? body.slice(start) : body).split('\n');
  const out = new Map<string, string[]>();
  let current: string[] | null = null;
  for (const line of lines) {
    const h = HEADING.exec(line);
    if (h) {
      current = [];
      out.set(h[1]!.trim().toLowerCase(), current);
    } else if (current) {
      current.push(line);
    }
  }
  return out;
}

function section(sections: Map<string, string[]>, pattern: RegExp): string[] {
  for (const [title, lines] of sections) if (pattern.test(title)) return lines;
  return [];
}

/** Top-level list items (the least indented bullets), one line each. */
function topItems(lines: string[]): string[] {
  const bullets = lines
    .map((l) => /^(\s*)[-*•]\s+(.+)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ indent: m[1]!.length, text: m[2]! }));
  if (bullets.length === 0) return [];
  const top = Math.min(...bullets.map((b) => b.indent));
  return bullets.filter((b) => b.indent === top).map((b) => b.text);
}

/** A quoted message: the words between its quotes; unquoted items describe messages, they are not one. */
function quoted(item: string): string | null {
  const m = /^[“"'](.+?)[”"'](?:\s|$|\()/.exec(item.trim()) ?? /^[“"'](.+)[”"']$/.exec(item.trim());
  return m ? m[1]! : null;
}

/** A compaction agent's answer: a `<summary>` in Claude Code's numbered sections. */
export function isRecapText(text: string): boolean {
  return text.includes('<summary>') && /^\s{0,3}1\.\s+\**Primary Request/m.test(text);
}

export function readRecap(text: string): Recap | null {
  const sections = recapSections(text);
  if (sections.size === 0) return null;
  let requests = topItems(section(sections, /^all user messages$/))
    .map(quoted)
    .filter((q): q is string => q !== null);
  if (requests.length === 0) {
    const intent = section(sections, /^primary request/)
      .join('\n')
      .split(/\n\s*\n/)
      .map((p) => oneLine(p))
      .find((p) => p.length > 0);
    requests = intent ? [intent] : [];
  }
  const pending = topItems(section(sections, /^pending tasks?$/))
    .map((t) => clip(oneLine(plainMarkdown(t)), 160))
    .filter((t) => t && !/^(?:none|n\/a|nothing)\b/i.test(t))
    .slice(0, PENDING_MAX);
  return { requests, pending };
}
