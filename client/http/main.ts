/**
 * `npm run web`: the HTTP API on CAIRN_HTTP_PORT, talking to Temporal as configured, with the
 * authentication of CAIRN_AUTH (docs/operations.md#authentication-and-roles).
 */
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import { serveApi, serverLog } from './serve-api';

const config = loadConfigOrExit();
const log = serverLog(config);

async function main(): Promise<void> {
  const api = await serveApi(config, log);
  log.info(`Cairn API on ${api.url} (OpenAPI at /api/openapi.json, authentication: ${config.auth.mode})`);
  const stop = () => void api.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  // A refusal to start (authentication off on a public address, a bad tokens file) is one line.
  log.error(err instanceof Error ? `cairn web: ${err.message}` : 'cairn web', err instanceof Error ? undefined : err);
  process.exit(1);
});
