/**
 * A worker's place in its Worker Deployment: the version it registers (from the configuration,
 * the package version and the git commit, read here at start and never in workflow code) and,
 * once it polls, adopting that version as current when the deployment has none yet
 * (docs/operations.md#deploying-a-new-version).
 */
import { cairnDataConverter } from './payloads/data-converter';
import { join } from 'node:path';
import { Client } from '@temporalio/client';
import { connectTemporal } from './connection';
import { adoptVersion } from './deployments';
import type { CairnConfig } from '../config/config';
import { connectionOptions } from './connection-options';
import { readBuildSource, workerVersion, type WorkerVersion } from '../config/versioning-config';

const ROOT = join(__dirname, '..');

/** The version this checkout's worker registers, or undefined with CAIRN_WORKER_VERSIONING=off. */
export function configuredVersion(config: CairnConfig): WorkerVersion | undefined {
  return workerVersion(config.versioning, () => readBuildSource(ROOT));
}

/** `cairn 0.1.0+3f2a9c1d0b4e`, or `unversioned`, for start-up lines. */
export function describeVersion(version: WorkerVersion | undefined): string {
  return version ? `deployment ${version.deploymentName}, build ${version.buildId}` : 'unversioned';
}

/**
 * Waits until the server lists the running worker's version, then makes it current when the
 * deployment has no current version (`if-none-current`: a fresh cluster needs no operator step)
 * or in any case (`always`: `npm start`). Returns a line saying what happened.
 */
export async function joinDeployment(
  config: CairnConfig,
  version: WorkerVersion,
  mode: 'if-none-current' | 'always',
): Promise<string> {
  const connection = await connectTemporal(connectionOptions(config.temporal));
  try {
    const client = new Client({
      connection,
      namespace: config.temporal.namespace,
      dataConverter: cairnDataConverter(config.payloads),
    });
    const outcome = await adoptVersion(client, config.temporal.namespace, version, mode);
    const { deploymentName: name, buildId } = version;
    if (outcome === 'current') return `Build ${buildId} is the current version of deployment ${name}.`;
    if (outcome === 'promoted') return `Build ${buildId} is now the current version of deployment ${name}.`;
    return `Build ${buildId} joined deployment ${name}; new agents start on it once promoted: npx cairn deploy promote --build-id ${buildId}`;
  } finally {
    await connection.close();
  }
}
