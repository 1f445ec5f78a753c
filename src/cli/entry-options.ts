// The options that describe an entry on the command line (record, remember),
// generated from the field table, and the checks that turn bad input into one
// clear line before anything is written.
import { type EchoEntry, isLayer, type Layer } from '../core/entry/echo-entry.ts';
import { ENTRY_FIELDS, type EntryField } from '../core/entry/entry-fields.ts';
import { slugifyTitle } from '../core/entry/entry-ids.ts';
import { parseTags } from '../core/entry/field-values.ts';
import { EchoesError } from '../core/errors.ts';
import { filterSecrets } from '../core/security/secret-filter.ts';
import { oneLine, quoteInput } from '../core/text.ts';
import { stringOpt } from './cli-context.ts';

const OPTION_FIELDS = ENTRY_FIELDS.filter((f): f is EntryField & { cli: NonNullable<EntryField['cli']> } => f.cli !== null);

/** `{ pattern: { type: 'string' }, title: …, 'root-cause': … }` for node:util parseArgs. */
export const ENTRY_OPTIONS: Record<string, { type: 'string' }> = Object.fromEntries(
  OPTION_FIELDS.flatMap((f) => [f.cli.flag, ...f.cli.aliases].map((flag) => [flag, { type: 'string' as const }])),
);

/** `--pattern "Title"] [--kind Pattern] …` for usage lines. */
export const ENTRY_OPTIONS_USAGE = OPTION_FIELDS.map((f) => `[--${f.cli.flag} ${f.cli.value}]`).join(' ');

/** A --confidence value: a number from 0 to 1 (the lenient HIGH/LOW reading is for files, not flags). */
export function confidenceOption(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new EchoesError('bad-argument', `--confidence must be a number from 0 to 1, got "${quoteInput(String(raw))}"`);
  }
  return n;
}

export function layerOption(raw: string | undefined, fallback: Layer): Layer {
  if (raw === undefined) return fallback;
  if (!isLayer(raw)) throw new EchoesError('bad-argument', `--layer must be etched, inscribed or traced, got "${quoteInput(String(raw))}"`);
  return raw;
}

/** The option value of a field, under its flag or an alias. */
function optionValue(values: Record<string, unknown>, f: (typeof OPTION_FIELDS)[number]): string | undefined {
  for (const flag of [f.cli.flag, ...f.cli.aliases]) {
    const v = stringOpt(values, flag);
    if (v !== undefined) return v;
  }
  return undefined;
}

export interface EntryDefaults {
  today: string;
  defaultLayer: Layer;
  defaultSource: string;
  defaultConfidence?: number;
}

export function entryFromOptions(values: Record<string, unknown>, learningWords: string[], opts: EntryDefaults): EchoEntry {
  // Secrets are filtered from whole texts before anything is flattened, cut or derived from them
  // (a title cut at 80 characters could keep half a key that no rule knows any more).
  // Evidence is left to the entry filter, which drops a sensitive one whole.
  const learning = oneLine(filterSecrets(learningWords.join(' ')).text);
  if (!learning)
    throw new EchoesError('bad-argument', 'the learning text is missing: add it after the options, e.g. … "Prefer X because Y"');
  const entry: EchoEntry = {
    id: '',
    idExplicit: true,
    date: opts.today,
    kind: 'Pattern',
    title: learning.split(/(?<=[.!?])\s/)[0]!.slice(0, 80),
    layer: opts.defaultLayer,
    source: opts.defaultSource,
    confidence: opts.defaultConfidence ?? 0.7,
    evidence: '',
    verified: opts.today,
    supersedes: 'none',
    tags: [],
    learning,
    extra: [],
  };
  const set = entry as unknown as Record<string, unknown>;
  for (const f of OPTION_FIELDS) {
    const raw = optionValue(values, f);
    if (raw === undefined) continue;
    switch (f.type) {
      case 'layer':
        set[f.prop] = layerOption(raw, opts.defaultLayer);
        break;
      case 'confidence':
        set[f.prop] = confidenceOption(raw, entry.confidence);
        break;
      case 'tags':
        set[f.prop] = parseTags(raw);
        break;
      default:
        set[f.prop] = oneLine(f.prop === 'evidence' ? raw : filterSecrets(raw).text);
    }
  }
  entry.title = oneLine(entry.title);
  if (!entry.title) throw new EchoesError('bad-argument', '--pattern must not be empty');
  if (!entry.kind) entry.kind = 'Pattern';
  entry.id = slugifyTitle(entry.title);
  return entry;
}
