// SubagentStop: consolidate the findings the subagent just wrote.
import { runHook } from '../run-hook.ts';
import { turnEnd } from '../turn-end.ts';

runHook('subagent-stop', 'SubagentStop', (ctx) => turnEnd(ctx, 'subagent-stop', false), 12_000);
