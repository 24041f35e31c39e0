/**
 * The CLI's one way to the terminal. Everything `cairn` prints — a plan the operator is about to
 * confirm, tool arguments, a model's answer, an error the server echoed, a question at the
 * prompt — can hold text a model, a tool or another person wrote, and a terminal obeys the
 * control sequences in it: ESC/CSI sequences move the cursor and erase lines (a plan could be
 * rewritten on screen before it is confirmed), OSC sets the title or plants a link, BEL rings,
 * CR returns to the line start to overprint it. So every line leaves through here with its control
 * characters spelled out (`\u001b`, `\r`), and the lint forbids any other path to stdout or stderr
 * in client/cli (eslint.config.mjs). The prompts' own drawing (cursor moves, colours) is the
 * prompt library's; every text given to it goes through {@link terminalSafe} (tty-prompter.ts).
 */

/**
 * Control characters a terminal may act on: C0 but newline and tab, DEL, C1 (8-bit CSI, OSC, …),
 * and the bidirectional overrides and isolates that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** JSON's short escapes, so a JSON string stays the same JSON string. */
const SHORT: Record<string, string> = { '\b': '\\b', '\f': '\\f', '\r': '\\r' };

/**
 * `text` with every control character a terminal could act on written out as JSON writes it
 * (`\u001b`, `\r`, `\u009b`, `\u202e`): shown, never obeyed. Newlines and tabs stay. JSON text
 * stays valid and means the same, since these spellings are JSON's own escapes.
 */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Where a line goes. */
export type Channel = 'out' | 'err';

const streams: Record<Channel, NodeJS.WriteStream> = { out: process.stdout, err: process.stderr };

/** Writes `text` made safe, as is (no newline added): for output that builds a line in parts. */
export function write(channel: Channel, text: string): void {
  streams[channel].write(terminalSafe(text));
}

/** Prints one line (or several, joined by newlines) on stdout, made safe. */
export function printLine(text: string): void {
  write('out', `${text}\n`);
}

/** Prints one line on stderr, made safe. */
export function printError(text: string): void {
  write('err', `${text}\n`);
}

/**
 * The raw stream the prompt library draws on. Only tty-prompter.ts takes it, and it passes
 * every text it gives the library through {@link terminalSafe}.
 */
export function promptStream(channel: Channel): NodeJS.WriteStream {
  return streams[channel];
}
