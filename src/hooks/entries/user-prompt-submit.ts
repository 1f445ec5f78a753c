// Bundle entry: UserPromptSubmit (every prompt) carries `/rune:echoes` arguments to the CLI byte for byte, and recalls memory that matches other prompts.
import { runHook } from '../run-hook.ts';
import { userPromptSubmit } from '../user-prompt-handler.ts';

runHook('user-prompt-submit', userPromptSubmit);
