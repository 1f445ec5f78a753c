// Bundle entry: SessionEnd writes EPHEMERAL.md for the next session, then housekeeping.
import { runHook } from '../run-hook.ts';
import { sessionEnd } from '../session-end-handler.ts';

runHook('session-end', sessionEnd);
