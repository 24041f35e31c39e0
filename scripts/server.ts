/**
 * `npm run server`: the embedded Temporal dev server only, in the foreground until Ctrl-C.
 */
import { EMBEDDED, startEmbeddedServer } from './embedded-server';

async function main(): Promise<void> {
  const server = await startEmbeddedServer();
  console.log(`Temporal gRPC: ${server.address}`);
  console.log(`Temporal UI:   http://${EMBEDDED.ip}:${EMBEDDED.uiPort}`);
  const stop = () => void server.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  server.process.once('exit', (code) => process.exit(code ?? 1));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
