// Bundle entry: PreCompact (manual|auto) checkpoints the conversation into an archive log.
import { preCompact } from '../pre-compact-handler.ts';
import { runHook } from '../run-hook.ts';

runHook('pre-compact', preCompact);
