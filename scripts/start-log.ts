/**
 * `npm start`'s log file, named in its banner: what would otherwise bury Cairn's own lines in
 * its terminal — the embedded Temporal server's output (its WARN lines) and the codec server's
 * audit records. Next to the dev server's data (`.data/` by default, CAIRN_TEMPORAL_DATA_DIR).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { CodecAuditRecord } from '../client/http/routes/codec';
import { createLog, escapeLogLine, type LogSink } from '../client/redacted-log';

/** The open log file. */
export interface StartLog {
  path: string;
  /** Appends one codec audit record, as one JSON line. */
  codecAudit: (record: CodecAuditRecord) => void;
  close: () => Promise<void>;
}

/** Where the log of a dev server keeping its data in `dbFile` goes. */
export const startLogPath = (dbFile: string) => join(dirname(dbFile), 'npm-start.log');

/**
 * Opens (appending) the log file beside `dbFile`. Its audit lines go through the server's
 * redacting log (`secrets` redacted, control characters spelled out), as they did on stdout.
 */
export function openStartLog(dbFile: string, secrets: readonly (string | undefined)[]): StartLog {
  const path = startLogPath(dbFile);
  mkdirSync(dirname(path), { recursive: true });
  const out = createWriteStream(path, { flags: 'a' });
  const write = (line: string) => void out.write(`${escapeLogLine(line)}\n`);
  const sink: LogSink = { out: write, err: write };
  const log = createLog(secrets, sink);
  return {
    path,
    codecAudit: (record) => log.info(JSON.stringify(record)),
    close: () => new Promise<void>((resolve) => out.end(resolve)),
  };
}
