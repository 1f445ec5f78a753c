// Bundle entry: SubagentStart gives a subagent whose type maps to a role that role's memory.
import { runHook } from '../run-hook.ts';
import { subagentStart } from '../subagent-start-handler.ts';

runHook('subagent-start', subagentStart);
