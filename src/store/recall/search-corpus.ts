// Collects every searchable text of the store: entries of each role's
// MEMORY.md, knowledge.md and archive/, the archive logs and docs/solutions.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { documentEntries, parseEchoDocument } from '../../core/entry/echo-document.ts';
import { searchableText } from '../../core/entry/entry-fields.ts';
import type { SearchDoc } from '../../core/recall/text-search.ts';
import { readTextFile, readTextOrNull } from '../fs/atomic-file.ts';
import { archiveDir, type EchoPaths, knowledgeFile, memoryFile } from '../fs/echo-paths.ts';
import { listRoles } from '../memory/role-listing.ts';
import { listArchiveLogs, logFileName } from '../session/archive-logs.ts';

function docsOfEchoFile(paths: EchoPaths, path: string, ref: string, kind: SearchDoc['kind']): SearchDoc[] {
  const { text } = readTextFile(paths, path);
  if (text === null) return [];
  const doc = parseEchoDocument(text);
  const out: SearchDoc[] = documentEntries(doc).map((e) => ({
    ref: `${ref}#${e.id}`,
    kind,
    title: e.title,
    text: searchableText(e),
    date: e.verified || e.date,
  }));
  // Text that is not an entry (knowledge blocks, notes) is searchable as one document.
  const rest = doc.blocks
    .filter((b) => b.type === 'verbatim')
    .map((b) => b.text)
    .join('');
  if (rest.trim().split('\n').length > 2) out.push({ ref, kind, title: ref, text: rest });
  return out;
}

function markdownFiles(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.md'))
      .sort();
  } catch {
    return [];
  }
}

export function searchCorpus(paths: EchoPaths, role?: string): SearchDoc[] {
  const docs: SearchDoc[] = [];
  for (const r of listRoles(paths)) {
    if (role && r !== role) continue;
    docs.push(...docsOfEchoFile(paths, memoryFile(paths, r), `${r}/MEMORY.md`, 'entry'));
    docs.push(...docsOfEchoFile(paths, knowledgeFile(paths, r), `${r}/knowledge.md`, 'knowledge'));
    for (const f of markdownFiles(archiveDir(paths, r))) {
      if (/^MEMORY-/.test(f)) continue; // backups repeat what is live or archived
      docs.push(...docsOfEchoFile(paths, join(archiveDir(paths, r), f), `${r}/archive/${f}`, 'archive'));
    }
  }
  if (!role) {
    for (const seq of listArchiveLogs(paths)) {
      const name = logFileName(seq);
      const text = readTextOrNull(paths, join(paths.memoriesDir, name));
      if (text === null) continue;
      const asked = /^## Asked\s*\n- (.*)$/m.exec(text)?.[1] ?? '';
      const date = /^- span: .*?(\d{4}-\d{2}-\d{2})/m.exec(text)?.[1];
      docs.push({ ref: `memories/${name}`, kind: 'archive-log', title: asked || name, text, ...(date ? { date } : {}) });
    }
    for (const f of markdownFiles(paths.solutionsDir)) {
      const text = readTextOrNull(paths, join(paths.solutionsDir, f));
      if (text === null) continue;
      const title = /^title:\s*["']?(.*?)["']?\s*$/m.exec(text)?.[1] ?? f;
      docs.push({ ref: relative(paths.project, join(paths.solutionsDir, f)), kind: 'solution', title, text });
    }
  }
  return docs;
}
