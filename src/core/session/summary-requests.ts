// The user's requests as a bounded log: the opening asks and the latest ones
// both matter to whoever picks the work up; the middle of a long session can go.

import { clip, editDistance, oneLine } from '../text.ts';
import { dedupeKey } from './summary-text.ts';

// Replies that only keep the conversation going carry no request of their own, in the languages the
// histories are written in ("sì", "да", "继续", "重试").
const TRIVIAL_PROMPT =
  /^(?:continue|go on|go ahead|proceed|yes|y|no|n|ok|okay|sure|thanks|thank you|lgtm|do it|keep going|please continue|continue please|retry|try again|s[iíì]|sim|claro|pode|continua|vai|dale|oui|ja|weiter|да|нет|ок|давай|продолжай|так|好|好的|是|对|對|继续|繼續|重试|重試|可以)[\s.!。！,，]*$/iu;

// A message that is only pasted images (`[Image #2]`): what it asks is in the messages around it.
const PASTED_ONLY = /^(?:\[Image #\d+\]\s*)+$/;

/**
 * Two requests that differ by a few characters only, none of them a number: the second is the first sent
 * again, corrected ("fix test 1" and "fix test 2" are two requests).
 */
function resent(was: string, now: string): boolean {
  const longer = Math.max(was.length, now.length);
  const numbers = (s: string) => (s.match(/\d+/g) ?? []).join(' ');
  return (
    Math.min(was.length, now.length) >= 12 &&
    numbers(was) === numbers(now) &&
    editDistance(was, now) <= Math.max(2, Math.floor(longer / 10))
  );
}

export class RequestLog {
  private readonly first: Array<{ text: string; key: string }> = [];
  private readonly recent: Array<{ text: string; key: string }> = [];
  private lastKey = '';

  /** `carried`: the keys of the session's first requests an earlier read of it already kept. */
  constructor(
    private readonly maxFirst: number,
    private readonly max: number,
    private readonly maxChars: number,
    private readonly carried: readonly string[] = [],
  ) {}

  /**
   * Each request once: one of the first few said again keeps its place; a later one said again moves to the
   * latest (a repeated "yes" takes no second place from what was asked), as parts merge (summary-merge.ts).
   */
  add(text: string): void {
    const clean = clip(oneLine(text), this.maxChars);
    if (!clean || TRIVIAL_PROMPT.test(clean) || PASTED_ONLY.test(clean)) return;
    const key = dedupeKey(clean);
    if (key === this.lastKey) return;
    // The same message sent again with a typo fixed (`处罚` → `触发`) replaces the one just before it.
    const previous = this.recent.at(-1) ?? (this.recent.length === 0 ? this.first.at(-1) : undefined);
    if (previous && previous.key === this.lastKey && resent(previous.key, key)) {
      previous.text = clean;
      previous.key = key;
      this.lastKey = key;
      return;
    }
    this.lastKey = key;
    if (this.carried.includes(key) || this.first.some((r) => r.key === key)) return;
    // Said again, it keeps the words it was first said in.
    const again = this.recent.findIndex((r) => r.key === key);
    const said = again >= 0 ? this.recent.splice(again, 1)[0]!.text : clean;
    if (this.carried.length + this.first.length < this.maxFirst) {
      this.first.push({ text: said, key });
      return;
    }
    this.recent.push({ text: said, key });
    if (this.recent.length > this.max - this.maxFirst) this.recent.shift();
  }

  /** The keys of the session's first requests, those of earlier reads first. */
  head(): string[] {
    return [...this.carried, ...this.first.map((r) => r.key)];
  }

  latest(): string | null {
    return (this.recent.at(-1) ?? this.first.at(-1))?.text ?? null;
  }

  list(): string[] {
    return [...this.first, ...this.recent].map((r) => r.text);
  }
}
