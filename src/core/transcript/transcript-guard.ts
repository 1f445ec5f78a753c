// Every text taken from a transcript passes here first, before anything is
// derived from it or cut (SPEC §7): `<private>` spans are removed — a span
// opened in one message stays open through the next ones of the same chain
// until it is closed — and secrets are redacted in the whole text (a generous
// head of a long one) before it is cut to the length a summary keeps.

import { PrivateStripper, stripPrivate } from '../security/private-spans.ts';
import { filterHead, HEAD_MARGIN } from '../security/secret-filter.ts';

/** Open `<private>` nesting per chain: the main conversation and its inline subagents. */
export interface PrivateDepth {
  main: number;
  side: number;
}

/** Texts longer than this are read only this far (a pasted log, a long answer): the summary keeps far less. */
export const MAX_TEXT = 16 * 1024;

/** A compaction summary is read further: the sections a hand-off takes from it (user messages, pending tasks) come last. */
export const RECAP_TEXT = 64 * 1024;

export class TranscriptGuard {
  private readonly main: PrivateStripper;
  private readonly side: PrivateStripper;

  constructor(depth: PrivateDepth = { main: 0, side: 0 }) {
    this.main = new PrivateStripper(depth.main);
    this.side = new PrivateStripper(depth.side);
  }

  /**
   * A message's text (what the user typed, what the assistant wrote) with
   * private spans removed and secrets redacted, at most `keep` characters.
   * Messages carry the span state: a span they open hides what follows.
   */
  text(raw: string, sidechain: boolean, keep = MAX_TEXT): string {
    const visible = (sidechain ? this.side : this.main).strip(raw).text;
    return visible === '' ? '' : filterHead(visible, keep);
  }

  /**
   * A tool's input or result (a command, a path, a plan): nothing while a
   * private span is open in the chain; else cleaned on its own, so a
   * `<private>` inside a file's content cannot hide the rest of the session.
   */
  input(raw: string, sidechain: boolean, keep = MAX_TEXT): string {
    if (this.isOpen(sidechain)) return '';
    // Cutting first is safe here: a span left open by the cut hides what follows it, which is cut anyway.
    const visible = stripPrivate(raw.length > keep + HEAD_MARGIN ? raw.slice(0, keep + HEAD_MARGIN) : raw);
    return visible === '' ? '' : filterHead(visible, keep);
  }

  /** Like `input`, without the secret filter: for text that is only looked at, never kept. */
  peek(raw: string, sidechain: boolean): string {
    return this.isOpen(sidechain) ? '' : stripPrivate(raw);
  }

  /** Whether a private span is open in a chain: what such a chain does is not captured. */
  isOpen(sidechain: boolean): boolean {
    return (sidechain ? this.side : this.main).open;
  }

  /** Where the spans stand, to continue in the next read of the same transcript. */
  get depth(): PrivateDepth {
    return { main: this.main.openDepth, side: this.side.openDepth };
  }
}
