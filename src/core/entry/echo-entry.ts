// The semantic view of one echo entry (SPEC §4). Parsing and rendering live in
// echo-document.ts; everything else in the core works on these values.

export const LAYERS = ['etched', 'inscribed', 'traced'] as const;
export type Layer = (typeof LAYERS)[number];

/** Importance weights of the Echo Score (SPEC §5). */
export const LAYER_WEIGHT: Record<Layer, number> = { etched: 1.0, inscribed: 0.7, traced: 0.3 };

/** Days an entry may go unreferenced before it is eligible for archiving. */
export const LAYER_MAX_AGE_DAYS: Record<Layer, number> = { etched: Infinity, inscribed: 90, traced: 30 };

export type EntryStatus = 'superseded' | 'retracted';

/** The words older files use for confidence (Rune wrote `Confidence: LOW`). */
export const CONFIDENCE_WORDS = { LOW: 0.3, MEDIUM: 0.6, HIGH: 0.9 } as const;
export type ConfidenceWord = keyof typeof CONFIDENCE_WORDS;

export interface EchoEntry {
  /** Stable kebab id: the `id` field when present, else derived from the title. */
  id: string;
  /** True when the id was written in the file (v2), false when derived on read. */
  idExplicit: boolean;
  /** Date in the heading `[YYYY-MM-DD]`, or '' when the heading has none. */
  date: string;
  /** Heading category before the colon: Pattern, Architecture, Observation … ('' when absent). */
  kind: string;
  title: string;
  layer: Layer;
  source: string;
  /** 0..1; entries written as HIGH/MEDIUM/LOW are mapped to 0.9/0.6/0.3. */
  confidence: number;
  /** The word an older file wrote (LOW, MEDIUM, HIGH): written beside the number while the number is still the word's. */
  confidenceWord?: ConfidenceWord;
  evidence: string;
  /** YYYY-MM-DD, or '' when unknown. */
  verified: string;
  supersedes: string;
  tags: string[];
  symptom?: string;
  rootCause?: string;
  solution?: string;
  status?: EntryStatus;
  /** Set on lessons capture wrote (SPEC §6a): commands, fix, correction or obstacle. */
  captured?: string;
  /** What later sightings of a captured lesson merge by (not its title). */
  signature?: string;
  /** Short ids of the sessions that saw a captured lesson, comma-separated, newest last. */
  sessions?: string;
  /** This clone's mark on an entry it wrote: a keyed hash of what the entry says (core/team/provenance.ts). */
  origin?: string;
  /** The learning itself: the entry's free text, without the field bullets. */
  learning: string;
  /** Fields this model does not know, kept in order so a re-render loses nothing. */
  extra: Array<[string, string]>;
}

export function isLayer(value: string): value is Layer {
  return (LAYERS as readonly string[]).includes(value);
}

/** A problem found while reading a memory file: data, never an exception. */
export interface ParseIssue {
  code: string;
  /** 1-based line in the whole document. */
  line: number;
  message: string;
}
