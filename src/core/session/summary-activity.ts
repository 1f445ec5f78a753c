// Tallies of files touched and commands run, bounded while they grow: a long
// session may touch thousands of paths, and only the most-used few are shown.

import { commandWeight } from './summary-commands.ts';

export interface CommandRow {
  command: string;
  family: string;
  count: number;
  failures: number;
  failed: boolean;
  /** A check (test, build, commit …): a failure another run settles reads differently. */
  check: boolean;
  /** When it was first run, and last run. */
  seq: number;
  last: number;
}

interface FileRow {
  edits: number;
  reads: number;
  seq: number;
  /** When the file was first edited: edited files are listed in that order, so parts merge in the order the whole has. */
  editSeq: number;
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
      row = { edits: 0, reads: 0, seq: ++this.seq, editSeq: 0 };
      this.files.set(path, row);
    }
    if (access === 'edit') {
      if (row.edits === 0) row.editSeq = ++this.seq;
      row.edits++;
    } else row.reads++;
  }

  /**
   * One run of a command, as the summary shows it (as typed, cut to length), and its family ("mix test").
   * Runs that differ only in what was piped or redirected (`key`) share a row, shown as the latest was typed.
   */
  recordCommand(command: string, family: string, failed: boolean, check = false, key = command): void {
    if (!command) return;
    let row = this.commands.get(key);
    if (!row) {
      if (this.commands.size >= COMMAND_CAP) this.evictCommand();
      row = { command, family, count: 0, failures: 0, failed: false, check, seq: ++this.seq, last: 0 };
      this.commands.set(key, row);
    }
    row.last = ++this.seq;
    row.command = command;
    row.count++;
    if (failed) row.failures++;
    row.failed = failed;
    // Delete and re-insert: the maps stay ordered by recency, so the oldest go first.
    this.familyFailed.delete(row.family);
    this.familyFailed.set(row.family, failed);
    this.familyLatest.delete(row.family);
    this.familyLatest.set(row.family, key);
    if (this.familyFailed.size > COMMAND_CAP) this.familyFailed.delete(this.familyFailed.keys().next().value!);
    if (this.familyLatest.size > COMMAND_CAP) this.familyLatest.delete(this.familyLatest.keys().next().value!);
  }

  /** Most-touched files first, listed in the order they were first edited (or read). */
  rankedFiles(kind: 'edited' | 'read', max: number): string[] {
    const order = (r: FileRow) => (kind === 'edited' ? r.editSeq : r.seq);
    return [...this.files.entries()]
      .filter(([, r]) => (kind === 'edited' ? r.edits > 0 : r.edits === 0 && r.reads > 0))
      .sort((a, b) => b[1].edits + b[1].reads - (a[1].edits + a[1].reads) || order(a[1]) - order(b[1]))
      .slice(0, max)
      .sort((a, b) => order(a[1]) - order(b[1]))
      .map(([path]) => path);
  }

  /** The rows worth showing (of those weighing the same, the latest run), in the order they were first run. */
  commandRows(max: number): CommandRow[] {
    const hadFailure = new Set<string>();
    for (const r of this.commands.values()) if (r.failures > 0) hadFailure.add(r.family);
    const keyOf = new Map([...this.commands].map(([k, r]) => [r, k]));
    const weight = (r: CommandRow): number =>
      commandWeight(r, {
        stillFailing: this.familyFailed.get(r.family) === true,
        latest: this.familyLatest.get(r.family) === keyOf.get(r),
        hadFailure: hadFailure.has(r.family),
      });
    return [...this.commands.values()]
      .sort((a, b) => weight(b) - weight(a) || b.last - a.last)
      .slice(0, max)
      .sort((a, b) => a.seq - b.seq);
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
