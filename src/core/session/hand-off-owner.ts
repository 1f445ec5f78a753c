// Whose a hand-off is: EPHEMERAL.md's title names its session by a short id
// (session-records.ts writes it), an archive log by its `- session:` line. Kept
// apart from the renderers so that SessionStart can ask without loading them.

/** How a hand-off's title names its session. */
export const shortId = (id: string): string => (id.length > 8 ? `${id.slice(0, 8)}…` : id);

const TITLE = /^#*\s*Last session — [^\n]*\(session ([^,)\n]+)/m;
const FIELD = /^- session: (.+)$/m;

/**
 * True when a hand-off (EPHEMERAL.md's text, or an archive log's) is this session's own: a resumed
 * session already holds its conversation, and its own summary given again would only take room.
 */
export function isOwnHandOff(text: string, sessionId: string): boolean {
  const id = sessionId.trim();
  if (id === '') return false;
  const title = text.slice(0, 400).match(TITLE);
  if (title) return title[1] === shortId(id);
  const field = text.slice(0, 2000).match(FIELD);
  return field !== null && field[1]!.trim() === id;
}
