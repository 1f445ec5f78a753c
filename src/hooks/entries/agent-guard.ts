// Bundle entry: PreToolUse keeps memory-auditor, echo-reader and signal-discoverer read-only.
import { agentGuard } from '../agent-guard-handler.ts';
import { runHook } from '../run-hook.ts';

runHook('agent-guard', agentGuard);
