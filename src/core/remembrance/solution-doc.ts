// A Remembrance document (SPEC §11): docs/solutions/<category>/<slug>.md with
// YAML frontmatter. Reading never throws: a file whose frontmatter is broken
// is still a document (its text stays searchable) and carries the problem.

import { parseDocument, stringify } from 'yaml';

export const SOLUTION_CATEGORIES = [
  'build-errors',
  'test-failures',
  'runtime-errors',
  'configuration',
  'performance',
  'security',
  'architecture',
  'tooling',
] as const;
export type SolutionCategory = (typeof SOLUTION_CATEGORIES)[number];

export function isSolutionCategory(value: string): value is SolutionCategory {
  return (SOLUTION_CATEGORIES as readonly string[]).includes(value);
}

/** The frontmatter fields, in the order they are written. */
export interface SolutionFrontmatter {
  title: string;
  category: SolutionCategory;
  tags: string[];
  date: string;
  symptom: string;
  root_cause: string;
  solution_summary: string;
  echo_ref: string;
  confidence: 'high' | 'medium';
  verified_by: 'human' | 'agent';
}

export interface SolutionDoc {
  title: string;
  category: string;
  tags: string[];
  date: string;
  symptom: string;
  rootCause: string;
  solutionSummary: string;
  echoRef: string;
  confidence: string;
  verifiedBy: string;
  /** The markdown after the frontmatter. */
  body: string;
  /** 1-based line where the body starts. */
  bodyLine: number;
  /** Set when the frontmatter could not be read; the rest of the file still is. */
  problem?: string;
}

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' || v instanceof Date ? dateOrText(v) : '');

function dateOrText(v: number | Date): string {
  return v instanceof Date ? v.toISOString().slice(0, 10) : String(v);
}

export function parseSolutionDoc(text: string, fallbackTitle: string): SolutionDoc {
  const empty: SolutionDoc = {
    title: fallbackTitle,
    category: '',
    tags: [],
    date: '',
    symptom: '',
    rootCause: '',
    solutionSummary: '',
    echoRef: '',
    confidence: '',
    verifiedBy: '',
    body: text,
    bodyLine: 1,
  };
  const m = FRONTMATTER.exec(text.replace(/^\uFEFF/, ''));
  if (!m) {
    const heading = /^#\s+(.+)$/m.exec(text)?.[1]?.trim();
    return { ...empty, title: heading || fallbackTitle, problem: text.startsWith('---') ? 'frontmatter is not closed by ---' : undefined };
  }
  const body = text.replace(/^\uFEFF/, '').slice(m[0].length);
  const bodyLine = m[0].split('\n').length;
  let data: unknown;
  try {
    const doc = parseDocument(m[1]!, { prettyErrors: false, uniqueKeys: false });
    if (doc.errors[0]) throw doc.errors[0];
    data = doc.toJS();
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    return { ...empty, body, bodyLine, problem: `frontmatter is not valid YAML (${reason})` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ...empty, body, bodyLine, problem: 'frontmatter is not a set of key: value fields' };
  }
  const f = data as Record<string, unknown>;
  const tags = Array.isArray(f.tags) ? f.tags.map(str).filter((t) => t !== '') : str(f.tags) ? str(f.tags).split(/\s*,\s*/) : [];
  return {
    title: str(f.title) || fallbackTitle,
    category: str(f.category),
    tags,
    date: str(f.date),
    symptom: str(f.symptom),
    rootCause: str(f.root_cause),
    solutionSummary: str(f.solution_summary),
    echoRef: str(f.echo_ref),
    confidence: str(f.confidence),
    verifiedBy: str(f.verified_by),
    body,
    bodyLine,
  };
}

/** The whole document: frontmatter written by the yaml library, then the body. */
export function renderSolutionDoc(front: SolutionFrontmatter, body: string): string {
  const yaml = stringify(front, { lineWidth: 0 });
  return `---\n${yaml}---\n\n${body.replace(/\s+$/, '')}\n`;
}
