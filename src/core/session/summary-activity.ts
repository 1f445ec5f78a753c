// Tallies of files touched and commands run, bounded while they grow: a long
// session may touch thousands of paths, and only the most-used few are shown.

import { commandFamily, commandWeight, displayCommand, isVerification, normalizeCommand } from './summary-commands.ts';

export interface CommandRow {
  command: string;
  family: string;
  count: number;
  failures: number;
  failed: boolean;
  seq: number;
}

interface FileRow {
  edits: number;
  reads: number;
  seq: number;
}

const FILE_CAP = 400;
const COMMAND_CAP = 200;

function touches(r: FileRow): number {
  return r.edits * 100 + r.reads;
}

export class ActivityTally {
  private seq = 0;
  private readonly files = new Map<string, FileRow>();
  private readonly commands = new Map<string, CommandRow>();
  // Per command family ("mix test"): did its latest run fail, and which row ran last.
  private readonly familyFailed = new Map<string, boolean>();
  private readonly familyLatest = new Map<string, string>();

  touchFile(path: string, access: 'read' | 'edit'): void {
    let row = this.files.get(path);
    if (!row) {
      if (this.files.size >= FILE_CAP) this.evictFile();
      row = { edits: 0, reads: 0, seq: ++this.seq };
      this.files.set(path, row);
    }
    if (access === 'edit') row.edits++;
    else row.reads++;
  }

  recordCommand(raw: string, failed: boolean, cwd: string | null): void {
    const full = normalizeCommand(raw, cwd);
    if (!full) return;
    const command = displayCommand(full);
    let row = this.commands.get(command);
    if (!row) {
      if (this.commands.size >= COMMAND_CAP) this.evictCommand();
      row = { command, family: commandFamily(full), count: 0, failures: 0, failed: false, seq: ++this.seq };
      this.commands.set(command, row);
    }
    row.count++;
    if (failed) row.failures++;
    row.failed = failed;
    // Delete and re-insert: the maps stay ordered by recency, so the oldest go first.
    this.familyFailed.delete(row.family);
    this.familyFailed.set(row.family, failed);
    this.familyLatest.delete(row.family);
    this.familyLatest.set(row.family, command);
    if (this.familyFailed.size > COMMAND_CAP) this.familyFailed.delete(this.familyFailed.keys().next().value!);
    if (this.familyLatest.size > COMMAND_CAP) this.familyLatest.delete(this.familyLatest.keys().next().value!);
  }

  /** Most-touched files first, listed in first-touch order; `extraEdits` are edits still awaiting their result. */
  rankedFiles(kind: 'edited' | 'read', max: number, extraEdits: readonly string[] = []): string[] {
    const view = new Map<string, FileRow>();
    for (const [k, r] of this.files) view.set(k, { ...r });
    for (const p of extraEdits) {
      const row = view.get(p) ?? { edits: 0, reads: 0, seq: Number.MAX_SAFE_INTEGER };
      view.set(p, { ...row, edits: row.edits + 1 });
    }
    return [...view.entries()]
      .filter(([, r]) => (kind === 'edited' ? r.edits > 0 : r.edits === 0 && r.reads > 0))
      .sort((a, b) => b[1].edits + b[1].reads - (a[1].edits + a[1].reads) || a[1].seq - b[1].seq)
      .slice(0, max)
      .sort((a, b) => a[1].seq - b[1].seq)
      .map(([path]) => path);
  }

  /** The rows worth showing, in the order they were first run. */
  commandRows(max: number): CommandRow[] {
    const hadFailure = new Set<string>();
    for (const r of this.commands.values()) if (r.failures > 0) hadFailure.add(r.family);
    const weight = (r: CommandRow): number =>
      commandWeight(r, {
        stillFailing: this.familyFailed.get(r.family) === true,
        latest: this.familyLatest.get(r.family) === r.command,
        hadFailure: hadFailure.has(r.family),
      });
    return [...this.commands.values()]
      .sort((a, b) => weight(b) - weight(a) || a.seq - b.seq)
      .slice(0, max)
      .sort((a, b) => a.seq - b.seq);
  }

  /** Checks (tests, builds, commits …) whose latest run failed and that no later run of the same check fixed. */
  stillFailing(max: number): CommandRow[] {
    return [...this.commands.values()]
      .filter((r) => r.failed && this.familyFailed.get(r.family) === true && isVerification(r.command))
      .sort((a, b) => b.seq - a.seq)
      .slice(0, max);
  }

  private evictFile(): void {
    let worstKey: string | null = null;
    let worst = Infinity;
    for (const [k, r] of this.files) {
      if (touches(r) < worst) {
        worst = touches(r);
        worstKey = k;
      }
    }
    if (worstKey !== null) this.files.delete(worstKey);
  }

  private evictCommand(): void {
    let worstKey: string | null = null;
    let worst = Infinity;
    for (const [k, r] of this.commands) {
      const w = commandWeight(r);
      if (w < worst) {
        worst = w;
        worstKey = k;
      }
    }
    if (worstKey !== null) this.commands.delete(worstKey);
  }
}
