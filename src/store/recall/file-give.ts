// The hit path of naming files at a prompt (store/recall/prompt-recall.ts
// tests the prompt against the names file first), loaded only when the prompt
// says one of the names the ledger's files can be named by: the ledger is
// parsed, what the session holds is read (what it was given, its hand-off, the
// files it already read or edited), and the files the prompt names are found
// (core/recall/file-recall.ts); given alone, they are rendered and noted as
// given to the session.
import type { EchoesConfig } from '../../core/config/config-defaults.ts';
import { holdsPath, type PromptNames } from '../../core/recall/file-names.ts';
import { filesThePromptNames } from '../../core/recall/file-recall.ts';
import { filesOnlyRecall } from '../../core/recall/files-line.ts';
import { parseWorkedFiles } from '../../core/recall/worked-files.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';
import { readSessionState } from '../session/session-state.ts';
import type { PromptRecall } from './prompt-recall.ts';
import { addGiven, fileGivenKey, givenHandOff, readGiven } from './session-given.ts';

/** The files of the ledger (its text) the prompt names, less those the session holds already. */
export function filesForPrompt(
  paths: EchoPaths,
  prompt: string,
  named: PromptNames,
  ledgerText: string,
  sessionId: string | undefined,
): string[] {
  // What the session holds, read once the prompt names a file of the ledger.
  let holds: ((path: string) => boolean) | null = null;
  const held = (path: string) => {
    if (holds === null) {
      const given = sessionId ? readGiven(paths, sessionId) : new Set<string>();
      const handOff = (sessionId ? givenHandOff(paths, sessionId) : null) ?? '';
      // The files it read or edited itself, as its draft stood at the last turn's end.
      const draft = sessionId ? readSessionState(paths, sessionId)?.draft : null;
      const touched = new Set([...(draft?.filesRead ?? []), ...(draft?.filesEdited ?? [])]);
      holds = (p) => given.has(fileGivenKey(p)) || touched.has(p) || holdsPath(handOff, p);
    }
    return holds(path);
  };
  return filesThePromptNames(prompt, parseWorkedFiles(ledgerText), held, named);
}

/** Only the files the prompt names (no item of memory cleared the bar), in the recall wrapper, noted as given. */
export function giveFilesOnly(
  paths: EchoPaths,
  config: EchoesConfig,
  files: readonly string[],
  session: { id: string | undefined },
): PromptRecall | null {
  const r = filesOnlyRecall(files, config.recall.maxTokens);
  if (r === null) return null;
  const named = files.slice(0, r.files);
  if (session.id) addGiven(paths, session.id, named.map(fileGivenKey));
  return { text: r.text, keys: [], files: named, tokens: r.tokens };
}
