#!/usr/bin/env node
// The `cairn` command: runs the TypeScript CLI under tsx (a runtime dependency), whose loader
// also lets user tool modules written in TypeScript load.
const { spawnSync } = require('node:child_process');
const { dirname, join } = require('node:path');
const { pathToFileURL } = require('node:url');

const loader = pathToFileURL(join(dirname(require.resolve('tsx/package.json')), 'dist', 'loader.mjs')).href;
const main = join(__dirname, '..', 'client', 'cli', 'main.ts');
const result = spawnSync(process.execPath, ['--import', loader, main, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(result.status ?? 1);
