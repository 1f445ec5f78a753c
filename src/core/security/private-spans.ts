// `<private>…</private>` (SPEC §7): text the user marked is never captured.
// The one stripper for every path — the security filter, transcript events
// and the session summary — so they cannot disagree on what is private.
//
// Rules: tags match in any case and may carry attributes (`<private reason="x">`);
// spans nest, and the outer closing tag ends them; a span left open hides
// everything after it, across later texts too when the same stripper is fed
// them in order (a span opened in one message and closed in the next); a
// closing tag with no span open is ordinary text. Linear in the input.

const PRIVATE_TAG = /<(\/?)private\b[^<>]{0,100}>/gi;

export interface PrivateResult {
  text: string;
  /** How many spans began in this text (a continued span counts in the text it began in). */
  removed: number;
}

/** Stateful: feed texts in order; `open` says a span is still open after the last one. */
export class PrivateStripper {
  private depth: number;

  constructor(depth = 0) {
    this.depth = Math.max(0, Math.floor(depth));
  }

  /** Nesting depth after the texts fed so far (0: nothing open). Persist it to resume later. */
  get openDepth(): number {
    return this.depth;
  }

  get open(): boolean {
    return this.depth > 0;
  }

  strip(text: string): PrivateResult {
    // Fast path: most texts mention no tag at all.
    if (this.depth === 0 && !/<\/?private/i.test(text)) return { text, removed: 0 };
    let out = '';
    let at = 0;
    let removed = 0;
    PRIVATE_TAG.lastIndex = 0;
    for (let m = PRIVATE_TAG.exec(text); m; m = PRIVATE_TAG.exec(text)) {
      const closing = m[1] === '/';
      if (!closing) {
        if (this.depth === 0) {
          out += text.slice(at, m.index);
          removed++;
        }
        this.depth++;
      } else if (this.depth > 0) {
        this.depth--;
        if (this.depth === 0) at = m.index + m[0].length;
      }
    }
    if (this.depth > 0) return { text: out, removed };
    return { text: out + text.slice(at), removed };
  }
}

/** One text on its own: spans removed, and an unclosed one hides the rest. */
export function removePrivate(text: string): PrivateResult {
  return new PrivateStripper().strip(text);
}

export function stripPrivate(text: string): string {
  return removePrivate(text).text;
}
