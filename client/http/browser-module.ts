/**
 * Serves TypeScript to the browser without a build step: a module and everything it imports
 * are bundled by esbuild (the bundler tsx itself runs on) into one ES module, in memory, on
 * first request. This is how the web page runs the workflows' own rules (client/web/rules.ts)
 * rather than a copy of them.
 */
import { join, relative } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = join(__dirname, '..', '..');

const built = new Map<string, string>();

/**
 * The browser ES module bundled from `entry` (an absolute path), built once per process.
 * Throws when the module does not bundle.
 */
export function browserModule(entry: string): string {
  const cached = built.get(entry);
  if (cached !== undefined) return cached;
  // Synchronous: a one-off of a few milliseconds, and no esbuild service left running.
  const result = buildSync({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    banner: { js: `// Bundled from ${relative(ROOT, entry)} by the Cairn server: edit that file, not this.` },
  });
  const code = result.outputFiles[0]?.text;
  if (code === undefined) throw new Error(`esbuild produced no output for ${entry}`);
  built.set(entry, code);
  return code;
}
