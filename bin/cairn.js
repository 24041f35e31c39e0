#!/usr/bin/env node
// The `cairn` command. It runs the CLI compiled (bin/cli-cache.js): one bundle, built from the
// current sources, loaded in this process. When there is no such bundle yet (the first run, or a
// source changed since the last build) it starts a build in the background and runs this once
// from the TypeScript under tsx (a runtime dependency), so a stale build never runs. tsx's loader
// is registered only when a user module the CLI may load (CAIRN_TOOLS, CAIRN_GRAPHS, CAIRN_AGENTS)
// is TypeScript; `--help`, `ls`, `show` and `answer` never load it.
const { spawn, spawnSync } = require('node:child_process');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { currentBundle, userModulesNeedTsx } = require('./cli-cache');

/** Runs `script` in a child node with tsx's loader, and exits with its code. */
function underTsx(script) {
  const loader = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;
  const args = ['--import', loader, script, ...process.argv.slice(2)];
  const result = spawnSync(process.execPath, args, { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}

const bundle = currentBundle();
if (bundle === undefined) {
  // Detached, with no stdio of ours: the build outlives this command and holds none of its pipes.
  spawn(process.execPath, [join(__dirname, 'build-cli.js')], { detached: true, stdio: 'ignore' }).unref();
  underTsx(join(__dirname, '..', 'client', 'cli', 'main.ts'));
} else if (userModulesNeedTsx(process.env)) {
  underTsx(bundle);
} else {
  require(bundle);
}
