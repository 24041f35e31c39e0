/**
 * The log of the HTTP server and the CLI: every line they print goes through here, and through
 * the secret redactor (config/redact-secrets.ts) on its way — the configured secrets (API tokens,
 * the OpenID Connect client secret, keys) and anything shaped like a credential (bearer tokens,
 * cookies, JWTs, passwords in URLs). An error is printed as its name, message, stack and causes,
 * all redacted, never as an object dump that could carry a request's headers.
 *
 * A log entry reaches its sink one line at a time: the lines are the log's own (a message with
 * its error, each frame of a stack, each cause), so a newline inside a line is the data's. The
 * server's sink ({@link processSink}) writes every line with its control characters spelled out
 * ({@link escapeLogLine}): a request path or an error message holding a NUL, an escape sequence
 * or a newline can neither forge a line of its own nor act on the terminal that shows the log.
 */
import { createRedactor, type Redactor } from '../config/redact-secrets';

/** Where lines go: stdout for information, stderr for errors. Each call is one line of the log. */
export interface LogSink {
  out(line: string): void;
  err(line: string): void;
}

/**
 * Characters no server log line holds raw: C0 (newline and tab included), DEL, C1, the line and
 * paragraph separators, and the bidirectional marks, overrides and isolates that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON's short escapes, for the common ones. */
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/** `line` with every control, separator and bidi character written as JSON writes it (`\n`, `\u0000`, `\u202e`). */
export function escapeLogLine(line: string): string {
  return line.replace(CONTROL, (c) => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The process's own streams, each line escaped: the server's log. */
export const processSink: LogSink = {
  out: (line) => void process.stdout.write(`${escapeLogLine(line)}\n`),
  err: (line) => void process.stderr.write(`${escapeLogLine(line)}\n`),
};

export interface Log {
  /** An information line. */
  info(line: string): void;
  /** An error line: `message`, then the error (name, message, stack, causes). */
  error(message: string, err?: unknown, extraSecrets?: readonly (string | undefined)[]): void;
}

/** A stack's frames: what follows its first line (`name: message`, however many lines the message spans). */
function stackFrames(err: Error): string[] {
  const stack = err.stack ?? '';
  const at = err.message === '' ? -1 : stack.indexOf(err.message);
  const rest = at >= 0 ? stack.slice(at + err.message.length) : stack.slice(Math.max(0, stack.indexOf('\n')));
  return rest.split('\n').filter((line) => line.trim() !== '');
}

/** An error as lines: name and message, the stack's frames, and each cause (at most a few deep). */
export function errorLines(err: unknown, depth = 0): string[] {
  if (!(err instanceof Error)) return [String(err)];
  const head = [`${err.name}: ${err.message}`, ...stackFrames(err)];
  if (err.cause === undefined || depth >= 4) return head;
  const [first = '', ...rest] = errorLines(err.cause, depth + 1);
  return [...head, `caused by: ${first}`, ...rest];
}

/**
 * A log that redacts `secrets` (and credential shapes) from every line. `error` may name more
 * secrets for that line alone: the HTTP server passes the failing request's own token and cookies.
 */
export function createLog(secrets: readonly (string | undefined)[], sink: LogSink = processSink): Log {
  const redact: Redactor = createRedactor(secrets);
  return {
    info: (line) => sink.out(redact(line)),
    error: (message, err, extraSecrets = []) => {
      const once = extraSecrets.length ? createRedactor(extraSecrets) : (t: string) => t;
      const [first = '', ...rest] = err === undefined ? [] : errorLines(err);
      const lines = err === undefined ? [message] : [`${message}: ${first}`, ...rest];
      for (const line of lines) sink.err(redact(once(line)));
    },
  };
}
