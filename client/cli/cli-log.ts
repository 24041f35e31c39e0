/**
 * The CLI's error lines, through the redacting log (client/redacted-log.ts): the token it sends
 * (CAIRN_TOKEN) and the other secrets of its environment never reach the terminal, even when an
 * error repeats them — a server's message, a URL with credentials in it — and no control
 * sequence in such a message reaches it either (terminal.ts).
 */
import { createLog, type Log, type LogSink } from '../redacted-log';
import { printError, printLine } from './terminal';

/** The secrets a `cairn` process may hold, from its environment. */
const SECRET_VARIABLES = [
  'CAIRN_TOKEN',
  'CAIRN_API_TOKEN',
  'CAIRN_OIDC_CLIENT_SECRET',
  'OPENAI_API_KEY',
  'TEMPORAL_API_KEY',
] as const;

/** Lines to the terminal with their control characters spelled out (terminal.ts), after redaction. */
const terminalSink: LogSink = { out: printLine, err: printError };

/** The log of a `cairn` process with `env`. */
export function cliLog(env: Record<string, string | undefined> = process.env): Log {
  return createLog(
    SECRET_VARIABLES.map((name) => env[name]),
    terminalSink,
  );
}
