// Splits the text a user typed after `/rune:echoes` into arguments, the way
// they meant it. The text never passes through a shell (see
// store/session/slash-args.ts); this splitter reads it forgivingly:
// "double" and 'single' quotes group words, but an apostrophe inside a word
// (don't) or a quote that never closes is just a character. No expansion:
// backticks, `$(…)` and the rest are characters like any other.
// Each argument keeps where it stood in the text, so free text (a lesson to
// remember, a query) can be taken exactly as typed, quotes and line breaks included.

export interface TypedArg {
  value: string;
  /** Offsets of the argument in the typed text, quotes included. */
  start: number;
  end: number;
}

export function splitTypedArgs(text: string): TypedArg[] {
  const args: TypedArg[] = [];
  let current = '';
  let start = -1;
  const s = text.replace(/\r?\n$/, '');
  const finish = (end: number) => {
    if (start >= 0) args.push({ value: current, start, end });
    current = '';
    start = -1;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      finish(i);
      continue;
    }
    if (start < 0) start = i;
    if (c === '"' || (c === "'" && current === '' && start === i)) {
      const close = s.indexOf(c, i + 1);
      // A single quote groups only when it opens a word and closes at the end of one.
      const closesWord = close !== -1 && (c === '"' || close + 1 >= s.length || /\s/.test(s[close + 1]!));
      if (closesWord) {
        current += s.slice(i + 1, close);
        i = close;
        continue;
      }
    }
    if (c === '\\' && i + 1 < s.length && /["'\\\s]/.test(s[i + 1]!)) {
      current += s[i + 1];
      i++;
      continue;
    }
    current += c;
  }
  finish(s.length);
  return args;
}

export function splitArgs(text: string): string[] {
  return splitTypedArgs(text).map((a) => a.value);
}
