// @ts-check
// The compiled CLI: client/cli/main.ts and what it imports bundled by esbuild into one CommonJS
// file (packages left as `require`s), cached under `.cache/cairn-cli/<hash>/cli.js`. The hash
// is taken over the bytes of every source the bundle was built from, so a bundle runs only while
// each of those files is as it was: change one and the hash names a build that does not exist yet.
// Plain JavaScript, so that `bin/cairn.js` needs no compiler to find it.
const { createHash } = require('node:crypto');
const {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} = require('node:fs');
const { dirname, join, relative, sep } = require('node:path');

/** The layout of a cache: the list of the last build's sources, and one folder per build. */
function cacheLayout(root = join(__dirname, '..')) {
  const dir = join(root, '.cache', 'cairn-cli');
  return { root, dir, inputs: join(dir, 'inputs.json'), lock: join(dir, 'building.lock') };
}

/**
 * The key of a build from its sources: this folder, the esbuild version and how this file builds,
 * and each source's path and bytes.
 * @param {string} root
 * @param {ReadonlyArray<{ path: string; bytes: Buffer }>} sources paths relative to `root`
 */
function buildKey(root, sources) {
  const hash = createHash('sha256');
  hash.update(`${root}\0${require('esbuild/package.json').version}\0`);
  hash.update(readFileSync(join(__dirname, 'cli-cache.js')));
  for (const { path, bytes } of [...sources].sort((a, b) => a.path.localeCompare(b.path))) {
    hash.update(`\0${path}\0${bytes.length}\0`);
    hash.update(bytes);
  }
  return hash.digest('hex').slice(0, 24);
}

/**
 * The bundle built from the sources as they are now, or undefined when there is none (never built,
 * or a source changed since).
 * @param {ReturnType<typeof cacheLayout>} cache
 * @returns {string | undefined}
 */
function currentBundle(cache = cacheLayout()) {
  /** @type {unknown} */
  let listed;
  try {
    listed = JSON.parse(readFileSync(cache.inputs, 'utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(listed) || !listed.every((p) => typeof p === 'string')) return undefined;
  /** @type {{ path: string; bytes: Buffer }[]} */
  const sources = [];
  for (const path of /** @type {string[]} */ (listed)) {
    try {
      sources.push({ path, bytes: readFileSync(join(cache.root, path)) });
    } catch {
      return undefined;
    }
  }
  const bundle = join(cache.dir, buildKey(cache.root, sources), 'cli.js');
  return existsSync(bundle) ? bundle : undefined;
}

/**
 * An esbuild plugin that keeps the bytes of every source it loads, and gives each module that uses
 * `__dirname` or `__filename` its own source folder's (the bundle lives elsewhere).
 * @param {Map<string, Buffer>} seen absolute path → bytes
 * @returns {import('esbuild').Plugin}
 */
function recordSources(seen) {
  return {
    name: 'cairn-record-sources',
    setup(build) {
      build.onLoad({ filter: /\.(ts|json)$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const bytes = readFileSync(args.path);
        seen.set(args.path, bytes);
        let contents = bytes.toString('utf8');
        if (args.path.endsWith('.json')) return { contents, loader: 'json' };
        if (/\b__(dirname|filename)\b/.test(contents))
          contents =
            `const __dirname = ${JSON.stringify(dirname(args.path))};\n` +
            `const __filename = ${JSON.stringify(args.path)};\n${contents}`;
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * Builds the bundle of `entry` (relative to the root) and makes it the current one; returns its
 * path. One build at a time: while another holds the lock (for at most two minutes) this returns
 * undefined. Nothing half-written is ever current: the bundle is written in a folder of its own
 * and renamed into place, then the source list.
 * @param {ReturnType<typeof cacheLayout>} cache
 * @param {string} entry
 * @returns {Promise<string | undefined>}
 */
async function buildBundle(cache = cacheLayout(), entry = join('client', 'cli', 'main.ts')) {
  mkdirSync(cache.dir, { recursive: true });
  if (!takeLock(cache.lock)) return undefined;
  const scratch = join(cache.dir, `building-${process.pid}`);
  try {
    /** @type {Map<string, Buffer>} */
    const seen = new Map();
    await require('esbuild').build({
      entryPoints: [join(cache.root, entry)],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node22',
      packages: 'external',
      outfile: join(scratch, 'cli.js'),
      plugins: [recordSources(seen)],
      logLevel: 'silent',
      banner: { js: `// Built from ${entry} by bin/cli-cache.js: edit that file, not this.` },
    });
    const sources = [...seen].map(([path, bytes]) => ({ path: relative(cache.root, path), bytes }));
    const key = buildKey(cache.root, sources);
    const folder = join(cache.dir, key);
    if (!existsSync(folder)) renameSync(scratch, folder);
    const list = `${cache.inputs}.${process.pid}`;
    writeFileSync(list, JSON.stringify(sources.map((s) => s.path)));
    renameSync(list, cache.inputs);
    for (const name of readdirSync(cache.dir))
      if (/^[0-9a-f]{24}$/.test(name) && name !== key) rmSync(join(cache.dir, name), { recursive: true, force: true });
    return join(folder, 'cli.js');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    rmSync(cache.lock, { force: true });
  }
}

/**
 * Takes the build lock, or says another build holds it. A lock older than two minutes is from a
 * build that died, and is taken over.
 * @param {string} lock
 */
function takeLock(lock) {
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    return true;
  } catch {
    try {
      const { mtimeMs } = statSync(lock);
      if (Date.now() - mtimeMs < 120_000) return false;
      writeFileSync(lock, String(process.pid));
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Whether a user module the CLI may load is TypeScript: `CAIRN_TOOLS` (comma-separated),
 * `CAIRN_GRAPHS` or `CAIRN_AGENTS`. Only then does the CLI need tsx's loader.
 * @param {Readonly<Record<string, string | undefined>>} env
 */
function userModulesNeedTsx(env) {
  const named = ['CAIRN_TOOLS', 'CAIRN_GRAPHS', 'CAIRN_AGENTS'].flatMap((name) => (env[name] ?? '').split(','));
  return named.some((path) => /\.[cm]?tsx?$/.test(path.trim()));
}

module.exports = { buildBundle, cacheLayout, currentBundle, userModulesNeedTsx };
