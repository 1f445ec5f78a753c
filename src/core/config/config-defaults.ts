// Config values and defaults, kept apart from the YAML parser so that a hook
// in a project without a config file never loads the YAML library.

export type SessionScope = 'project' | 'user';

/** Recall at the prompt and at a subagent's start (SPEC §8). */
export interface RecallConfig {
  /** UserPromptSubmit recall on or off. */
  onPrompt: boolean;
  /** SubagentStart: a subagent that maps to a role starts with that role's entries. */
  onSubagent: boolean;
  /** PostToolUseFailure: a shell command failing with an error a captured lesson knows gets that lesson. */
  onFailure: boolean;
  /** At most this many items per prompt. */
  maxItems: number;
  /** At most this many tokens (characters ÷ 4) per prompt, wrapper included. */
  maxTokens: number;
  /** How much of the prompt an item must hold to be recalled (see core/recall/prompt-recall.ts). */
  threshold: number;
  /** A subagent's budget. */
  subagentTokens: number;
}

/** Lessons captured from what sessions did (SPEC §6a), kind by kind. */
export interface CaptureConfig {
  commands: boolean;
  fixes: boolean;
  corrections: boolean;
  obstacles: boolean;
}

export interface EchoesConfig {
  versionControlled: boolean;
  sessionScope: SessionScope;
  inject: boolean;
  budgetTokens: number;
  memoryMaxLines: number;
  knowledgeMaxLines: number;
  /** Entries automatic pruning may move out of MEMORY.md files per session; `prune` run by the user has no cap. */
  prunePerSession: number;
  relevanceWindow: number;
  roles: string[];
  ignore: string[];
  renames: Record<string, string>;
  recall: RecallConfig;
  /** Subagent type → role whose memory it starts with (`ward-sentinel: reviewer`). */
  agents: Record<string, string>;
  /** `capture: false` turns all of it off; a mapping turns kinds off. */
  capture: CaptureConfig;
}

export const DEFAULT_CONFIG: Readonly<EchoesConfig> = Object.freeze({
  versionControlled: false,
  sessionScope: 'project',
  inject: true,
  budgetTokens: 1500,
  memoryMaxLines: 150,
  knowledgeMaxLines: 300,
  prunePerSession: 10,
  relevanceWindow: 20,
  roles: ['planner', 'workers', 'reviewer', 'auditor', 'team'],
  ignore: ['**/.env*', '**/*.pem', '**/id_rsa*', '**/secrets/**'],
  renames: {},
  recall: Object.freeze({
    onPrompt: true,
    onSubagent: true,
    onFailure: true,
    maxItems: 3,
    maxTokens: 300,
    threshold: 1.5,
    subagentTokens: 800,
  }),
  agents: {},
  capture: Object.freeze({ commands: true, fixes: true, corrections: true, obstacles: true }),
});

export function defaultConfig(): EchoesConfig {
  return {
    ...DEFAULT_CONFIG,
    roles: [...DEFAULT_CONFIG.roles],
    ignore: [...DEFAULT_CONFIG.ignore],
    renames: {},
    recall: { ...DEFAULT_CONFIG.recall },
    agents: {},
    capture: { ...DEFAULT_CONFIG.capture },
  };
}

/** Whether any kind of capture is on. */
export const captureOn = (config: Pick<EchoesConfig, 'capture'>): boolean => Object.values(config.capture).some(Boolean);
