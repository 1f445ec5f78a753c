// How much of a tool result is read: its head (exit codes, the first error line) and its end (test
// runners' totals, the last error). The transcript reader keeps these two parts of each result; the
// PostToolUseFailure hook, which is given a failure's whole output, reads the same two, so a failure is
// known by the same line either way. Pure.

export const RESULT_HEAD = 400;
export const RESULT_TAIL = 600;

/** The head and the end of a result's text, as capture reads them (bounded: a huge output costs nothing more). */
export function outputWindow(output: string): string {
  return `${output.slice(0, RESULT_HEAD)}\n${output.length > RESULT_TAIL ? output.slice(-RESULT_TAIL) : output}`;
}
