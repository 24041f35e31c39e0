/**
 * The compiled CLI (bin/cli-cache.js, bin/cairn.js): a bundle runs only while every source it was
 * built from is unchanged, modules keep their own `__dirname`, tsx is needed only for a TypeScript
 * user module, and `cairn --help` runs the bundle in its own process without tsx or the Temporal
 * client. (Start-up times: the CLI start-up benchmark in bench/run.ts.)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildBundle, cacheLayout, currentBundle, userModulesNeedTsx } from '../../bin/cli-cache';

const ROOT = join(__dirname, '..', '..');

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cairn-cli-cache-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src', 'dep.ts'), `export const value: string = 'first';\n`);
  writeFileSync(
    join(root, 'src', 'main.ts'),
    `import { value } from './dep';\nprocess.stdout.write(JSON.stringify({ value, dir: __dirname }));\n`,
  );
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const ran = (bundle: string): unknown => JSON.parse(execFileSync(process.execPath, [bundle], { encoding: 'utf8' }));

test('a build runs only while each of its sources is as it was; a changed source names a new build', async () => {
  const cache = cacheLayout(root);
  expect(currentBundle(cache)).toBeUndefined();
  const first = await buildBundle(cache, join('src', 'main.ts'));
  expect(first).toBeDefined();
  expect(currentBundle(cache)).toBe(first);
  // The bundle lives under .cache, but the module sees the folder of its source.
  expect(ran(first!)).toEqual({ value: 'first', dir: join(root, 'src') });

  writeFileSync(join(root, 'src', 'dep.ts'), `export const value: string = 'second';\n`);
  expect(currentBundle(cache)).toBeUndefined();

  const second = await buildBundle(cache, join('src', 'main.ts'));
  expect(second).not.toBe(first);
  expect(currentBundle(cache)).toBe(second);
  expect(ran(second!)).toEqual({ value: 'second', dir: join(root, 'src') });
  expect(existsSync(dirname(first!))).toBe(false);
});

test('a source that is gone means no build', async () => {
  const cache = cacheLayout(root);
  await buildBundle(cache, join('src', 'main.ts'));
  rmSync(join(root, 'src', 'dep.ts'));
  expect(currentBundle(cache)).toBeUndefined();
});

test('another build holding the lock is left to finish', async () => {
  const cache = cacheLayout(root);
  mkdirSync(cache.dir, { recursive: true });
  writeFileSync(cache.lock, '1');
  expect(await buildBundle(cache, join('src', 'main.ts'))).toBeUndefined();
  expect(currentBundle(cache)).toBeUndefined();
});

test('only a TypeScript user module needs tsx', () => {
  expect(userModulesNeedTsx({})).toBe(false);
  expect(userModulesNeedTsx({ CAIRN_TOOLS: 'tools/a.js, tools/b.mjs', CAIRN_GRAPHS: 'g.js' })).toBe(false);
  expect(userModulesNeedTsx({ CAIRN_TOOLS: 'tools/a.js, tools/b.ts ' })).toBe(true);
  expect(userModulesNeedTsx({ CAIRN_GRAPHS: 'examples/graphs/index.ts' })).toBe(true);
  expect(userModulesNeedTsx({ CAIRN_AGENTS: 'agents.mts' })).toBe(true);
});

test('`cairn --help` runs the current build in its own process, loading neither tsx nor the Temporal client', async () => {
  const cache = cacheLayout(ROOT);
  // Another `cairn` may be building it: then wait for that build (each check reads the sources).
  let bundle = currentBundle(cache) ?? (await buildBundle(cache));
  for (const until = Date.now() + 60_000; bundle === undefined && Date.now() < until;)
    bundle = await new Promise<string | undefined>((resolve) => setImmediate(() => resolve(currentBundle(cache))));
  expect(bundle).toBeDefined();

  const record = join(root, 'loaded.json');
  const recorder = join(root, 'record-loaded.js');
  writeFileSync(
    recorder,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(record)}, JSON.stringify(Object.keys(require.cache))));\n`,
  );
  const help = execFileSync(process.execPath, ['--require', recorder, join(ROOT, 'bin', 'cairn.js'), '--help'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(help).toContain('Usage: cairn');
  const loaded = JSON.parse(readFileSync(record, 'utf8')) as string[];
  expect(loaded).toContain(bundle);
  expect(loaded.filter((path) => /node_modules[/\\](tsx|@temporalio|zod)[/\\]/.test(path))).toEqual([]);
});
