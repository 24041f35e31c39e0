/**
 * `npm run web`: the HTTP API on CAIRN_HTTP_PORT, talking to Temporal as configured, with the
 * bearer token from CAIRN_API_TOKEN when set.
 */
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import { serveApi } from './serve-api';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const api = await serveApi(config);
  console.log(
    `Cairn API on ${api.url} (OpenAPI at /api/openapi.json${config.http.apiToken ? ', bearer token required' : ''})`,
  );
  const stop = () => void api.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
