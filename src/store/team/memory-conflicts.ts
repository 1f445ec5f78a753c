// Memory files that hold git conflict markers (a pull from before the merge
// driver was installed, or hand-written text both sides changed): `status`
// lists them with their lines. Only files that contain a marker are parsed.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseEchoDocument } from '../../core/entry/echo-document.ts';
import { readTextFile } from '../fs/atomic-file.ts';
import { archiveDir, type EchoPaths, knowledgeFile, memoryFile } from '../fs/echo-paths.ts';
import { listRoles } from '../memory/role-listing.ts';

export interface MemoryConflict {
  /** Relative to the project. */
  file: string;
  line: number;
  message: string;
}

function roleFiles(paths: EchoPaths, role: string): string[] {
  let archived: string[] = [];
  try {
    archived = readdirSync(archiveDir(paths, role))
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => join(archiveDir(paths, role), n));
  } catch {
    /* no archive yet */
  }
  return [memoryFile(paths, role), knowledgeFile(paths, role), ...archived];
}

export function memoryConflicts(paths: EchoPaths): MemoryConflict[] {
  const found: MemoryConflict[] = [];
  for (const role of listRoles(paths)) {
    for (const path of roleFiles(paths, role)) {
      let text: string | null = null;
      try {
        text = readTextFile(paths, path).text;
      } catch {
        continue;
      }
      if (text === null || !text.includes('<<<<<<<')) continue;
      for (const issue of parseEchoDocument(text).issues)
        if (issue.code === 'merge-conflict') found.push({ file: relative(paths.project, path), line: issue.line, message: issue.message });
    }
  }
  return found;
}
