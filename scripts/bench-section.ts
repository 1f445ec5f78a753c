// The benchmark scripts that own a section of BENCHMARKS.md write it here: the text between the
// section's start and end markers is replaced, or the section is added at the end of the file.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export function writeBenchSection(file: string, start: string, end: string, section: string): void {
  const old = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const at = old.indexOf(start);
  const stop = old.indexOf(end);
  writeFileSync(
    file,
    at >= 0 && stop > at ? `${old.slice(0, at)}${section}${old.slice(stop + end.length)}` : `${old.trimEnd()}\n\n${section}\n`,
  );
}
