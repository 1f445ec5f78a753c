// Recalled text is wrapped in <rune-echoes …>…</rune-echoes> (SPEC §8) and
// must never be read as closing that wrapper or opening another tag. A model
// reads far more spellings as a tag than `</rune-echoes>`: spaces inside the
// brackets, full-width and other look-alike brackets, HTML entities, letters
// from other scripts, invisible characters between the letters. So the text is
// first folded to what a reader would see, the wrapper's name is found in that
// folded view, and the original characters behind each tag-like use of it are
// rewritten as plain words. Neutralising twice changes nothing more.

/** The wrapper's tag name, as it is matched in folded text. */
const WRAPPER = /rune[\s_-]*echoes/;
/**
 * A tag-like use of the name in folded text: after an opening bracket (with any
 * spaces and slashes between), or before a closing bracket. A path such as
 * `plugins/rune-echoes/hooks` is not tag-like and stays as it is.
 */
const TAG_USE = new RegExp(String.raw`<[\s/]*${WRAPPER.source}[\s/]*>?|${WRAPPER.source}\s*/?\s*>`, 'g');

/** Look-alikes folded to the ASCII character a reader takes them for. */
const LOOKALIKES: Record<string, string> = {
  '<': '‹«〈⟨＜﹤˂ᐸ⟪《〈❮❬⧼',
  '>': '›»〉⟩＞﹥˃ᐳ⟫》〉❯❭⧽',
  '/': '／⁄∕⧸╱∖＼\\',
  '-': '‐‑‒–—―﹣－−⁃',
  e: 'еєҽẹ',
  o: 'оοօᴏ',
  c: 'сϲᴄ',
  s: 'ѕꜱ',
  h: 'һհ',
  u: 'υսᴜ',
  n: 'ոᴎ',
  r: 'гᴦ',
};
const FOLD = new Map<string, string>(
  Object.entries(LOOKALIKES).flatMap(([to, from]) => [...from].map((ch) => [ch, to] as [string, string])),
);

/** Characters a reader does not see: dropped from the folded view. */
const INVISIBLE = /\p{Cf}|\u034f|[\u115f\u1160\u180e\u3164\uffa0\u200b-\u200f]/u;

/** HTML entities that spell a bracket, slash or letter, as a model decoding markup would read them. */
const ENTITY = /^&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|(lt|gt|sol|frasl|hyphen|dash|minus|amp));?/i;
const NAMED: Record<string, string> = { lt: '<', gt: '>', sol: '/', frasl: '/', hyphen: '-', dash: '-', minus: '-', amp: '&' };

/** What a tag-like use of the name becomes: words that neither fold back into the name next to a bracket nor read as a tag. */
const AS_WORDS = '(rune echoes tag)';

interface Folded {
  text: string;
  /** For each folded character, the index in the original text where its source begins. */
  from: number[];
}

/** The text as a reader sees it: look-alikes, entities and compatibility forms folded, invisible characters gone, lower case. */
export const readerView = (text: string): string => fold(text).text;

/** The text as a reader sees it, with a map back to the original offsets. */
function fold(text: string): Folded {
  let out = '';
  const from: number[] = [];
  const push = (s: string, at: number) => {
    for (const ch of s) {
      out += ch;
      from.push(at);
      if (ch.length === 2) from.push(at);
    }
  };
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (ch === '&') {
      const m = ENTITY.exec(text.slice(i, i + 12));
      if (m) {
        const code = m[1] ? Number(m[1]) : m[2] ? Number.parseInt(m[2], 16) : -1;
        const decoded = m[3] ? NAMED[m[3].toLowerCase()]! : code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '&';
        push(foldChar(decoded), i);
        i += m[0].length;
        continue;
      }
    }
    if (!INVISIBLE.test(ch)) push(foldChar(ch), i);
    i += ch.length;
  }
  from.push(text.length);
  return { text: out, from };
}

function foldChar(ch: string): string {
  if (ch < '\u0080') return ch.toLowerCase();
  const direct = FOLD.get(ch);
  if (direct) return direct;
  // Full-width and other compatibility forms (＜ ｒ ﹤ …) fold by NFKC; then the look-alike table again.
  const compat = ch.normalize('NFKC').toLowerCase();
  let out = '';
  for (const c of compat) out += INVISIBLE.test(c) ? '' : (FOLD.get(c) ?? c);
  return out;
}

/**
 * Rewrites every tag-like use of the wrapper's name, in any spelling a reader
 * would take for it, as the plain words `(rune echoes tag)`, then turns any other
 * ASCII tag into `‹…›`, so recalled text can neither close the wrapper nor
 * open a system tag. Text with neither is returned as it is.
 */
export function neutraliseTags(text: string): string {
  return neutraliseOtherTags(neutraliseWrapperName(text));
}

/** Any character a reader could take for a bracket, or an entity's start: a tag needs one. */
const BRACKET_LIKE = new RegExp(`[<>&${LOOKALIKES['<']}${LOOKALIKES['>']}]`);

function neutraliseWrapperName(text: string): string {
  // Most recalled text has no bracket at all, and then no spelling of the tag: nothing to fold.
  if (!BRACKET_LIKE.test(text)) return text;
  const folded = fold(text);
  if (!WRAPPER.test(folded.text)) return text;
  let out = '';
  let last = 0;
  for (const m of folded.text.matchAll(TAG_USE)) {
    const start = folded.from[m.index]!;
    const end = folded.from[m.index + m[0].length]!;
    if (start < last) continue;
    out += `${text.slice(last, start)}${AS_WORDS}`;
    last = end;
  }
  return out + text.slice(last);
}

/**
 * What reads as markup: `<name>`, `</name>`, `<name attr="v" flag>`, `<name/>`, and `<!…>` or `<?…>`.
 * A name is letters, digits, `_`, `:` and `-`; an attribute is a name with an optional value. Shell text
 * (`<lines.json>`, `cmd <in.txt 2>&1`, `a < b > c`) is none of these and stays as typed.
 */
const TAG = /<(\/?[A-Za-z][\w:-]*(?:\s+[A-Za-z_:][\w:.-]*(?:\s*=\s*(?:"[^"\n]*"|'[^'\n]*'|[^\s"'<>=`]+))?)*\s*\/?|[!?][^<>\n]*)>/g;

/** Any other tag `<name …>` or `</name>` becomes `‹name …›`: visible, but not markup. */
function neutraliseOtherTags(text: string): string {
  // Until nothing changes: `<a<b>>` becomes `<a‹b›>`, which holds a tag again.
  let out = text;
  for (let prev = ''; prev !== out; ) {
    prev = out;
    out = out.replace(TAG, '‹$1›');
  }
  return out;
}
