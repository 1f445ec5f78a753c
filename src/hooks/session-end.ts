// SessionEnd: EPHEMERAL.md for the next session, usage references,
// consolidation with pruning. Short budget: reads only the transcript tail.
import { runHook } from './run-hook.ts';
import { sessionEnd } from './session-end-handler.ts';

runHook('session-end', 'SessionEnd', sessionEnd, 8000);
