// Which files are settings rather than code (SPEC §6a): a fix made only in
// them (a CI workflow's Node versions, a tool's config, a dependency in the
// manifest) is a fact about how the project and its tools are set up, worth a
// lesson; a fix in the code an error pointed at is ordinary work. Decided by
// the file's name alone. Pure.

// Files of settings by their whole name: manifests, tool versions, containers, build files.
const CONFIG_NAMES =
  /^(?:package\.json|(?:ts|js)config(?:\.[\w-]+)?\.json|composer\.json|deno\.jsonc?|vercel\.json|netlify\.toml|turbo\.json|nx\.json|app\.json|manifest\.json|renovate\.json|firebase\.json|cargo\.toml|pyproject\.toml|setup\.cfg|pipfile|gemfile|go\.mod|build\.gradle(?:\.kts)?|pom\.xml|makefile|justfile|procfile|dockerfile(?:\.[\w-]+)?|\.editorconfig|\.tool-versions|\.nvmrc|\.node-version|\.python-version|\.ruby-version|requirements[\w-]*\.txt)$/i;
// Files of settings by their form: dot-rc files, settings formats, `*.config.*`, `*rc.json`.
const CONFIG_FORMS =
  /^\.[\w.-]*rc(?:\.\w+)?$|\.(?:ya?ml|toml|ini|cfg|conf)$|^[\w-]+\.config\.[cm]?[jt]s$|^(?:[\w-]+\.)?(?:config|settings)\.jsonc?$|rc\.jsonc?$/i;
// Lock files are written by tools, and `.env` files hold secrets: neither is a setting to write down.
const NEVER =
  /^(?:package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|cargo\.lock|poetry\.lock|gemfile\.lock|composer\.lock|go\.sum)$|^\.env(?:\.|$)/i;

/** The file holds settings (of the project, a tool, CI, the shell), not code: judged by its name and folder. */
export function isConfigFile(path: string): boolean {
  const parts = path.split(/[\\/]/).filter(Boolean);
  const name = parts[parts.length - 1] ?? '';
  if (!name || NEVER.test(name)) return false;
  if (parts.includes('.github') && /\.ya?ml$/i.test(name)) return true;
  return CONFIG_NAMES.test(name) || CONFIG_FORMS.test(name);
}
