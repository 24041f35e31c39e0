/**
 * Cairn's configuration: one zod schema over the environment (docs/contracts.md#configuration), read once at start by
 * the worker, the client, the CLI and the HTTP server. A bad value fails fast with one line per
 * variable naming it, what was expected and what was found.
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { authEnvShape, resolveAuth, type AuthConfig } from './auth-config';
import { loadPriceTable, priceEnvShape, type PriceTable } from './price-config';
import { loadPolicyFile, policyEnvShape } from './policy-config';
import { promptOverridesFrom, promptsEnvShape } from './prompts-config';
import type { PromptTexts } from '../workflows/model/prompts/templates';
import { llmModelsEnvShape, loadLlmModels, type LlmModelTable } from './llm-models-config';
import { llmEndpointsEnvShape, loadLlmEndpoints, type LlmEndpoint } from './llm-endpoints-config';
import type { ApprovalPolicy } from '../activities/policy/approval-policy';
import { telemetryEnvShape, telemetrySettings, type TelemetryConfig } from './telemetry-config';
import { versioningEnvShape, versioningSettings, type VersioningSettings } from './versioning-config';
import { loadTemporalConfig, TEMPORAL_ENV_NAMES, type TemporalSettings } from './temporal-config';
import { payloadEnvShape, payloadSettings, type PayloadSettings } from './payload-config';
import {
  embeddedAddress,
  embeddedServerEnvShape,
  embeddedServerSettings,
  portNumber,
  type EmbeddedServerSettings,
} from './embedded-server-config';
import { hostNameList } from './host-names';
import { streamLimits, streamLimitsEnvShape, type StreamLimits } from './stream-limits';
import { uploadEnvShape, uploadLimits, type UploadLimits } from './upload-config';

export { DEFAULT_TEMPORAL_ADDRESS } from './temporal-config';

/** The default task queue (docs/contracts.md#workflow-types-and-task-queues). */
export const DEFAULT_TASK_QUEUE = 'cairn';
/** OpenAI's endpoint, used when only OPENAI_API_KEY is set. */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

const optionalText = z
  .string()
  .trim()
  .transform((s) => (s === '' ? undefined : s))
  .optional();

const positiveInt = (what: string) =>
  z.coerce
    .number({ error: `expected ${what}` })
    .int('expected a whole number')
    .positive('expected a number above 0');

const url = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

/**
 * The URL browsers reach the server at, as an origin (`https://cairn.example.com[:port]`): no
 * path, query, fragment or credentials, since it stands for the whole site.
 */
const publicUrl = z
  .url({ protocol: /^https?$/, error: 'expected the https:// URL browsers use, e.g. https://cairn.example.com' })
  .transform((text, ctx) => {
    const parsed = new URL(text);
    if (parsed.pathname === '/' && !parsed.search && !parsed.hash && !parsed.username && !parsed.password) {
      return parsed.origin;
    }
    ctx.addIssue({ code: 'custom', message: 'expected an origin without path, query or credentials' });
    return z.NEVER;
  });

/**
 * Cairn's own environment variables, exactly as named in the table of docs/configuration.md. The Temporal
 * connection's (TEMPORAL_*) are read by the SDK's configuration loader (temporal-config.ts).
 */
