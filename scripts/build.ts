/**
 * `npm run build [-- <out dir>]`: the production build, run with plain `node` (no tsx):
 * - the TypeScript compiled to CommonJS (tsconfig.build.json) into `dist/` (or `<out dir>`), so
 *   `node dist/worker/main.js`, `node dist/client/http/main.js`, `node dist/client/cli/main.js`;
 * - the workflow bundle made now with `bundleWorkflowCode` (as Temporal's production sample does),
 *   written beside the compiled worker, which then loads it instead of bundling with webpack at
 *   every start (worker/workflows-path.ts);
 * - the web page's files (client/web), served from beside the compiled server; its rules module
 *   is still bundled by esbuild on first request, now from the compiled workflow code.
 * The out folder is emptied first. Packages are not copied: run it where `node_modules` is
 * found walking up from the out folder (the repository, or the Docker image's /app).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import {
  PRELOAD_MODULES,
  WORKFLOW_BUNDLE_FILE,
  WORKFLOW_INTERCEPTOR_MODULES,
  WORKFLOWS_PATH,
} from '../worker/workflows-path';

const ROOT = join(__dirname, '..');

/** A path as short as it reads clearly: relative below the current folder, else absolute. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === '' || rel.startsWith('..') ? path : rel;
}

async function main(): Promise<void> {
  const outDir = resolve(process.argv[2] ?? join(ROOT, 'dist'));
  const started = Date.now();
  rmSync(outDir, { recursive: true, force: true });

  const tsc = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', outDir],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) throw new Error(`tsc failed (exit ${tsc.status ?? tsc.signal})`);
  const compiled = Date.now();

  // The same bundler options a worker uses when it bundles at start (worker/create-worker.ts).
  const bundle = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    preloadModules: PRELOAD_MODULES,
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    // webpack's module statistics are noise here; its warnings and errors still show.
    logger: new DefaultLogger('WARN'),
  });
  const bundlePath = join(outDir, 'worker', WORKFLOW_BUNDLE_FILE);
  mkdirSync(join(outDir, 'worker'), { recursive: true });
  writeFileSync(bundlePath, bundle.code);
  const bundled = Date.now();

  // The page's files as they are, rules.ts included: esbuild bundles it on first request, its
  // imports resolving to the compiled workflow modules beside it.
  cpSync(join(ROOT, 'client', 'web'), join(outDir, 'client', 'web'), { recursive: true });
  // The version the server and CLI report, and a worker's build id, come from package.json.
  copyFileSync(join(ROOT, 'package.json'), join(outDir, 'package.json'));

  const size = (statSync(bundlePath).size / 1024 / 1024).toFixed(1);
  console.log(
    `Built ${shown(outDir)}: compiled in ${compiled - started} ms, ` +
      `workflow bundle (${size} MiB) in ${bundled - compiled} ms, ${Date.now() - started} ms in all.`,
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
