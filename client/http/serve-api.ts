/**
 * Serves the HTTP API for a configuration: used by `npm run web` and `npm start`.
 */
import { serve } from '@hono/node-server';
import type { CairnConfig } from '../../config/config';
import { version } from '../../package.json';
import { AgentClient } from '../agent-client';
import { createApp } from './create-app';
import { allowedHostNames } from './host-guard';

export interface ApiServer {
  url: string;
  close: () => Promise<void>;
}

/** Connects to Temporal and listens on `config.http`. */
export async function serveApi(config: CairnConfig): Promise<ApiServer> {
  const agents = await AgentClient.connect(config);
  const app = createApp({
    version,
    agents,
    allowedHosts: allowedHostNames(config.http.host, config.http.allowedHosts),
    ...(config.http.apiToken !== undefined ? { apiToken: config.http.apiToken } : {}),
    // A round trip to the frontend on the client's own connection (no second connection).
    temporalHealthy: async () => {
      await agents.temporal.workflowService.getSystemInfo({});
      return true;
    },
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.http.port, hostname: config.http.host }, () => resolve(s));
  });
  return {
    url: `http://${config.http.host}:${config.http.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => void agents.close().then(() => resolve()))),
  };
}
