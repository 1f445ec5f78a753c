// A read-only view of one POST /v1/messages body, with the questions scenario
// rules and assertions ask most: what did the user type, which tool results
// came back, what is in the system prompt. Claude Code sends content either as
// a string or as an array of blocks, and (2.1.x) may also send `role: "system"`
// messages between user turns; the helpers hide those differences.

export interface ContentBlock {
  type: string;
  text?: string;
  name?: string;
  id?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

export interface WireMessage {
  role: string;
  content: string | ContentBlock[];
}

export interface ToolResult {
  toolUseId: string;
  /** The tool's name, found from the matching tool_use earlier in the conversation. */
  toolName: string | undefined;
  text: string;
  isError: boolean;
}

export class MessagesCall {
  readonly seq: number;
  readonly body: Record<string, unknown>;

  constructor(seq: number, body: unknown) {
    this.seq = seq;
    this.body = body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  }

  get model(): string {
    return typeof this.body.model === 'string' ? this.body.model : '';
  }

  get stream(): boolean {
    return this.body.stream === true;
  }

  get messages(): WireMessage[] {
    return Array.isArray(this.body.messages) ? (this.body.messages as WireMessage[]) : [];
  }

  /** Names of the tools offered to the model. */
  get toolNames(): string[] {
    const tools = Array.isArray(this.body.tools) ? (this.body.tools as { name?: string }[]) : [];
    return tools.flatMap((t) => (typeof t.name === 'string' ? [t.name] : []));
  }

  /** The `system` field as one string (blocks joined by newlines). */
  get systemText(): string {
    const system = this.body.system;
    if (typeof system === 'string') return system;
    if (Array.isArray(system)) return blocksText(system as ContentBlock[]);
    return '';
  }

  /** Everything the model can read: system, every message's text and tool results. */
  get allText(): string {
    return [this.systemText, ...this.messages.map((m) => messageText(m, true))].join('\n');
  }

  /**
   * Text of the `role: "system"` messages. Claude Code 2.1.x puts the
   * environment block and hook additionalContext there, not in `system`.
   */
  get systemMessagesText(): string {
    return this.messages
      .filter((m) => m.role === 'system')
      .map((m) => messageText(m, false))
      .join('\n');
  }

  /**
   * The last user/assistant message, when it is a user message. Trailing
   * `role: "system"` messages (e.g. context added on resume) are skipped.
   */
  get lastUserMessage(): WireMessage | undefined {
    const last = this.messages.filter((m) => m.role !== 'system').at(-1);
    return last?.role === 'user' ? last : undefined;
  }

  /** Text blocks of the last user message (includes <system-reminder> blocks). */
  get lastUserText(): string {
    const last = this.lastUserMessage;
    return last ? messageText(last, false) : '';
  }

  /**
   * Index of the message holding the current human turn: the last user message
   * that carries text but no tool_result. Tool-loop turns come after it.
   */
  get promptIndex(): number {
    for (let i = this.messages.length - 1; i >= 0; i--) {
      const m = this.messages[i]!;
      if (m.role !== 'user') continue;
      const blocks = asBlocks(m.content);
      if (blocks.some((b) => b.type === 'tool_result')) continue;
      if (blocks.some((b) => b.type === 'text')) return i;
    }
    return -1;
  }

  /** The text the human (or a slash command expansion) sent this turn, without system reminders. */
  get promptText(): string {
    const m = this.messages[this.promptIndex];
    if (!m) return '';
    return asBlocks(m.content)
      .filter((b) => b.type === 'text' && !isSystemReminder(b.text ?? ''))
      .map((b) => b.text ?? '')
      .join('\n');
  }

  /** Tool results in the last user message (the answer to the previous tool_use turn). */
  get toolResults(): ToolResult[] {
    const last = this.lastUserMessage;
    if (!last) return [];
    return asBlocks(last.content)
      .filter((b) => b.type === 'tool_result')
      .map((b) => ({
        toolUseId: b.tool_use_id ?? '',
        toolName: this.toolUseName(b.tool_use_id ?? ''),
        text: typeof b.content === 'string' ? b.content : blocksText(asBlocks(b.content as ContentBlock[])),
        isError: b.is_error === true,
      }));
  }

  /** Tool uses the assistant made since the current human turn, in order. */
  get toolUsesThisTurn(): ContentBlock[] {
    return this.messages
      .slice(this.promptIndex + 1)
      .filter((m) => m.role === 'assistant')
      .flatMap((m) => asBlocks(m.content).filter((b) => b.type === 'tool_use'));
  }

  private toolUseName(id: string): string | undefined {
    for (const m of this.messages) {
      for (const b of asBlocks(m.content)) if (b.type === 'tool_use' && b.id === id) return b.name;
    }
    return undefined;
  }
}

export function asBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as ContentBlock[]) : [];
}

export function isSystemReminder(text: string): boolean {
  return text.trimStart().startsWith('<system-reminder>');
}

function blocksText(blocks: ContentBlock[]): string {
  return blocks.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n');
}

function messageText(m: WireMessage, withToolResults: boolean): string {
  return asBlocks(m.content)
    .map((b) => {
      if (typeof b.text === 'string') return b.text;
      if (withToolResults && b.type === 'tool_result') {
        return typeof b.content === 'string' ? b.content : blocksText(asBlocks(b.content));
      }
      if (withToolResults && b.type === 'tool_use') return JSON.stringify(b.input);
      return '';
    })
    .join('\n');
}

/** Every tool result sent back to the model across these requests, once each, in order. */
export function collectToolResults(calls: MessagesCall[]): ToolResult[] {
  const seen = new Set<string>();
  const results: ToolResult[] = [];
  for (const call of calls) {
    for (const result of call.toolResults) {
      if (seen.has(result.toolUseId)) continue;
      seen.add(result.toolUseId);
      results.push(result);
    }
  }
  return results;
}
