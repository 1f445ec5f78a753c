// Writes small Claude Code JSONL transcripts in the shape the real CLI uses,
// so hook tests control exactly what a session did.
import { appendFileSync } from 'node:fs';

export class TranscriptBuilder {
  private n = 0;
  private minute = 0;
  /** The folder the next lines record as `cwd`: Claude Code writes the shell's folder, which moves after a `cd`. */
  private dir: string;
  constructor(
    readonly path: string,
    readonly sessionId: string,
    readonly cwd: string,
    readonly branch = 'main',
  ) {
    this.dir = cwd;
  }

  private base(type: string) {
    this.n += 1;
    this.minute += 1;
    const ts = new Date(Date.UTC(2026, 10, 22, 10, this.minute)).toISOString();
    return {
      type,
      uuid: `u-${this.sessionId}-${this.n}`,
      timestamp: ts,
      sessionId: this.sessionId,
      cwd: this.dir,
      gitBranch: this.branch,
      version: '2.1.30',
    };
  }

  private write(obj: unknown): this {
    appendFileSync(this.path, `${JSON.stringify(obj)}\n`);
    return this;
  }

  /** Later lines record `dir` as their cwd (after a `cd dir` in the shell). */
  in(dir: string): this {
    this.dir = dir;
    return this;
  }

  user(text: string): this {
    return this.write({ ...this.base('user'), message: { role: 'user', content: text } });
  }

  /** Text Claude Code injects as a user turn (a slash command's expansion, a skill body). */
  meta(text: string): this {
    return this.write({ ...this.base('user'), isMeta: true, message: { role: 'user', content: text } });
  }

  /** A slash command as the user typed it, then its expansion. */
  slash(name: string, args: string, expansion?: string): this {
    const text = `<command-message>${name} is running…</command-message>\n<command-name>/${name}</command-name>\n<command-args>${args}</command-args>`;
    this.write({ ...this.base('user'), message: { role: 'user', content: text } });
    return expansion ? this.meta(expansion) : this;
  }

  /** The summary that opens a compacted conversation. */
  compactSummary(text: string): this {
    return this.write({ ...this.base('user'), isCompactSummary: true, message: { role: 'user', content: text } });
  }

  assistant(text: string): this {
    return this.write({
      ...this.base('assistant'),
      message: { id: `msg_${this.sessionId}_${this.n}`, role: 'assistant', content: [{ type: 'text', text }] },
    });
  }

  /** A tool call and its result: text, or content blocks as an MCP tool returns them. */
  tool(name: string, input: Record<string, unknown>, result: string | Array<{ type: 'text'; text: string }> = 'ok', isError = false): this {
    const id = `toolu_${this.sessionId}_${this.n}`;
    this.write({
      ...this.base('assistant'),
      message: { id: `msg_${this.sessionId}_${this.n}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
    });
    return this.write({
      ...this.base('user'),
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }] },
    });
  }

  /** A Bash call; `exitCode` other than 0 makes it fail as Claude Code records it. */
  bash(command: string, exitCode = 0, output = ''): this {
    return exitCode === 0
      ? this.tool('Bash', { command }, output)
      : this.tool('Bash', { command }, `Exit code ${exitCode}\n${output}`, true);
  }

  /** A TodoWrite of the whole list: [content, status] pairs. */
  todos(items: Array<[string, 'pending' | 'in_progress' | 'completed']>): this {
    const todos = items.map(([content, status]) => ({ content, status, activeForm: content }));
    return this.tool('TodoWrite', { todos }, 'Todos have been modified successfully.');
  }
}
