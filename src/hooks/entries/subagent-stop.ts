// Bundle entry: SubagentStop consolidates the findings the subagent just wrote.
import { runHook } from '../run-hook.ts';
import { turnEnd } from '../turn-end.ts';

runHook('subagent-stop', (ctx) => turnEnd(ctx, false));
