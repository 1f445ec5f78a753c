// Building an entry from command-line options (record, remember): the checks
// that turn bad input into one clear line before anything is written.
import { isLayer, type EchoEntry, type Layer } from '../core/entry/echo-entry.ts';
import { slugifyTitle } from '../core/entry/entry-ids.ts';
import { EchoesError } from '../core/errors.ts';
import { oneLine } from '../core/text.ts';
import { stringOpt } from './cli-context.ts';

export const ENTRY_OPTIONS = {
  pattern: { type: 'string' },
  title: { type: 'string' },
  kind: { type: 'string' },
  evidence: { type: 'string' },
  confidence: { type: 'string' },
  layer: { type: 'string' },
  source: { type: 'string' },
  tags: { type: 'string' },
  symptom: { type: 'string' },
  'root-cause': { type: 'string' },
  solution: { type: 'string' },
  supersedes: { type: 'string' },
} as const;

export function parseConfidence(raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new EchoesError('bad-argument', `--confidence must be a number from 0 to 1, got ${JSON.stringify(raw)}`);
  }
  return n;
}

export function parseLayer(raw: string | undefined, fallback: Layer): Layer {
  if (raw === undefined) return fallback;
  if (!isLayer(raw)) throw new EchoesError('bad-argument', `--layer must be etched, inscribed or traced, got ${JSON.stringify(raw)}`);
  return raw;
}


export function entryFromOptions(values: Record<string, unknown>, learningWords: string[], opts: { today: string; defaultLayer: Layer; defaultSource: string }): EchoEntry {
  const learning = oneLine(learningWords.join(' '));
  if (!learning) throw new EchoesError('bad-argument', 'the learning text is missing: add it after the options, e.g. … "Prefer X because Y"');
  const title = oneLine(stringOpt(values, 'pattern') ?? stringOpt(values, 'title') ?? learning.split(/(?<=[.!?])\s/)[0]!.slice(0, 80));
  if (!title) throw new EchoesError('bad-argument', '--pattern must not be empty');
  const tags = (stringOpt(values, 'tags') ?? '').split(',').map((t) => t.trim()).filter(Boolean);
  const entry: EchoEntry = {
    id: slugifyTitle(title),
    idExplicit: true,
    date: opts.today,
    kind: oneLine(stringOpt(values, 'kind') ?? 'Pattern') || 'Pattern',
    title,
    layer: parseLayer(stringOpt(values, 'layer'), opts.defaultLayer),
    source: oneLine(stringOpt(values, 'source') ?? opts.defaultSource),
    confidence: parseConfidence(stringOpt(values, 'confidence'), 0.7),
    evidence: oneLine(stringOpt(values, 'evidence') ?? ''),
    verified: opts.today,
    supersedes: oneLine(stringOpt(values, 'supersedes') ?? 'none'),
    tags,
    learning,
    extra: [],
  };
  const symptom = stringOpt(values, 'symptom');
  const rootCause = stringOpt(values, 'root-cause');
  const solution = stringOpt(values, 'solution');
  if (symptom) entry.symptom = oneLine(symptom);
  if (rootCause) entry.rootCause = oneLine(rootCause);
  if (solution) entry.solution = oneLine(solution);
  return entry;
}
