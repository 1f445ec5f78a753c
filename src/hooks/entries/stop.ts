// Bundle entry: Stop (every turn end) consolidates findings and keeps the session draft.
// Never blocks the stop and prints nothing that could (stop_hook_active).
import { runHook } from '../run-hook.ts';
import { turnEnd } from '../turn-end.ts';

runHook('stop', (ctx) => turnEnd(ctx, true));
