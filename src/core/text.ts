// Deterministic string order by code point. Used instead of localeCompare,
// whose first call loads ICU collation data (milliseconds on a hook's hot
// path) and whose order depends on the machine's locale.
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
