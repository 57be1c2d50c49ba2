import type { AdminIo } from './command.ts';

/**
 * What an operator's terminal is shown (decision 208): visitors' text reaches it through the admin
 * commands, and a terminal obeys control characters (ESC retitles, clears, draws fake text, makes
 * OSC 8 links; C1 U+009B is a one-byte CSI) and format characters (U+202E reverses what follows).
 * Every such character is written as its `\uXXXX` escape: visible, harmless, and inside `--json`
 * output still valid JSON for the same text. Lone surrogates and the Unicode line and paragraph
 * separators are escaped too.
 */
const UNSAFE_IN_LINE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;
/** A line keeps the command's own layout: its newlines and tabs. */
const LAYOUT = new Set(['\n', '\t']);

const escapeUnit = (unit: number) => `\\u${unit.toString(16).padStart(4, '0')}`;

/** `\u001b`, or for a character beyond U+FFFF its two UTF-16 escapes (as JSON writes them). */
function escapeCharacter(character: string): string {
  let escaped = '';
  for (let i = 0; i < character.length; i++) escaped += escapeUnit(character.charCodeAt(i));
  return escaped;
}

/** One or more output lines as the terminal may show them; the command's newlines and tabs stay. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE_IN_LINE, (character) =>
    LAYOUT.has(character) ? character : escapeCharacter(character),
  );
}

/**
 * A stored value printed inside a line (a table cell, a name after a label): its line breaks and
 * tabs are escaped as well, so a value cannot start a line of its own or shift the columns.
 */
export function terminalField(value: string): string {
  return value.replace(UNSAFE_IN_LINE, escapeCharacter);
}

/** The one output layer of the admin commands: every line they write passes `terminalSafe`. */
export function terminalSafeIo(io: AdminIo): AdminIo {
  return {
    out: (line) => io.out(terminalSafe(line)),
    err: (line) => io.err(terminalSafe(line)),
  };
}
