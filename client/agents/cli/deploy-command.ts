/**
 * `cairn deploy status` and `cairn deploy promote`: the Worker Deployment of this configuration
 * (CAIRN_DEPLOYMENT_NAME, default `cairn`) through the Temporal API — its versions, which is
 * current or ramping, how many agents each one still has pinned and whether it is drained; and
 * making a version current or ramping it (docs/operations.md#deploying-a-new-version).
 */
import type { CairnConfig } from '../../../config/config';
import { loadConfigOrExit } from '../../../config/load-config-or-exit';
import { buildIdSchema, DEFAULT_DEPLOYMENT_NAME, type WorkerVersion } from '../../../config/versioning-config';
import { configuredVersion } from '../../../temporal/deployment-version';
import { AgentClient } from '../agent-client';
import {
  describeDeployment,
  pinnedAgents,
  setCurrent,
  setRamping,
  type DeploymentStatus,
} from '../../../temporal/deployments';
import { EXIT, UsageError } from '../../cli/cli-exit';
import { printLine } from '../../cli/terminal';

/** One version in `cairn deploy status`. */
export interface VersionLine {
  buildId: string;
  role: string;
  /** Running agents pinned to it. */
  agents: number;
  createdAt?: string;
}

function deploymentName(config: CairnConfig): string {
  return config.versioning.enabled ? config.versioning.deploymentName : DEFAULT_DEPLOYMENT_NAME;
}

async function withClient<T>(body: (client: AgentClient, config: CairnConfig) => Promise<T>): Promise<T> {
  const config = loadConfigOrExit();
  const client = await AgentClient.connect(config);
  try {
    return await body(client, config);
  } finally {
    await client.close();
  }
}

/** The lines of a deployment's status, newest version first. */
export function formatDeployment(status: DeploymentStatus, lines: VersionLine[]): string {
  const ramp = status.ramping ? `, ramping ${status.ramping.buildId} at ${status.ramping.percent}%` : '';
  const head = `deployment ${status.name}: current ${status.current ?? 'none (unversioned workers get new agents)'}${ramp}`;
  const width = Math.max(8, ...lines.map((l) => l.buildId.length));
  const rows = lines.map(
    (l) =>
      `  ${l.buildId.padEnd(width)}  ${l.role.padEnd(8)}  ${String(l.agents).padStart(6)} agents pinned  ${(l.createdAt ?? '').slice(0, 19).replace('T', ' ')}`,
  );
  const drained = lines.filter((l) => l.role === 'drained').map((l) => l.buildId);
  const footer = drained.length > 0 ? [`drained (their workers may stop): ${drained.join(', ')}`] : [];
  return [head, ...rows, ...footer].join('\n');
}

/** `cairn deploy status`. */
export function deployStatusCommand(options: { json?: boolean }): Promise<number> {
  return withClient(async (client, config) => {
    const name = deploymentName(config);
    const status = await describeDeployment(client.temporal, config.temporal.namespace, name);
    if (!status) {
      printLine(
        options.json ? JSON.stringify({ name, versions: [] }) : `deployment ${name}: no worker has joined it yet`,
      );
      return EXIT.ok;
    }
    const lines: VersionLine[] = [];
    for (const v of [...status.versions].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))) {
      const agents = await pinnedAgents(client.temporal, { deploymentName: name, buildId: v.buildId });
      lines.push({ buildId: v.buildId, role: v.role, agents, ...(v.createdAt ? { createdAt: v.createdAt } : {}) });
    }
    if (options.json) {
      const { conflictToken: _token, versions: _versions, ...routing } = status;
      printLine(JSON.stringify({ ...routing, versions: lines }, null, 2));
    } else printLine(formatDeployment(status, lines));
    return EXIT.ok;
  });
}

/** Parses `--ramp`: a whole percentage, `25` or `25%`, from 0 to 100. */
export function parseRamp(text: string): number {
  const match = /^\s*(\d{1,3})\s*%?\s*$/.exec(text);
  const percent = match ? Number(match[1]) : NaN;
  if (!(percent >= 0 && percent <= 100))
    throw new UsageError(`--ramp must be a percentage from 0 to 100; got "${text}"`);
  return percent;
}

/** `cairn deploy promote [--build-id X] [--ramp N%]`. */
export function deployPromoteCommand(options: { buildId?: string; ramp?: string }): Promise<number> {
  const ramp = options.ramp === undefined ? undefined : parseRamp(options.ramp);
  return withClient(async (client, config) => {
    const name = deploymentName(config);
    let buildId = options.buildId;
    if (buildId !== undefined) {
      const parsed = buildIdSchema.safeParse(buildId);
      if (!parsed.success) throw new UsageError(`--build-id: ${parsed.error.issues[0]?.message}; got "${buildId}"`);
      buildId = parsed.data;
    } else buildId = configuredVersion(config)?.buildId;
    if (buildId === undefined) throw new UsageError('--build-id is needed when CAIRN_WORKER_VERSIONING=off');
    const namespace = config.temporal.namespace;
    const status = await describeDeployment(client.temporal, namespace, name);
    const known = status?.versions.map((v) => v.buildId) ?? [];
    if (!known.includes(buildId)) {
      throw new UsageError(
        `deployment ${name} has no version ${buildId} (start its workers first); it has ${known.join(', ') || 'none'}`,
      );
    }
    const version: WorkerVersion = { deploymentName: name, buildId };
    if (ramp === undefined) {
      await setCurrent(client.temporal, namespace, version);
      printLine(
        `${buildId} is now current in deployment ${name}: new agents start on it; running agents move to it at their next safe boundary.`,
      );
    } else {
      await setRamping(client.temporal, namespace, version, ramp);
      printLine(
        `${buildId} now takes ${ramp}% of new agents in deployment ${name} (current: ${status?.current ?? 'none'}).`,
      );
    }
    return EXIT.ok;
  });
}
