// The user's requests as a bounded log: the opening asks and the latest ones
// both matter to whoever picks the work up; the middle of a long session can go.

import { clip, oneLine } from '../text.ts';
import { dedupeKey } from './summary-text.ts';

// Replies that only keep the conversation going carry no request of their own.
const TRIVIAL_PROMPT =
  /^(?:continue|go on|go ahead|proceed|yes|y|no|n|ok|okay|sure|thanks|thank you|lgtm|do it|keep going|please continue|continue please)[.!]*$/i;

export class RequestLog {
  private readonly first: string[] = [];
  private readonly recent: string[] = [];
  private lastKey = '';

  constructor(
    private readonly maxFirst: number,
    private readonly max: number,
    private readonly maxChars: number,
  ) {}

  add(text: string): void {
    const clean = clip(oneLine(text), this.maxChars);
    if (!clean || TRIVIAL_PROMPT.test(clean)) return;
    const key = dedupeKey(clean);
    if (key === this.lastKey) return;
    this.lastKey = key;
    if (this.first.length < this.maxFirst) {
      this.first.push(clean);
      return;
    }
    this.recent.push(clean);
    if (this.recent.length > this.max - this.maxFirst) this.recent.shift();
  }

  latest(): string | null {
    return this.recent.at(-1) ?? this.first.at(-1) ?? null;
  }

  list(): string[] {
    return [...this.first, ...this.recent];
  }
}