export const envSchema = z.object({
  CAIRN_TASK_QUEUE: z.string().trim().min(1, 'expected a non-empty task queue name').optional(),
  OPENAI_API_KEY: optionalText,
  OPENAI_BASE_URL: url.optional(),
  CAIRN_MODEL: optionalText,
  CAIRN_LLM_TIMEOUT_MS: positiveInt('a timeout in milliseconds').optional(),
  CAIRN_LLM_CONCURRENCY: positiveInt('a number of concurrent LLM calls per worker').optional(),
  CAIRN_WORKER_CACHED_WORKFLOWS: positiveInt('a number of workflows a worker keeps in memory').optional(),
  CAIRN_WORKER_WORKFLOW_THREADS: positiveInt('a number of threads running workflow code').optional(),
  /** Whether model calls stream (on: where the endpoint can; off: never). */
  CAIRN_LLM_STREAM: z.enum(['on', 'off'], { error: 'expected on or off' }).optional(),
  CAIRN_LLM_RATE_LIMIT: z.coerce
    .number({ error: 'expected LLM calls per second' })
    .positive('expected a number above 0')
    .optional(),
  CAIRN_WORKSPACE: optionalText,
  /** Folder of the idempotency ledger; must lie outside the workspace. */
  CAIRN_LEDGER_DIR: optionalText,
  /** Days a finished agent's folder is kept after it closed (worker/workspace-retention.ts); unset: for ever. */
  CAIRN_WORKSPACE_RETENTION_DAYS: positiveInt('a number of days').optional(),
  /** Characters of earlier turns past which a thread folds the oldest into its summary (threads opened here). */
  CAIRN_THREAD_COMPRESS_CHARS: positiveInt('a number of characters')
    .min(500, 'expected at least 500')
    .max(1_000_000, 'expected at most 1000000')
    .optional(),
  /** Address classes http_fetch may reach besides public ones: loopback, private, link-local. */
  CAIRN_FETCH_ALLOW: z
    .string()
    .transform((s) =>
      s
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(['loopback', 'private', 'link-local'], { error: 'expected a list of loopback, private, link-local' }),
      ),
    )
    .optional(),
  /** Comma-separated paths of modules exporting tools made with defineTool. */
  CAIRN_TOOLS: optionalText,
  /** Path of a module registering agent graphs made with defineGraph (docs/graphs.md). */
  CAIRN_GRAPHS: optionalText,
  /** Path of a module of agent definitions made with defineAgent (docs/definitions.md). */
  CAIRN_AGENTS: optionalText,
  /** JSON array of MCP servers: [{ "name", "command", "args"?, "env"?, "url"?, "write"? }]. */
  CAIRN_MCP_SERVERS: optionalText,
  /** Tools that run without approval even though they write, comma-separated. */
  CAIRN_AUTO_APPROVE: optionalText,
  CAIRN_HTTP_PORT: portNumber.optional(),
  CAIRN_HTTP_HOST: optionalText,
  /** Host names the HTTP API answers to besides loopback ones and CAIRN_HTTP_HOST, comma-separated. */
  CAIRN_HTTP_ALLOWED_HOSTS: hostNameList.optional(),
  /** The URL browsers use when a proxy (TLS) stands in front: Secure cookies, the OIDC redirect URI, the expected Origin. */
  CAIRN_PUBLIC_URL: publicUrl.optional(),
  CAIRN_API_TOKEN: z.string().min(16, 'expected at least 16 characters (a guessable token is no token)').optional(),
  ...streamLimitsEnvShape,
  ...uploadEnvShape,
  ...versioningEnvShape,
  ...authEnvShape,
  ...priceEnvShape,
  ...llmModelsEnvShape,
  ...llmEndpointsEnvShape,
  ...policyEnvShape,
  ...promptsEnvShape,
  ...telemetryEnvShape,
  ...payloadEnvShape,
  ...embeddedServerEnvShape,
});

/** Names of every environment variable Cairn reads. */
export type EnvName = keyof typeof envSchema.shape | (typeof TEMPORAL_ENV_NAMES)[number];
/** The variables the docker-compose file and docs/configuration.md must know about. */
export const ENV_NAMES: EnvName[] = [...TEMPORAL_ENV_NAMES, ...(Object.keys(envSchema.shape) as EnvName[])];

