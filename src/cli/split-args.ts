// Splits the text a user typed after `/rune:echoes` into arguments, the way
// they meant it. Claude Code pastes $ARGUMENTS into the command's shell line
// unescaped, where `remember Don't mock the DB` breaks the shell; the command
// passes the text on stdin instead, and this splitter reads it forgivingly:
// "double" and 'single' quotes group words, but an apostrophe inside a word
// (don't) or a quote that never closes is just a character. No expansion.

export function splitArgs(text: string): string[] {
  const args: string[] = [];
  let current = '';
  let inToken = false;
  const s = text.replace(/\r?\n$/, '');
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      if (inToken) args.push(current);
      current = '';
      inToken = false;
      continue;
    }
    if (c === '"' || (c === "'" && !inToken)) {
      const close = s.indexOf(c, i + 1);
      // A single quote groups only when it closes at the end of a word.
      const closesWord = close !== -1 && (c === '"' || close + 1 >= s.length || /\s/.test(s[close + 1]!));
      if (closesWord) {
        current += s.slice(i + 1, close);
        inToken = true;
        i = close;
        continue;
      }
    }
    if (c === '\\' && i + 1 < s.length && /["'\\\s]/.test(s[i + 1]!)) {
      current += s[i + 1];
      inToken = true;
      i++;
      continue;
    }
    current += c;
    inToken = true;
  }
  if (inToken) args.push(current);
  return args;
}
