// The types of bin/cli-cache.js, for the TypeScript that imports it (its tests, the benchmark).

/** Where a cache lives: `<root>/.cache/cairn-cli`, its source list and its build lock. */
export interface CacheLayout {
  root: string;
  dir: string;
  inputs: string;
  lock: string;
}

/** The cache of the checkout at `root` (default: this one). */
export function cacheLayout(root?: string): CacheLayout;

/** The bundle built from the sources as they are now, or undefined (never built, or a source changed). */
export function currentBundle(cache?: CacheLayout): string | undefined;

/** Builds `entry` (relative to the root) and makes it current; undefined while another build holds the lock. */
export function buildBundle(cache?: CacheLayout, entry?: string): Promise<string | undefined>;

/** Whether CAIRN_TOOLS, CAIRN_GRAPHS or CAIRN_AGENTS names a TypeScript module. */
export function userModulesNeedTsx(env: Readonly<Record<string, string | undefined>>): boolean;