/** Resolved configuration, with defaults applied. */
export interface CairnConfig {
  /** From a temporal.toml profile and the TEMPORAL_* variables, as the temporal CLI reads them. */
  temporal: TemporalSettings;
  taskQueue: string;
  llm: {
    /**
     * True when neither OPENAI_BASE_URL nor OPENAI_API_KEY is set: the labelled offline demo
     * model answers instead. Never chosen when an endpoint is configured.
     */
    demo: boolean;
    /** The OpenAI-compatible endpoint; OpenAI's own when only a key is given. */
    baseUrl: string;
    apiKey?: string;
    model: string;
    timeoutMs: number;
    /** LLM calls across all workers of the task queue, per second (server-side). */
    ratePerSecond?: number;
    /** LLM calls one worker runs at once. */
    concurrency: number;
    /** Per-model reply budgets and pinned capabilities (config/llm-models-config.ts). */
    models: LlmModelTable;
    /** Whether model calls stream where the endpoint can (CAIRN_LLM_STREAM, on by default). */
    stream: boolean;
    /** Named endpoints beside this one (CAIRN_LLM_ENDPOINTS), each served on its own LLM task queue. */
    endpoints: LlmEndpoint[];
  };
  /**
   * Most workflows (agents, steps, threads) one worker keeps in memory between their tasks
   * (CAIRN_WORKER_CACHED_WORKFLOWS). Absent: the SDK's default, sized from the heap. Each cached
   * workflow costs memory whether it is busy or parked (an idle thread about 0.55 MiB, measured in
   * BENCHMARKS.md §8); one not cached is rebuilt from its history at its next task.
   */
  cachedWorkflows?: number;
  /**
   * Threads one worker runs workflow code on (CAIRN_WORKER_WORKFLOW_THREADS; the SDK's
   * `workflowThreadPoolSize`). Absent: the SDK's one. Two let a worker on a machine with cores to
   * spare take a burst of workflow tasks (many threads messaged at once) about twice as fast.
   */
  workflowThreads?: number;
  workspace: string;
  /**
   * Folder of the idempotency ledger (which write calls are done, with their results), outside
   * the workspace so no file tool can read or forge it. Default: beside the workspace folder,
   * `<workspace>.ledger` — on the same disk, and as private or shared as the workspace is.
   */
  ledgerDir: string;
  /**
   * Days a finished agent's folder is kept after its workflow closed; workers delete older ones
   * (worker/workspace-retention.ts). Absent: folders are kept for ever.
   */
  workspaceRetentionDays?: number;
  /** Settings of the threads this process opens (absent: the thread input's defaults). */
  threads: { compressAtChars?: number };
  tools: {
    /** Address classes http_fetch may reach besides public addresses. */
    fetchAllow: ('loopback' | 'private' | 'link-local')[];
    /** Module paths of user tools. */
    modules: string[];
    /** MCP server configuration, as JSON text (parsed and validated by the MCP loader). */
    mcpServers?: string;
    /** Write tools that need no approval. */
    autoApprove: string[];
    /** The approval policy from CAIRN_POLICY_FILE (with CAIRN_AUTO_APPROVE as a rule in it), if one is set. */
    policy?: ApprovalPolicy;
  };
  /**
   * The module of registered agent graphs (CAIRN_GRAPHS), relative to the working folder or
   * absolute; loaded by the processes that start agents (client/graphs/load-graphs.ts).
   */
  graphs: { module?: string };
  /**
   * The module of agent definitions (CAIRN_AGENTS), relative to the working folder or absolute;
   * loaded by the processes that start agents (client/definitions/load-definitions.ts).
   */
  definitions: { module?: string };
  /**
   * `host` is 127.0.0.1 unless set (0.0.0.0 in containers). `allowedHosts`: further host names
   * (normalised, no port) the server answers to besides the loopback names and `host`.
   * `publicUrl`: the origin browsers reach it at behind a proxy (CAIRN_PUBLIC_URL). `streams`:
   * the open streams one principal, and the server, may hold (client/http/stream-limiter.ts).
   * `uploads`: what a multipart start may carry (config/upload-config.ts).
   */
  http: {
    host: string;
    port: number;
    apiToken?: string;
    allowedHosts?: string[];
    publicUrl?: string;
    streams: StreamLimits;
    uploads: UploadLimits;
  };
  /** Worker Deployment membership (config/versioning-config.ts); the worker entry points apply it. */
  versioning: VersioningSettings;
  /** Who may use the HTTP API and the page (config/auth-config.ts). */
  auth: AuthConfig;
  /** Model prices per million tokens (config/price-config.ts); empty: every cost unknown. */
  prices: PriceTable;
  /** Built-in prompt templates replaced from CAIRN_PROMPTS_FILE (config/prompts-config.ts); empty: none. */
  prompts: PromptTexts;
  /** The worker's metrics endpoint and tracing (config/telemetry-config.ts). */
  telemetry: TelemetryConfig;
  /** Compression and encryption of payloads (config/payload-config.ts). */
  payloads: PayloadSettings;
  /** The dev server `npm start` runs when no Temporal address is configured (config/embedded-server-config.ts). */
  embedded: EmbeddedServerSettings;
}

