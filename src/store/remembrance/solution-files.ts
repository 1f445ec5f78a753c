// docs/solutions/ on disk (SPEC §11): list and read the documents, write a new
// one without ever overwriting, and check each echo_ref against the entry it
// came from (changed since promotion, or gone).
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canonicalEntryText, parseEchoRef } from '../../core/remembrance/echo-ref.ts';
import { parseSolutionDoc, type SolutionDoc } from '../../core/remembrance/solution-doc.ts';
import { createFileExclusive, readTextFile } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { readAllEntries } from '../memory/memory-files.ts';

export interface SolutionFile {
  /** Relative to the project: `docs/solutions/<category>/<slug>.md`. */
  path: string;
  abs: string;
  doc: SolutionDoc;
}

export function listSolutions(paths: EchoPaths): SolutionFile[] {
  let names: string[];
  try {
    names = readdirSync(paths.solutionsDir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .sort();
  } catch {
    return [];
  }
  const out: SolutionFile[] = [];
  for (const name of names) {
    const abs = join(paths.solutionsDir, name);
    const rel = `docs/solutions/${name.split('\\').join('/')}`;
    let text: string | null;
    let unreadable = false;
    try {
      ({ text, unreadable } = readTextFile(paths, abs));
    } catch {
      continue;
    }
    if (text === null) {
      if (unreadable) out.push({ path: rel, abs, doc: { ...parseSolutionDoc('', basename(name, '.md')), problem: 'not a text file' } });
      continue;
    }
    out.push({ path: rel, abs, doc: parseSolutionDoc(text, basename(name, '.md')) });
  }
  return out;
}

/** Writes docs/solutions/<category>/<slug>.md (or <slug>-2.md … if the name is taken); never overwrites. */
export function writeSolution(paths: EchoPaths, category: string, slug: string, text: string): string {
  for (let n = 1; ; n++) {
    const rel = `docs/solutions/${category}/${n === 1 ? slug : `${slug}-${n}`}.md`;
    if (createFileExclusive(paths, join(paths.project, rel), text)) return rel;
  }
}

export const entryHash = (canonical: string): string => createHash('sha256').update(canonical, 'utf8').digest('hex');

export interface Drift {
  path: string;
  title: string;
  echoRef: string;
  state: 'current' | 'changed' | 'vanished' | 'unreadable-ref';
}

/** Each document with an echo_ref, checked against the live entry: changed since promotion, gone, or current. */
export function solutionDrift(paths: EchoPaths, solutions: SolutionFile[] = listSolutions(paths)): Drift[] {
  const withRef = solutions.filter((s) => s.doc.echoRef !== '');
  if (withRef.length === 0) return [];
  const { roles } = readAllEntries(paths);
  return withRef.map((s) => {
    const ref = parseEchoRef(s.doc.echoRef);
    const base = { path: s.path, title: s.doc.title, echoRef: s.doc.echoRef };
    if (ref === null || ref.role === '' || ref.hash === undefined) return { ...base, state: 'unreadable-ref' as const };
    const entry = roles.find((r) => r.role === ref.role)?.entries.find((e) => e.id === ref.id);
    if (!entry) return { ...base, state: 'vanished' as const };
    return { ...base, state: entryHash(canonicalEntryText(entry)) === ref.hash ? ('current' as const) : ('changed' as const) };
  });
}
