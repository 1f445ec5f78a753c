// Stop (every turn end): consolidate findings, keep the session draft current.
// Never blocks the stop and prints nothing that could (stop_hook_active).
import { runHook } from '../run-hook.ts';
import { turnEnd } from '../turn-end.ts';

runHook('stop', 'Stop', (ctx) => turnEnd(ctx, 'stop', true), 12_000);
