/** Jest global teardown: stops the run's dev server. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.cairnDevServer?.stop();
}
