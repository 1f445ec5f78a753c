// SessionStart (startup|resume|clear|compact): hand the last session to this one.
import { runHook } from '../run-hook.ts';
import { sessionStart } from '../session-start-handler.ts';

runHook('session-start', 'SessionStart', sessionStart, 8000);
