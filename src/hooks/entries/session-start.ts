// Bundle entry: SessionStart (startup|resume|clear|compact) hands the last session to this one.
// A Node.js too old for the bundles is told so, once, instead (hooks.json's `||` covers none at all).
import { NO_NODE_MESSAGE, nodeTooOld } from '../node-required.ts';
import { runHook } from '../run-hook.ts';
import { sessionStart } from '../session-start-handler.ts';

if (nodeTooOld(process.versions.node)) process.stdout.write(`${JSON.stringify({ systemMessage: NO_NODE_MESSAGE })}\n`);
else runHook('session-start', sessionStart);
