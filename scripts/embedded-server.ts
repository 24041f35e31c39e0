/**
 * The embedded Temporal dev server of `npm run server` and `npm start`: SQLite in the
 * git-ignored `.data/` folder (state survives restarts), gRPC on 7233, Web UI on 8233 — each
 * movable (CAIRN_TEMPORAL_DATA_DIR, CAIRN_TEMPORAL_PORT, CAIRN_TEMPORAL_UI_PORT;
 * config/embedded-server-config.ts).
 */
import type { EmbeddedServerSettings } from '../config/embedded-server-config';
import { ensureTemporalCli, startDevServer, temporalVersion, type DevServer } from './dev-server';

/**
 * Starts the embedded dev server, logging which binary runs and where its data lives.
 * @param cli the `temporal` binary; found or installed (scripts/ensure-temporal.sh) when absent.
 * @param uiCodecEndpoint the codec server its Web UI decodes payloads with, when encryption is on.
 * @param logFile where its output goes (appended); the terminal's stderr when absent.
 */
export async function startEmbeddedServer(
  settings: EmbeddedServerSettings,
  options: { cli?: string; uiCodecEndpoint?: string; logFile?: string } = {},
): Promise<DevServer> {
  const cli = options.cli ?? ensureTemporalCli();
  console.log(`Starting ${temporalVersion(cli)} with data in ${settings.dbFile}`);
  const { uiCodecEndpoint, logFile } = options;
  return startDevServer({
    cli,
    ...settings,
    ...(uiCodecEndpoint ? { uiCodecEndpoint } : {}),
    ...(logFile ? { logFile } : {}),
  });
}
