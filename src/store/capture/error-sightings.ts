// The error-sightings ledger (`.state/error-sightings.json`, personal, never
// committed): errors by signature with the sessions that met them. Capture
// turns one met in a second session into an obstacle; the digest names the
// Claude Code tool errors sessions here keep meeting.
import { join } from 'node:path';
import type { Sighting, Sightings } from '../../core/capture/lesson-candidates.ts';
import { readTextOrNull } from '../fs/atomic-file.ts';
import type { EchoPaths } from '../fs/echo-paths.ts';

export const sightingsFile = (paths: EchoPaths): string => join(paths.stateDir, 'error-sightings.json');

/** The ledger, or an empty one when it cannot be read (torn, hand-edited, `.state` not a folder). */
export function readSightings(paths: EchoPaths): Sightings {
  try {
    const text = readTextOrNull(paths, sightingsFile(paths));
    if (!text) return {};
    const v = JSON.parse(text) as unknown;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return {};
    // Only records of the ledger's shape: a hand edit or another tool's file costs nothing but its bad records.
    const out: Sightings = {};
    for (const [key, r] of Object.entries(v as Record<string, unknown>)) {
      const x = r as Partial<Sighting> | null;
      if (
        x &&
        typeof x.line === 'string' &&
        typeof x.what === 'string' &&
        Array.isArray(x.sessions) &&
        x.sessions.every((s) => typeof s === 'string')
      )
        out[key] = {
          line: x.line,
          what: x.what,
          sessions: x.sessions,
          ...(typeof x.fix === 'string' ? { fix: x.fix } : {}),
          ...(x.harness === true ? { harness: true } : {}),
        };
    }
    return out;
  } catch {
    return {}; // torn or hand-edited: the next sightings start it again
  }
}
