/**
 * Worker Deployments through the Temporal API (the same calls as `temporal worker deployment …`):
 * which versions a deployment has, which is current or ramping, how many agents are pinned to
 * each and whether a version is drained; promoting a version (current, or ramping a share of new
 * runs). Used by `cairn deploy`, by workers adopting the first version of a deployment, and by the
 * rolling-upgrade chaos scenario (docs/operations.md#deploying-a-new-version).
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { versionKey, type WorkerVersion } from '../config/versioning-config';
import { AGENT_WORKFLOW_TYPE } from '../workflows/model/agent/agent-contract';

const VersionStatus = temporal.api.enums.v1.WorkerDeploymentVersionStatus;
const Drainage = temporal.api.enums.v1.VersionDrainageStatus;

/** What a version is doing for the deployment. */
export type VersionRole = 'current' | 'ramping' | 'draining' | 'drained' | 'inactive' | 'unknown';

/** One version of a deployment. */
export interface VersionSummary {
  buildId: string;
  role: VersionRole;
  createdAt?: string;
}

/** A deployment's versions and routing. */
export interface DeploymentStatus {
  name: string;
  /** Build id new agents start on; undefined when none is current (unversioned workers get them). */
  current?: string;
  ramping?: { buildId: string; percent: number };
  versions: VersionSummary[];
  /** Guards a promotion against a concurrent change (optimistic concurrency). */
  conflictToken: Uint8Array;
}

function roleOf(status: number | null | undefined, drainage: number | null | undefined): VersionRole {
  switch (status) {
    case VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT:
      return 'current';
    case VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING:
      return 'ramping';
    case VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING:
      return 'draining';
    case VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED:
      return 'drained';
    case VersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_INACTIVE:
      return 'inactive';
    default:
      if (drainage === Drainage.VERSION_DRAINAGE_STATUS_DRAINED) return 'drained';
      if (drainage === Drainage.VERSION_DRAINAGE_STATUS_DRAINING) return 'draining';
      return 'unknown';
  }
}

/** gRPC NOT_FOUND: the deployment has no worker yet. */
function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 5;
}

function isoOf(ts: { seconds?: unknown } | null | undefined): string | undefined {
  const seconds = Number(ts?.seconds ?? 0);
  return seconds > 0 ? new Date(seconds * 1000).toISOString() : undefined;
}

/** The deployment's versions and routing, or undefined when no worker of it ever polled. */
export async function describeDeployment(
  client: Client,
  namespace: string,
  deploymentName: string,
): Promise<DeploymentStatus | undefined> {
  let response;
  try {
    response = await client.workflowService.describeWorkerDeployment({ namespace, deploymentName });
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
  const info = response.workerDeploymentInfo;
  const routing = info?.routingConfig;
  const current = routing?.currentDeploymentVersion?.buildId ?? undefined;
  const ramping = routing?.rampingDeploymentVersion?.buildId ?? undefined;
  const versions = (info?.versionSummaries ?? []).map((v) => ({
    buildId: v.deploymentVersion?.buildId ?? v.version?.split('.').slice(1).join('.') ?? '?',
    role: roleOf(v.status, v.drainageStatus),
    ...(isoOf(v.createTime) ? { createdAt: isoOf(v.createTime) } : {}),
  }));
  return {
    name: deploymentName,
    ...(current ? { current } : {}),
    ...(ramping ? { ramping: { buildId: ramping, percent: routing?.rampingVersionPercentage ?? 0 } } : {}),
    versions,
    conflictToken: response.conflictToken,
  };
}

/** Running agents pinned to `version` (Temporal's `TemporalWorkerDeploymentVersion` search attribute). */
export async function pinnedAgents(client: Client, version: WorkerVersion): Promise<number> {
  const query =
    `TemporalWorkerDeploymentVersion = '${versionKey(version)}' AND ExecutionStatus = 'Running' ` +
    `AND WorkflowType = '${AGENT_WORKFLOW_TYPE}'`;
  return (await client.workflow.count(query)).count;
}

/** Who changed the routing, as the server records it. */
const IDENTITY = 'cairn deploy';

/** Makes `buildId` current: new agents start on it; pinned ones move at their next safe boundary. */
export async function setCurrent(client: Client, namespace: string, version: WorkerVersion): Promise<void> {
  const status = await describeDeployment(client, namespace, version.deploymentName);
  await client.workflowService.setWorkerDeploymentCurrentVersion({
    namespace,
    deploymentName: version.deploymentName,
    buildId: version.buildId,
    ...(status ? { conflictToken: status.conflictToken } : {}),
    identity: IDENTITY,
  });
}

/** Sends `percent` % of new agents to `buildId` (0 stops ramping it). */
export async function setRamping(
  client: Client,
  namespace: string,
  version: WorkerVersion,
  percent: number,
): Promise<void> {
  const status = await describeDeployment(client, namespace, version.deploymentName);
  await client.workflowService.setWorkerDeploymentRampingVersion({
    namespace,
    deploymentName: version.deploymentName,
    buildId: version.buildId,
    percentage: percent,
    ...(status ? { conflictToken: status.conflictToken } : {}),
    identity: IDENTITY,
  });
}

/**
 * Waits until the server lists `version` in its deployment (a worker of it polled), up to
 * `timeoutMs`; returns the deployment's status then.
 */
export async function awaitVersion(
  client: Client,
  namespace: string,
  version: WorkerVersion,
  timeoutMs = 30_000,
): Promise<DeploymentStatus> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await describeDeployment(client, namespace, version.deploymentName);
    if (status?.versions.some((v) => v.buildId === version.buildId)) return status;
    if (Date.now() > deadline) throw new Error(`version ${versionKey(version)} not registered after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * A deployment's first version becomes current by itself, so a fresh cluster runs agents
 * without an operator step; later versions wait for `cairn deploy promote`. With `always`
 * (`npm start`, one developer's machine) this worker's version becomes current regardless.
 * Returns whether the version was current already, was made current, or waits for a promotion.
 */
export async function adoptVersion(
  client: Client,
  namespace: string,
  version: WorkerVersion,
  mode: 'if-none-current' | 'always',
): Promise<'current' | 'promoted' | 'not current'> {
  const status = await awaitVersion(client, namespace, version);
  if (status.current === version.buildId) return 'current';
  if (mode === 'if-none-current' && status.current !== undefined) return 'not current';
  try {
    await setCurrent(client, namespace, version);
  } catch (err) {
    // Workers of a new deployment starting together race to adopt it: one wins, the others see
    // the routing changed under them (a conflict) and find a current version now.
    const now = await describeDeployment(client, namespace, version.deploymentName);
    if (mode === 'always' || now?.current === undefined) throw err;
    return now.current === version.buildId ? 'current' : 'not current';
  }
  return 'promoted';
}
