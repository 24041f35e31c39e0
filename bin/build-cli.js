#!/usr/bin/env node
// Builds the compiled CLI into its cache (bin/cli-cache.js); bin/cairn.js starts this in the
// background when the sources have no build yet. Prints the bundle's path, or why there is none.
const { buildBundle } = require('./cli-cache');

buildBundle().then(
  (bundle) => process.stdout.write(`${bundle ?? 'another build is under way'}\n`),
  (err) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
