// How much of a tool result is read: its head (exit codes, the first error line) and its end (test
// runners' totals, the last error). The transcript reader keeps these two parts of each result; the
// PostToolUseFailure hook, which is given a failure's whole output, reads the same two, so a failure is
// known by the same line either way. Pure.

export const RESULT_HEAD = 400;
export const RESULT_TAIL = 600;
/**
 * How far a failure is read when its head only says that something failed (`Failed to compile.`): a build
 * prints its progress first, and what failed (`Type error: …`) may follow past the first 400 characters.
 */
export const FAILURE_HEAD = 2000;

/** What follows a failure's head, read only to say what a line that only says it failed was about (see FAILURE_HEAD). */
export function furtherWindow(output: string): string {
  return output.slice(RESULT_HEAD, FAILURE_HEAD);
}

/** The head and the end of a result's text, as capture reads them (bounded: a huge output costs nothing more). */
export function outputWindow(output: string): string {
  return `${output.slice(0, RESULT_HEAD)}\n${output.length > RESULT_TAIL ? output.slice(-RESULT_TAIL) : output}`;
}
