// rune-echoes team init | off: share memory through git, or stop (SPEC §3 team mode).
import { EchoesError } from '../../core/errors.ts';
import { teamInit, teamOff } from '../../store/team/team-setup.ts';
import { type Command, printJson } from '../cli-context.ts';
import { renderTeamInit, renderTeamOff } from '../render/render-team.ts';

export const teamCommand: Command = {
  name: 'team',
  summary: 'share memory through git: `team init` (once per clone) installs the merge driver; `team off` stops sharing new files',
  usage: 'rune-echoes team init|off',
  options: {},
  async run(ctx, _values, positionals) {
    const action = positionals[0];
    if (positionals.length !== 1 || (action !== 'init' && action !== 'off'))
      throw new EchoesError('bad-argument', 'team takes one action: init (share memory through git, once per clone) or off');
    if (action === 'off') {
      const report = await teamOff(ctx.paths);
      if (ctx.json) printJson(ctx, report);
      else ctx.io.stdout(renderTeamOff(report));
      return 0;
    }
    const self = ctx.io.self;
    if (!self)
      throw new EchoesError('refused', 'cannot tell where this CLI runs from; run it as rune-echoes or node <plugin>/dist/cli.mjs');
    const report = await teamInit(ctx.paths, self);
    if (ctx.json) printJson(ctx, report);
    else ctx.io.stdout(renderTeamInit(report));
    return 0;
  },
};
