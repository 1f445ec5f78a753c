// Names for temp files and lock tokens that no other process or call can
// repeat: pid, a per-process counter, the time and a little randomness.
// (node:crypto would do, but loading it costs a hook several milliseconds.)
let counter = 0;

export function uniqueSuffix(): string {
  counter += 1;
  return `${process.pid}-${counter}-${Date.now().toString(36)}-${Math.floor(Math.random() * 0x7fffffff).toString(36)}`;
}
