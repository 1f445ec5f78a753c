// Writes small Claude Code JSONL transcripts in the shape the real CLI uses,
// so hook tests control exactly what a session did.
import { appendFileSync } from 'node:fs';

export class TranscriptBuilder {
  private n = 0;
  private minute = 0;
  constructor(
    readonly path: string,
    readonly sessionId: string,
    readonly cwd: string,
    readonly branch = 'main',
  ) {}

  private base(type: string) {
    this.n += 1;
    this.minute += 1;
    const ts = new Date(Date.UTC(2026, 10, 22, 10, this.minute)).toISOString();
    return {
      type,
      uuid: `u-${this.sessionId}-${this.n}`,
      timestamp: ts,
      sessionId: this.sessionId,
      cwd: this.cwd,
      gitBranch: this.branch,
      version: '2.1.30',
    };
  }

  private write(obj: unknown): this {
    appendFileSync(this.path, `${JSON.stringify(obj)}\n`);
    return this;
  }

  user(text: string): this {
    return this.write({ ...this.base('user'), message: { role: 'user', content: text } });
  }

  assistant(text: string): this {
    return this.write({
      ...this.base('assistant'),
      message: { id: `msg_${this.sessionId}_${this.n}`, role: 'assistant', content: [{ type: 'text', text }] },
    });
  }

  tool(name: string, input: Record<string, unknown>, result = 'ok', isError = false): this {
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
}
