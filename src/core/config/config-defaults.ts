// Config values and defaults, kept apart from the YAML parser so that a hook
// in a project without a config file never loads the YAML library.

export type SessionScope = 'project' | 'user';

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
});

export function defaultConfig(): EchoesConfig {
  return { ...DEFAULT_CONFIG, roles: [...DEFAULT_CONFIG.roles], ignore: [...DEFAULT_CONFIG.ignore], renames: {} };
}