/** Thrown when the environment holds bad values; `lines` has one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly lines: string[]) {
    super(`Invalid configuration:\n${lines.map((l) => `  ${l}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

function describe(text: string | undefined): string {
  if (text === undefined) return 'nothing';
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 57)}...` : text);
}

/** Whether `path` is `folder` or lies under it, both resolved against `cwd` (no disk access). */
function within(folder: string, path: string, cwd: string): boolean {
  const rel = relative(resolve(cwd, folder), resolve(cwd, path));
  return rel === '' || !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

function listOf(text: string | undefined): string[] {
  return (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/**
 * Reads and validates the configuration from `env` (normally `process.env`).
 * @param cwd base for the default workspace folder.
 * @throws ConfigError with one line per bad variable.
 */
export function loadConfig(env: Record<string, string | undefined>, cwd = '.'): CairnConfig {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(envSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  const parsed = envSchema.safeParse(picked);
  const temporal = loadTemporalConfig(env);
  if (!parsed.success || !temporal.ok) {
    const seen = new Set<string>();
    const lines: string[] = temporal.ok ? [] : [...temporal.lines];
    for (const issue of parsed.success ? [] : parsed.error.issues) {
      const name = String(issue.path[0] ?? '(environment)');
      if (seen.has(name)) continue;
      seen.add(name);
      const secret =
        name.endsWith('_KEY') || name.endsWith('_KEYS') || name.endsWith('_TOKEN') || name.endsWith('_SECRET');
      lines.push(`${name}: ${issue.message}, got ${secret ? 'a hidden value' : describe(picked[name])}`);
    }
    throw new ConfigError(lines.sort());
  }
  const e = parsed.data;
  const workspace = e.CAIRN_WORKSPACE ?? `${cwd.replace(/\/$/, '')}/.data/workspace`;
  const ledgerDir = e.CAIRN_LEDGER_DIR ?? `${workspace.replace(/\/+$/, '')}.ledger`;
  if (within(workspace, ledgerDir, cwd)) {
    throw new ConfigError([`CAIRN_LEDGER_DIR: expected a folder outside CAIRN_WORKSPACE, got ${describe(ledgerDir)}`]);
  }
  const versioning = versioningSettings(e);
  if ('error' in versioning) throw new ConfigError([versioning.error]);
  const auth = resolveAuth(e);
  if ('problems' in auth) throw new ConfigError(auth.problems);
  const priced = loadPriceTable(e.CAIRN_PRICES_FILE);
  if ('problems' in priced) throw new ConfigError(priced.problems);
  const models = loadLlmModels(e.CAIRN_LLM_MODELS);
  if ('problems' in models) throw new ConfigError(models.problems);
  const endpoints = loadLlmEndpoints(e.CAIRN_LLM_ENDPOINTS, env);
  if ('problems' in endpoints) throw new ConfigError(endpoints.problems);
  const policy = loadPolicyFile(e.CAIRN_POLICY_FILE, listOf(e.CAIRN_AUTO_APPROVE));
  if ('problems' in policy) throw new ConfigError(policy.problems);
  const payloads = payloadSettings(e);
  if ('problems' in payloads) throw new ConfigError(payloads.problems);
  const httpPort = e.CAIRN_HTTP_PORT ?? 3000;
  const embedded = embeddedServerSettings(e, httpPort, temporal.settings.addressConfigured, cwd);
  if ('problems' in embedded) throw new ConfigError(embedded.problems);
  const streams = streamLimits(e);
  if ('problem' in streams) throw new ConfigError([streams.problem]);
  const prompts = promptOverridesFrom(e.CAIRN_PROMPTS_FILE);
  if ('problem' in prompts) throw new ConfigError([prompts.problem]);
  const uploads = uploadLimits(e);
  if ('problem' in uploads) throw new ConfigError([uploads.problem]);
  return {
    temporal: withEmbeddedAddress(temporal.settings, embedded),
    taskQueue: e.CAIRN_TASK_QUEUE ?? DEFAULT_TASK_QUEUE,
    llm: {
      demo: e.OPENAI_BASE_URL === undefined && e.OPENAI_API_KEY === undefined,
      baseUrl: e.OPENAI_BASE_URL ?? OPENAI_BASE_URL,
      apiKey: e.OPENAI_API_KEY,
      model: e.CAIRN_MODEL ?? 'gpt-4o-mini',
      timeoutMs: e.CAIRN_LLM_TIMEOUT_MS ?? 120_000,
      ratePerSecond: e.CAIRN_LLM_RATE_LIMIT,
      concurrency: e.CAIRN_LLM_CONCURRENCY ?? 20,
      models: models.models,
      stream: e.CAIRN_LLM_STREAM !== 'off',
      endpoints: endpoints.endpoints,
    },
    ...(e.CAIRN_WORKER_CACHED_WORKFLOWS ? { cachedWorkflows: e.CAIRN_WORKER_CACHED_WORKFLOWS } : {}),
    ...(e.CAIRN_WORKER_WORKFLOW_THREADS ? { workflowThreads: e.CAIRN_WORKER_WORKFLOW_THREADS } : {}),
    workspace,
    ledgerDir,
    ...(e.CAIRN_WORKSPACE_RETENTION_DAYS ? { workspaceRetentionDays: e.CAIRN_WORKSPACE_RETENTION_DAYS } : {}),
    threads: e.CAIRN_THREAD_COMPRESS_CHARS ? { compressAtChars: e.CAIRN_THREAD_COMPRESS_CHARS } : {},
    tools: {
      fetchAllow: e.CAIRN_FETCH_ALLOW ?? [],
      modules: listOf(e.CAIRN_TOOLS),
      mcpServers: e.CAIRN_MCP_SERVERS,
      autoApprove: listOf(e.CAIRN_AUTO_APPROVE),
      ...(policy.policy ? { policy: policy.policy } : {}),
    },
    graphs: e.CAIRN_GRAPHS ? { module: e.CAIRN_GRAPHS } : {},
    definitions: e.CAIRN_AGENTS ? { module: e.CAIRN_AGENTS } : {},
    http: {
      host: e.CAIRN_HTTP_HOST ?? '127.0.0.1',
      port: httpPort,
      apiToken: e.CAIRN_API_TOKEN,
      allowedHosts: e.CAIRN_HTTP_ALLOWED_HOSTS,
      ...(e.CAIRN_PUBLIC_URL ? { publicUrl: e.CAIRN_PUBLIC_URL } : {}),
      streams,
      uploads,
    },
    versioning,
    auth,
    prices: priced.prices,
    prompts: prompts.texts,
    telemetry: telemetrySettings(e),
    payloads,
    embedded,
  };
}

/** With no address configured, Cairn connects to the embedded server, wherever its port was moved. */
function withEmbeddedAddress(settings: TemporalSettings, embedded: EmbeddedServerSettings): TemporalSettings {
  if (settings.addressConfigured) return settings;
  const address = embeddedAddress(embedded);
  return { ...settings, address, connection: { ...settings.connection, address } };
}
