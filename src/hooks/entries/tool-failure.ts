// Bundle entry: PostToolUseFailure (a shell command failed) gives the captured lesson that knows its error, if one does.
import { runHook } from '../run-hook.ts';
import { toolFailure } from '../tool-failure-handler.ts';

runHook('tool-failure', toolFailure);
