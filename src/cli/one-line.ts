/** An error's text as the CLI prints it, on one line (cli/errors.ts formatError; the fast path too). */
export function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, '; ').trim();
}
