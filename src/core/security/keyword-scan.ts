// Which of many keywords occur in a text, in one pass (Aho–Corasick): the
// security filter runs a rule only when one of its keywords is present, and
// checking the keywords one by one would cost more than the rules themselves
// on a megabyte of transcript. Case-insensitive for ASCII letters. The
// automaton is built on first use from flat typed arrays, so a hook that
// filters nothing pays nothing and one that does pays well under a millisecond.

export class KeywordScanner {
  private readonly keywords: readonly string[];
  private classes: Uint8Array | null = null;
  private width = 0;
  private next: Int32Array | null = null;
  /** Keyword ending at each state (-1: none), and the nearest suffix state with an output (-1: none). */
  private ends: Int32Array | null = null;
  private outLink: Int32Array | null = null;

  constructor(keywords: readonly string[]) {
    this.keywords = [...new Set(keywords.map((k) => k.toLowerCase()).filter((k) => k.length > 0))];
  }

  /** The keywords (lower case) found in the text. */
  find(text: string): Set<string> {
    if (!this.next) this.build();
    const classes = this.classes as Uint8Array;
    const next = this.next as Int32Array;
    const ends = this.ends as Int32Array;
    const outLink = this.outLink as Int32Array;
    const width = this.width;
    const found = new Set<string>();
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      state = next[state * width + (code < 128 ? (classes[code] as number) : 0)] as number;
      // Walk the output chain: this state's keyword, then shorter keywords ending here.
      for (let s = (ends[state] as number) >= 0 ? state : (outLink[state] as number); s > 0; s = outLink[s] as number) {
        found.add(this.keywords[ends[s] as number] as string);
      }
    }
    return found;
  }

  private build(): void {
    // Character classes: one per character any keyword uses (letters folded to lower case), 0 for the rest.
    const classes = new Uint8Array(128);
    let width = 1;
    let size = 1;
    for (const k of this.keywords) {
      size += k.length;
      for (let i = 0; i < k.length; i++) {
        const code = k.charCodeAt(i);
        if (code >= 128 || classes[code] !== 0) continue;
        classes[code] = width;
        if (code >= 97 && code <= 122) classes[code - 32] = width; // upper case shares the class
        width++;
      }
    }
    // The trie, in the transition table itself (0 = no edge yet; the root is state 0).
    const next = new Int32Array(size * width);
    const ends = new Int32Array(size).fill(-1);
    let states = 1;
    this.keywords.forEach((k, index) => {
      let state = 0;
      for (let i = 0; i < k.length; i++) {
        const code = k.charCodeAt(i);
        const cell = state * width + (code < 128 ? (classes[code] as number) : 0);
        let s = next[cell] as number;
        if (s === 0) {
          s = states++;
          next[cell] = s;
        }
        state = s;
      }
      ends[state] = index;
    });
    // Breadth-first: failure links turn missing edges into the fallback's edges (a DFA),
    // and each state links to the nearest suffix that ends a keyword.
    const fail = new Int32Array(states);
    const outLink = new Int32Array(states).fill(-1);
    const queue = new Int32Array(states);
    let tail = 0;
    for (let c = 1; c < width; c++) {
      const s = next[c] as number;
      if (s !== 0) queue[tail++] = s;
    }
    for (let head = 0; head < tail; head++) {
      const r = queue[head] as number;
      const f = fail[r] as number;
      outLink[r] = (ends[f] as number) >= 0 ? f : (outLink[f] as number);
      for (let c = 1; c < width; c++) {
        const cell = r * width + c;
        const s = next[cell] as number;
        const viaFail = next[f * width + c] as number;
        if (s !== 0) {
          fail[s] = viaFail;
          queue[tail++] = s;
        } else {
          next[cell] = viaFail;
        }
      }
    }
    this.classes = classes;
    this.width = width;
    this.next = next;
    this.ends = ends;
    this.outLink = outLink;
  }
}
