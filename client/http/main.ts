/**
 * `npm run web`: the HTTP API on CAIRN_HTTP_PORT, talking to Temporal as configured, with the
 * bearer token from CAIRN_API_TOKEN when set.
 */
import { serve } from '@hono/node-server';
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import { AgentClient } from '../agent-client';
import { createApp } from './create-app';
import { version } from '../../package.json';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const agents = await AgentClient.connect(config);
  const app = createApp({
    version,
    agents,
    ...(config.http.apiToken !== undefined ? { apiToken: config.http.apiToken } : {}),
    // A round trip to the frontend on the client's own connection (no second connection).
    temporalHealthy: async () => {
      await agents.temporal.workflowService.getSystemInfo({});
      return true;
    },
  });
  const server = serve({ fetch: app.fetch, port: config.http.port, hostname: config.http.host }, (info) =>
    console.log(
      `Cairn API on http://${config.http.host}:${info.port} (OpenAPI at /api/openapi.json` +
        `${config.http.apiToken ? ', bearer token required' : ''})`,
    ),
  );
  const stop = () => server.close(() => void agents.close().then(() => process.exit(0)));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
