/**
 * `npm run web`: the HTTP API on CAIRN_HTTP_PORT, talking to Temporal as configured.
 */
import { serve } from '@hono/node-server';
import { Connection } from '@temporalio/client';
import { loadConfigOrExit } from '../../config/load-config-or-exit';
import { connectionOptions } from '../../config/temporal-connection';
import { createApp } from './create-app';
import { version } from '../../package.json';

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const connection = await Connection.connect(connectionOptions(config.temporal));
  const app = createApp({
    version,
    temporalHealthy: async () => {
      await connection.healthService.check({});
      return true;
    },
  });
  const server = serve({ fetch: app.fetch, port: config.http.port, hostname: config.http.host }, (info) =>
    console.log(`Cairn API on http://${config.http.host}:${info.port} (OpenAPI at /api/openapi.json)`),
  );
  const stop = () => server.close(() => void connection.close().then(() => process.exit(0)));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
