// runc reports through logrus lines (`time="..." level=warning msg="..."`), and
// conmon hands runc's stderr back joined with "; ". A failed create usually
// carries warnings from runc's own cleanup ("cannot toggle freezer: cgroups not
// configured for container") before the one error line that says what went
// wrong: the error a user sees keeps the error lines only, the warnings go to
// the debug log.

const WARNING = /\blevel=(warning|warn|info|debug)\b/;
const MESSAGE = /\bmsg="((?:[^"\\]|\\.)*)"/;

export interface RuncOutput {
  /** The text without warning entries; logrus entries reduced to their message. */
  text: string;
  /** The messages of the warning entries, in order. */
  warnings: string[];
}

/** Splits runc output (newline- or conmon's "; "-separated) into its error text and its warnings. */
export function splitRuncWarnings(output: string): RuncOutput {
  const entries = output.split(/\n|;\s*(?=time=")/).map((e) => e.trim().replace(/;$/, '')).filter(Boolean);
  const kept: string[] = [];
  const warnings: string[] = [];
  for (const entry of entries) {
    if (WARNING.test(entry) && MESSAGE.test(entry)) warnings.push(logrusMessage(entry));
    else kept.push(MESSAGE.test(entry) && /\blevel=/.test(entry) ? logrusMessage(entry) : entry);
  }
  // Nothing but warnings: they are all there is to say.
  if (!kept.length) return { text: warnings.join('; '), warnings: [] };
  return { text: kept.join('; '), warnings };
}

function logrusMessage(entry: string): string {
  const raw = MESSAGE.exec(entry)![1]!;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}
