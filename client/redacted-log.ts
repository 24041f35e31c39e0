/**
 * The log of the HTTP server and the CLI: every line they print goes through here, and through
 * the secret redactor (config/redact-secrets.ts) on its way — the configured secrets (API tokens,
 * the OpenID Connect client secret, keys) and anything shaped like a credential (bearer tokens,
 * cookies, JWTs, passwords in URLs). An error is printed as its name, message, stack and causes,
 * all redacted, never as an object dump that could carry a request's headers.
 */
import { createRedactor, type Redactor } from '../config/redact-secrets';

/** Where lines go: stdout for information, stderr for errors. */
export interface LogSink {
  out(line: string): void;
  err(line: string): void;
}

/** The process's own streams. */
export const processSink: LogSink = {
  out: (line) => void process.stdout.write(`${line}\n`),
  err: (line) => void process.stderr.write(`${line}\n`),
};

export interface Log {
  /** An information line. */
  info(line: string): void;
  /** An error line: `message`, then the error (name, message, stack, causes). */
  error(message: string, err?: unknown, extraSecrets?: readonly (string | undefined)[]): void;
}

/** An error as text: name and message, the stack, and each cause (at most a few deep). */
export function errorText(err: unknown, depth = 0): string {
  if (!(err instanceof Error)) return String(err);
  const head = err.stack ?? `${err.name}: ${err.message}`;
  if (err.cause === undefined || depth >= 4) return head;
  return `${head}\ncaused by: ${errorText(err.cause, depth + 1)}`;
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
      const text = err === undefined ? message : `${message}: ${errorText(err)}`;
      const once = extraSecrets.length ? createRedactor(extraSecrets) : (t: string) => t;
      sink.err(redact(once(text)));
    },
  };
}
