// A throwaway plugin named "probe" that tests write into a temp dir to observe
// what Claude Code does: every hook appends its stdin (plus a few env values)
// as one JSON line to a log, SessionStart also returns additionalContext, a
// command uses inline bash, and bin/ holds a script for the Bash tool.

import { chmod } from 'node:fs/promises';
import { join } from 'node:path';
import { readJsonLines, writeTree } from './claude-harness.ts';

export const probeEvents = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'SessionEnd',
] as const;

/** What the SessionStart hook injects; `{source}` is replaced by the hook's source. */
export const probeContextPrefix = '<rune-echoes>PROBE-CONTEXT';
/** What the UserPromptSubmit hook injects for a prompt that contains PROBE-RECALL. */
export const probePromptContext = 'PROBE-PROMPT-CONTEXT';
/** What the PostToolUseFailure hook (Bash only) injects. */
export const probeFailureContext = 'PROBE-FAILURE-CONTEXT';
/** What the SubagentStart hook injects, followed by ` type=<agent_type>`. */
export const probeSubagentContext = 'PROBE-SUBAGENT-CONTEXT';

export interface HookRecord {
  event: string;
  stdin: Record<string, unknown>;
  env: { CLAUDE_PLUGIN_ROOT?: string; CLAUDE_PROJECT_DIR?: string };
  cwd: string;
}

// Plain node so it runs without a build; the log path comes from PROBE_LOG,
// which also proves hooks inherit Claude Code's environment.
const recordScript = `import { appendFileSync } from 'node:fs';
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  let stdin;
  try { stdin = JSON.parse(input); } catch { stdin = { unparsed: input }; }
  const event = process.argv[2];
  const record = {
    event,
    stdin,
    env: { CLAUDE_PLUGIN_ROOT: process.env.CLAUDE_PLUGIN_ROOT, CLAUDE_PROJECT_DIR: process.env.CLAUDE_PROJECT_DIR },
    cwd: process.cwd(),
  };
  appendFileSync(process.env.PROBE_LOG, JSON.stringify(record) + '\\n');
  if (event === 'SessionStart') {
    const additionalContext = '${probeContextPrefix} source=' + stdin.source + '</rune-echoes>';
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } }));
  }
  if (event === 'UserPromptSubmit' && String(stdin.prompt).includes('PROBE-RECALL')) {
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: '${probePromptContext}' } }));
  }
  if (event === 'PostToolUseFailure') {
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'PostToolUseFailure', additionalContext: '${probeFailureContext}' } }));
  }
  if (event === 'SubagentStart') {
    const additionalContext = '${probeSubagentContext} type=' + stdin.agent_type;
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'SubagentStart', additionalContext } }));
  }
  process.exit(0);
});
`;

function hooksJson(): string {
  const hooks: Record<string, unknown> = {};
  for (const event of probeEvents) {
    hooks[event] = [
      {
        // A tool failure is recorded for the shell only, as the plugin's own hook is matched.
        ...(event === 'PostToolUseFailure' ? { matcher: 'Bash' } : {}),
        hooks: [{ type: 'command', command: `node "\${CLAUDE_PLUGIN_ROOT}/hooks/record.mjs" ${event}`, timeout: 10 }],
      },
    ];
  }
  return JSON.stringify({ description: 'probe hooks', hooks }, null, 2);
}

const helloCommand = `---
description: Say hello from the probe plugin
argument-hint: [name]
allowed-tools: Bash(echo:*)
---
Inline output: !\`echo "PROBE-INLINE-OK sum=$((6*7)) root=\${CLAUDE_PLUGIN_ROOT}"\`

Arguments were: $ARGUMENTS
`;

const binScript = `#!/bin/sh
echo "PROBE-BIN-OK args=$*"
`;

/** Writes the plugin into dir (created if needed). */
export async function writeProbePlugin(dir: string): Promise<void> {
  await writeTree(dir, {
    '.claude-plugin/plugin.json': JSON.stringify({ name: 'probe', version: '0.0.1', description: 'Throwaway e2e probe' }, null, 2),
    'hooks/hooks.json': hooksJson(),
    'hooks/record.mjs': recordScript,
    'commands/hello.md': helloCommand,
    'bin/probe-bin': binScript,
  });
  await chmod(join(dir, 'bin/probe-bin'), 0o755);
}

export async function readHookLog(path: string): Promise<HookRecord[]> {
  return (await readJsonLines(path)) as unknown as HookRecord[];
}
