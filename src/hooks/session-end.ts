// SessionEnd: EPHEMERAL.md for the next session, a final archive log, usage
// references, consolidation with pruning. Short budget: reads only the tail.
import { runHook } from './run-hook.ts';
import { sessionEnd } from './session-end-handler.ts';

runHook('session-end', 'SessionEnd', sessionEnd, 8000);
