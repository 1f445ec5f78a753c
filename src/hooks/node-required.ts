// What the session's start tells the user when Node.js cannot run the hooks
// (issue 20, item 16): none on PATH (the shell's `||` in hooks.json says it),
// or one older than the bundles need (the start's entry says it).

/** The oldest Node.js major version the bundles are built for. */
export const NODE_MAJOR = 20;

/** Shown to the user (Claude Code's `systemMessage`); no apostrophe, so it sits in single quotes in any shell. */
export const NO_NODE_MESSAGE = `Rune Echoes is off: it needs Node.js ${NODE_MAJOR} or later on PATH. Install it from https://nodejs.org (or: brew install node, apt install nodejs, winget install OpenJS.NodeJS.LTS), then start a new session.`;

/** True when `version` (`process.versions.node`) is older than the bundles need. */
export const nodeTooOld = (version: string): boolean => Number.parseInt(version, 10) < NODE_MAJOR;
