// What `team init`, `team off` and `status` say about team memory: pure text.
import { PERSONAL_PATTERNS, SHARED_DESCRIPTION, shellWord } from '../../core/team/shared-files.ts';
import { plural } from '../../core/text.ts';
import type { MemoryConflict } from '../../store/team/memory-conflicts.ts';
import type { TeamHealth, TeamInitReport, TeamOffReport } from '../../store/team/team-setup.ts';

const list = (items: string[], max = 12) =>
  items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;

export function renderTeamInit(r: TeamInitReport): string {
  const out = ['Team memory is on: shared lessons go through git, session state stays yours.', ''];
  out.push(
    r.switchedOn
      ? '- .claude/rune-config.yml: echoes.version_controlled switched on'
      : '- .claude/rune-config.yml: echoes.version_controlled was already on',
  );
  if (r.gitignoreLineRemoved) out.push('- .gitignore: removed the line .claude/echoes/, so shared memory can be committed');
  out.push(
    `- .claude/echoes/.gitignore: ${r.storeGitignoreWritten ? 'written' : 'already complete'} — personal files are never committed, in either mode:`,
  );
  for (const p of PERSONAL_PATTERNS) out.push(`    ${p.what}`);
  out.push(`- .claude/echoes/.gitattributes: ${r.gitattributesWritten ? 'written' : 'already complete'} — memory files merge by entry`);
  out.push(
    `- git config merge.rune-echoes.driver (this clone only; every clone runs \`rune-echoes team init\` once)${r.driver.previous === null ? '' : r.driver.previous === r.driver.command ? ', unchanged' : ', replaced'}:`,
    `    ${r.driver.command}`,
  );
  if (r.driver.previous !== null && r.driver.previous !== r.driver.command) out.push(`    (was: ${r.driver.previous})`);
  if (r.untracked.length)
    out.push(
      `- no longer tracked by git (committed before; your copies stay on disk): ${list(r.untracked)}`,
      "    a commit put them there, so they are not read as this clone's session state until it writes them again; delete the ones that are not yours",
    );
  if (r.blockedBy.length)
    out.push(
      '',
      `Warning: git still ignores the shared memory files, so nothing would be shared: ${r.blockedBy.join('; ')}.`,
      '  Git cannot re-include a file inside an ignored folder: change a `.claude/` line to `.claude/*` and add `!.claude/echoes/` and `!.claude/rune-config.yml` below it.',
    );
  out.push('', `Shared (${plural(r.shared.length, 'file')} now): ${r.shared.length ? list(r.shared) : 'nothing yet'}`);
  out.push(`Shared from now on: ${SHARED_DESCRIPTION.join('; ')}.`);
  out.push('', `Next: commit it — git add ${r.toCommit.map(shellWord).join(' ')} && git commit -m "Share Rune Echoes memory"`);
  return `${out.join('\n')}\n`;
}

export function renderTeamOff(r: TeamOffReport): string {
  const out = [
    r.switchedOff
      ? 'Team memory is off: echoes.version_controlled switched off in .claude/rune-config.yml.'
      : 'Team memory was already off (echoes.version_controlled is not on).',
  ];
  if (r.gitignoreLineAdded) out.push('- .gitignore: added the line .claude/echoes/, so new memory files stay out of git');
  out.push('- nothing moved on disk: session state was never committed, and your memory files stay where they are');
  out.push(
    "- this clone's merge driver stays, for the memory files git still tracks; before uninstalling the plugin, `git config --remove-section merge.rune-echoes` removes it",
  );
  if (r.stillTracked.length)
    out.push(
      `- git still tracks ${plural(r.stillTracked.length, 'file')} under .claude/echoes/ (the team's copy); changes to them still show in git status.`,
      '  To stop sharing them: git rm -r --cached .claude/echoes && git commit — git then deletes them in the clones that pull it,',
      '  so teammates run `rune-echoes team off` and copy .claude/echoes/ aside first.',
    );
  return `${out.join('\n')}\n`;
}

/** Lines for `status`; empty when team memory is off and nothing needs saying. */
export function renderTeamHealth(h: TeamHealth): string[] {
  if (!h.git) return h.versionControlled ? ['team: version_controlled is on, but this project is not in a git work tree'] : [];
  const personal = h.trackedPersonal.length
    ? [
        `team: git tracks personal files, so a commit put them there (a teammate's, an older store's, a cloned repository's); they are not read while tracked: ${list(h.trackedPersonal)} — delete the ones that are not yours, then run \`rune-echoes team init\``,
      ]
    : [];
  if (!h.versionControlled) {
    return h.tracked > 0
      ? [
          `team: off, but git still tracks ${plural(h.tracked, 'file')} under .claude/echoes/ (they stay shared until git rm -r --cached .claude/echoes)`,
          ...personal,
        ]
      : [];
  }
  const driver = {
    installed: 'installed',
    missing: 'MISSING in this clone — run `rune-echoes team init` once (memory files would merge as plain text and conflict)',
    stale: `BROKEN: ${list(h.driver.missingPaths)} no longer exists — run \`rune-echoes team init\` again`,
    unguarded: "installed without the fallback that keeps a teammate's side if the plugin moves — run `rune-echoes team init` again",
    custom: `custom (${h.driver.command ?? ''})`,
  }[h.driver.state];
  const bypassed = h.bypassed.length
    ? ` — but BYPASSED for ${list(h.bypassed.map((b) => `${b.file} (merge=${b.merge})`))}: a .gitattributes line overrides it; remove that line`
    : '';
  const lines = [`team: on · merge driver: ${driver}${bypassed}`];
  if (!h.attributes) lines.push('team: .claude/echoes/.gitattributes lacks the merge lines — run `rune-echoes team init`');
  if (!h.storeGitignore) lines.push('team: .claude/echoes/.gitignore lacks personal patterns — run `rune-echoes team init`');
  return [...lines, ...personal];
}

export function renderConflicts(conflicts: MemoryConflict[]): string[] {
  return conflicts.map((c) => `conflict: ${c.file}:${c.line} — ${c.message}`);
}
