// Bundle entry: SessionStart (startup|resume|clear|compact) hands the last session to this one.
import { runHook } from '../run-hook.ts';
import { sessionStart } from '../session-start-handler.ts';

runHook('session-start', sessionStart);
