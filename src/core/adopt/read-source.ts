// One door to the readers: which format a file is in (from where it was
// found, or from its name and text when the user names a file), and the
// reading of it.

import { documentEntries, parseEchoDocument } from '../entry/echo-document.ts';
import { readMemoryIndex, readTopicFile } from './read-auto-memory.ts';
import { readClaudeMd } from './read-claude-md.ts';
import { readContinuity } from './read-continuity.ts';
import { readEchoFile } from './read-echo-file.ts';
import { readLessonsJsonl } from './read-lessons-jsonl.ts';
import type { ReadContext, SourceKind, SourceReading } from './source-reading.ts';

const base = (path: string) => path.replace(/^.*[\\/]/, '');

/** The format of a file the user named, from its path and text. */
export function detectKind(path: string, text: string): SourceKind {
  const name = base(path);
  if (/\.jsonl$/i.test(name)) return 'archeflow';
  if (/continuity\.md$/i.test(name) || /<!--\s*id\s*:[^>]*\|\s*tier\s*:/.test(text)) return 'continuity';
  if (/CLAUDE\.md$/.test(name)) return 'claude-md';
  if (/(^|[\\/])agent-memory[\\/]/.test(path)) return 'agent-memory';
  if (documentEntries(parseEchoDocument(text)).length > 0) return 'rune';
  return 'auto-memory';
}

/** Reads a file of the given format. `path` tells an index MEMORY.md from a topic file. */
export function readSource(kind: SourceKind, path: string, text: string, ctx: ReadContext): SourceReading {
  switch (kind) {
    case 'auto-memory':
    case 'agent-memory':
    case 'recall-echo':
      return /MEMORY\.md$/.test(base(path)) ? readMemoryIndex(text, ctx) : readTopicFile(text, ctx, base(path));
    case 'rune':
      return readEchoFile(text, ctx);
    case 'continuity':
      return readContinuity(text, ctx);
    case 'archeflow':
      return readLessonsJsonl(text, ctx);
    case 'claude-md':
      return readClaudeMd(text, ctx);
  }
}
