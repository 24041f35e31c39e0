/**
 * `npm run server`: the embedded Temporal dev server only, in the foreground until Ctrl-C, on
 * the ports and data folder of CAIRN_TEMPORAL_PORT, CAIRN_TEMPORAL_UI_PORT and CAIRN_TEMPORAL_DATA_DIR.
 */
import { embeddedUiUrl } from '../config/embedded-server-config';
import { loadConfigOrExit } from '../config/load-config-or-exit';
import { startEmbeddedServer } from './embedded-server';

async function main(): Promise<void> {
  const { embedded } = loadConfigOrExit();
  const server = await startEmbeddedServer(embedded);
  console.log(`Temporal gRPC: ${server.address}`);
  console.log(`Temporal UI:   ${embeddedUiUrl(embedded)}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.process.once('exit', (code) => process.exit(code ?? 1));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
