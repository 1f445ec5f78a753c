// rune-echoes reset: back up, then empty. Without --yes it only says what it would do.

import { resetRole } from '../../store/memory/role-edits.ts';
import { listRoles } from '../../store/memory/role-listing.ts';
import { type Command, printJson, targetRoles } from '../cli-context.ts';

export const resetCommand: Command = {
  name: 'reset',
  summary: "back up and empty a role's MEMORY.md (all roles without a name); needs --yes",
  usage: 'rune-echoes reset [role] --yes',
  options: { yes: { type: 'boolean' } },
  run(ctx, values, positionals) {
    // A named role must exist: `reset nobody --yes` is a typo to report, not a store to create.
    const roles = positionals.length ? positionals.flatMap((r) => targetRoles(ctx, r)) : listRoles(ctx.paths);
    if (values.yes !== true) {
      if (ctx.json) printJson(ctx, { wouldReset: roles, done: false });
      else ctx.io.stdout(`would back up and empty: ${roles.join(', ') || '(no roles)'}; run again with --yes to do it\n`);
      return 0;
    }
    const results = roles.map((role) => ({ role, ...resetRole(ctx.paths, role, ctx.io.now) }));
    if (ctx.json) printJson(ctx, { reset: results, done: true });
    else for (const r of results) ctx.io.stdout(r.backup ? `reset ${r.role}; backup at ${r.backup}\n` : `${r.role}: nothing to reset\n`);
    return 0;
  },
};
