/**
 * Worker versioning (Temporal Worker Deployments): which deployment a worker belongs to and
 * which build of Cairn it runs. On by default for `npm run worker` and `npm start`; a worker
 * whose versioning is half-configured refuses to start, saying why (docs/operations.md#deploying-a-new-version).
 *
 * The build id is `<package version>+<git commit>` when the commit is known (a checkout), the
 * package version alone otherwise (set `CAIRN_BUILD_ID` in images built without `.git`), or
 * `CAIRN_BUILD_ID` when set. The commit is read here, at worker start — never in workflow code.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The deployment name when `CAIRN_DEPLOYMENT_NAME` is unset. */
export const DEFAULT_DEPLOYMENT_NAME = 'cairn';

/**
 * A deployment name: letters, digits, `_` and `-` (Temporal joins name and build id with `.`
 * and `:` in version strings and search attributes, so neither may appear in the name).
 */
const deploymentName = z
  .string()
  .trim()
  .min(1, 'expected a non-empty deployment name')
  .max(100, 'expected at most 100 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'expected letters, digits, _ and - only, e.g. cairn');

/** A build id: what Temporal accepts and a shell or URL carries unquoted. */
export const buildIdSchema = z
  .string()
  .trim()
  .min(1, 'expected a non-empty build id')
  .max(255, 'expected at most 255 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._+-]*$/, 'expected letters, digits, . _ + - only, e.g. 1.4.0+3f2a9c1');

/** The environment variables of worker versioning, merged into the configuration schema. */
export const versioningEnvShape = {
  /** `on` (default) or `off`: whether workers join a Worker Deployment. */
  CAIRN_WORKER_VERSIONING: z.enum(['on', 'off'], { error: 'expected on or off' }).optional(),
  CAIRN_DEPLOYMENT_NAME: deploymentName.optional(),
  CAIRN_BUILD_ID: buildIdSchema.optional(),
};

/** Versioning as configured: off, or on with a deployment name and maybe an explicit build id. */
export type VersioningSettings =
  | { enabled: false }
  | {
      enabled: true;
      deploymentName: string;
      /** `CAIRN_BUILD_ID`; when absent the worker derives one from the package version and git commit. */
      buildId?: string;
    };

/** The version a worker registers: its deployment and build. */
export interface WorkerVersion {
  deploymentName: string;
  buildId: string;
}

/**
 * Settings from the parsed variables. Returns the reason when versioning is half-configured:
 * turned off while a deployment name or build id is given (which one was meant is unclear, and
 * a worker that silently ignores its build id would join no deployment at all).
 */
export function versioningSettings(e: {
  CAIRN_WORKER_VERSIONING?: 'on' | 'off' | undefined;
  CAIRN_DEPLOYMENT_NAME?: string | undefined;
  CAIRN_BUILD_ID?: string | undefined;
}): VersioningSettings | { error: string } {
  if (e.CAIRN_WORKER_VERSIONING === 'off') {
    const given = (['CAIRN_DEPLOYMENT_NAME', 'CAIRN_BUILD_ID'] as const).filter((n) => e[n] !== undefined);
    if (given.length === 0) return { enabled: false };
    return {
      error: `CAIRN_WORKER_VERSIONING: off, but ${given.join(' and ')} set: unset ${given.length > 1 ? 'them' : 'it'} or turn versioning on`,
    };
  }
  return {
    enabled: true,
    deploymentName: e.CAIRN_DEPLOYMENT_NAME ?? DEFAULT_DEPLOYMENT_NAME,
    ...(e.CAIRN_BUILD_ID !== undefined ? { buildId: e.CAIRN_BUILD_ID } : {}),
  };
}

/**
 * The build id of this build: `<version>+<commit>` (the commit's first 12 hex digits), or the
 * version alone when no commit is known.
 * @throws Error when the result is no valid build id (a malformed package version).
 */
export function buildIdOf(packageVersion: string, gitCommit?: string): string {
  const commit = gitCommit?.trim().toLowerCase();
  if (commit !== undefined && !/^[0-9a-f]{7,40}$/.test(commit)) throw new Error(`not a git commit: "${gitCommit}"`);
  const id = commit ? `${packageVersion}+${commit.slice(0, 12)}` : packageVersion;
  const checked = buildIdSchema.safeParse(id);
  if (!checked.success)
    throw new Error(`package version "${packageVersion}" makes no build id: ${checked.error.issues[0]?.message}`);
  return checked.data;
}

/** Where a derived build id comes from: read once at worker start. */
export interface BuildSource {
  packageVersion: string;
  /** Undefined outside a git checkout (or without git). */
  gitCommit?: string;
}

/** The package version and HEAD commit of the checkout at `root` (the repository folder). */
export function readBuildSource(root: string): BuildSource {
  const pkg = z.object({ version: z.string() }).parse(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')));
  let gitCommit: string | undefined;
  try {
    gitCommit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    gitCommit = undefined; // not a checkout, or no git: the package version alone
  }
  return { packageVersion: pkg.version, ...(gitCommit ? { gitCommit } : {}) };
}

/** The version this worker registers, or undefined when versioning is off. */
export function workerVersion(settings: VersioningSettings, source: () => BuildSource): WorkerVersion | undefined {
  if (!settings.enabled) return undefined;
  if (settings.buildId !== undefined) return { deploymentName: settings.deploymentName, buildId: settings.buildId };
  const { packageVersion, gitCommit } = source();
  return { deploymentName: settings.deploymentName, buildId: buildIdOf(packageVersion, gitCommit) };
}

/** `cairn:0.1.0+3f2a9c1d0b4e`, the way Temporal's visibility names a version. */
export function versionKey(version: WorkerVersion): string {
  return `${version.deploymentName}:${version.buildId}`;
}
