/**
 * The embedded Temporal dev server of `npm run server` and `npm start`: SQLite in the
 * git-ignored `.data/` folder (state survives restarts), gRPC on 7233, Web UI on 8233.
 */
import { join } from 'node:path';
import { ensureTemporalCli, startDevServer, temporalVersion, type DevServer } from './dev-server';

export const EMBEDDED = {
  ip: '127.0.0.1',
  port: 7233,
  uiPort: 8233,
  dbFile: join(__dirname, '..', '.data', 'temporal.db'),
} as const;

/** The embedded Web UI's origin: the codec server answers it cross-origin by default. */
export const EMBEDDED_UI_ORIGIN = `http://${EMBEDDED.ip}:${EMBEDDED.uiPort}`;

/**
 * Starts the embedded dev server, logging which binary runs and where its data lives.
 * @param uiCodecEndpoint the codec server its Web UI decodes payloads with, when encryption is on.
 */
export async function startEmbeddedServer(uiCodecEndpoint?: string): Promise<DevServer> {
  const cli = ensureTemporalCli();
  console.log(`Starting ${temporalVersion(cli)} with data in ${EMBEDDED.dbFile}`);
  return startDevServer({ cli, ...EMBEDDED, ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}) });
}
