// SessionEnd: EPHEMERAL.md for the next session, usage references,
// consolidation with pruning. Short budget: reads only the transcript tail.
import { runHook } from '../run-hook.ts';
import { sessionEnd } from '../session-end-handler.ts';

// Claude Code gives SessionEnd hooks about 1.5 s in all, whatever hooks.json
// says, unless CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS raises it.
const allowed = Number(process.env.CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS) || 1500;
runHook('session-end', 'SessionEnd', sessionEnd, Math.max(500, allowed - 100));
