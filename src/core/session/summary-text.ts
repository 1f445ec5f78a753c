// Text helpers of the session summary: plain prose from markdown, sentences, and
// a key that treats near-identical phrasings as one. Pure and linear in the
// input: transcripts can hold megabyte-long strings, so nothing here may backtrack.

/** Markdown decoration that adds nothing in a one-line summary. */
export function plainMarkdown(text: string): string {
  return text
    .replace(/\*\*([^*\n]+)\*\*/g, '$1')
    .replace(/__([^_\n]+)__/g, '$1')
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/\[([^\]\n]+)\]\([^)\n]*\)/g, '$1');
}

/** Removes fenced code blocks: code is evidence, not a conclusion. */
export function stripCodeFences(text: string): string {
  if (!text.includes('```')) return text;
  const out = text.replace(/```[\s\S]*?```/g, '\n');
  const open = out.indexOf('```');
  return open >= 0 ? out.slice(0, open) : out;
}

/**
 * Splits prose into sentences. A sentence ends at . ! ? followed by a space
 * and a capital/quote/backtick, or at a line break; list markers are dropped.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '').trim();
    if (!line) continue;
    const parts = line.split(/(?<=[.!?])\s+(?=[A-Z`"'(*])/);
    for (const p of parts) {
      const s = p.trim();
      if (s) out.push(s);
    }
  }
  return out;
}

/** A key that treats two phrasings differing only in case/punctuation as one. */
export function dedupeKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .slice(0, 80);
}
