/**
 * The typed client library: start agents, read their state, list them by phase or
 * by waiting for input (Temporal visibility on the search attributes), answer, cancel, wait
 * for results, and watch the timeline. The CLI, the HTTP API and the web app are built on it.
 * Typed from the workflow's own types and message definitions — never string literals.
 */
import type { ToolInfo } from '../../workflows/model/tools/tool-types';
import { workerTools } from '../tools/worker-tools';
import { randomUUID } from 'node:crypto';
import {
  Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import { connectTemporal } from '../../temporal/connection';
import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { CairnConfig } from '../../config/config';
import { connectionOptions } from '../../temporal/connection-options';
import { parseAgentInput } from '../../workflows/model/agent/agent-input';
import type { AgentEvent, AgentPhase, AgentState } from '../../workflows/model/agent/agent-state';
import type { AgentResult } from '../../workflows/model/agent/agent-contract';
import type { agentWorkflow } from '../../workflows/agent/agent-workflow';
import type { AnswerInput } from '../../workflows/model/interactions/interaction-types';
import { nonFiniteNumberPath } from './non-finite-number';
import {
  answerSignal,
  answerUpdate,
  pauseSignal,
  pauseUpdate,
  recordCancelUpdate,
  resumeSignal,
  resumeUpdate,
  stateQuery,
  type AnswerAccepted,
  type CancelRequest,
  type HoldRequest,
} from '../../workflows/contract/messages';
import {
  AgentAwaitingInputKey,
  AgentCostUsdKey,
  AgentPhaseKey,
  AgentTokensKey,
} from '../../workflows/contract/search-attributes';
import { answerRejected } from './answer-rejected';
import { ClientError } from '../client-error';
import { updateRefusal } from '../update-refusal';
import { followTimeline } from './follow-timeline';
import { readStepTranscript } from './step-transcript';
import type { StepTranscript } from '../../workflows/contract/step-transcript';
import { agentWorkflowId } from '../workflow-id';
import { AGENT_KIND, withWorkflowOfKind } from '../workflow-kind-guard';
import { DEFAULT_QUERY_TIMEOUT_MS, isUnansweredQuery, unknownToRelease } from '../unanswered-query';
import { cairnDataConverter, encryptionOn } from '../../temporal/payloads/data-converter';
import { clientTracingInterceptors } from '../../temporal/tracing/client-tracing';
import { AGENT_WORKFLOW_TYPE } from '../../workflows/model/agent/agent-contract';
import { EMPTY_GRAPH_REGISTRY, type GraphRegistry } from '../graphs/graph-registry';
import { withRegisteredGraph } from '../graphs/resolve-graph';
import { createDefinitionRegistry, type DefinitionRegistry } from '../definitions/definition-registry';
import { withDefinition, type AgentStart } from '../definitions/resolve-definition';
import { definitionMemo, definitionOfMemo } from '../definitions/definition-memo';

/** One agent in a list. */
export interface AgentSummary {
  id: string;
  task: string;
  phase: AgentPhase | 'unknown';
  awaitingInput: boolean;
  status: string;
  startedAt?: string;
  closedAt?: string;
  /** The build id of the Worker Deployment version its current run is pinned to (unversioned: absent). */
  version?: string;
  /**
   * What its whole tree spent, from the `AgentTokens` / `AgentCostUsd` search attributes (kept
   * current at step boundaries): `costUsd` null when unknown (a model without a price), never 0.
   * Absent until the agent's first step boundary, and for agents that ran before these existed.
   */
  spend?: AgentSpend;
  /** The definition it was started from (its memo); absent: started without one. */
  definition?: { name: string; version: string };
}

/** Tokens and cost of an agent tree as visibility records them; `costUsd` null means unknown. */
export interface AgentSpend {
  tokens: number;
  costUsd: number | null;
}

/** The Worker Deployment version an agent's current run is on (docs/operations.md#deploying-a-new-version). */
export interface AgentVersion {
  deploymentName: string;
  buildId: string;
  /** `pinned`, or `auto-upgrade` for the first task after a move. */
  behavior: 'pinned' | 'auto-upgrade';
}

/** Temporal's own search attribute: `<deployment>:<build id>` of the version a run is pinned to. */
const DeploymentVersionKey = defineSearchAttributeKey('TemporalWorkerDeploymentVersion', SearchAttributeType.KEYWORD);

export interface ListFilter {
  phase?: AgentPhase;
  awaitingInput?: boolean;
  limit?: number;
}

export class AgentClient {
  /**
   * @param plainIds false when payloads are encrypted: generated workflow ids then leave the task
   *   out (`agent-task-<short id>`), since Temporal stores ids in plain text.
   * @param queryTimeoutMs how long a state query waits for a worker before it fails with
   *   `AGENT_UNAVAILABLE` (workers down or too busy).
   * @param graphs the registered graphs (`CAIRN_GRAPHS`) a `graphName` resolves to at start.
   * @param definitions the agent definitions (`CAIRN_AGENTS`) a start's `definition` names.
   */
  constructor(
    readonly temporal: Client,
    private readonly taskQueue: string,
    private readonly plainIds = true,
    private readonly queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS,
    readonly graphs: GraphRegistry = EMPTY_GRAPH_REGISTRY,
    readonly definitions: DefinitionRegistry = createDefinitionRegistry([]),
  ) {}

  /**
   * Connects with the configuration's Temporal settings; `graphs` is the registry loaded from
   * `CAIRN_GRAPHS` (client/graphs/load-graphs.ts), none by default; `definitions` the one loaded
   * from `CAIRN_AGENTS` (client/definitions/load-definitions.ts), the built-in default alone by default.
   */
  static async connect(
    config: CairnConfig,
    options: { graphs?: GraphRegistry; definitions?: DefinitionRegistry } = {},
  ): Promise<AgentClient> {
    const connection = await connectTemporal(connectionOptions(config.temporal));
    // With tracing configured, starting an agent opens its trace (temporal/tracing/client-tracing.ts).
    const interceptors = { workflow: clientTracingInterceptors(config.telemetry) };
    return new AgentClient(
      new Client({
        connection,
        namespace: config.temporal.namespace,
        interceptors,
        dataConverter: cairnDataConverter(config.payloads),
      }),
      config.taskQueue,
      !encryptionOn(config.payloads),
      DEFAULT_QUERY_TIMEOUT_MS,
      options.graphs,
      options.definitions,
    );
  }

  /** The tools this task queue's workers offer (tools/worker-tools.ts); `AGENT_UNAVAILABLE` when none answers in 5 s. */
  tools(): Promise<ToolInfo[]> {
    return workerTools(this.temporal, this.taskQueue);
  }

  /** Closes the connection. */
  close(): Promise<void> {
    return this.temporal.connection.close();
  }

  /**
   * A fresh workflow id for an agent with `task`, as `start` picks one: known before the start
   * when something must be placed under it first (uploads go to the agent's folder).
   */
  newAgentId(task: string): string {
    // Workflow ids are stored in plain text even with encryption on: then they carry no task words.
    return agentWorkflowId(this.plainIds ? task : '', randomUUID());
  }

  /**
   * Validates the input and starts an agent; returns its workflow id. A `graphName` without a
   * `graph` is resolved from the registered graphs first, so the agent's input holds the whole
   * graph (an unknown name: ClientError `INVALID_INPUT`, field `graphName`). A `definition` named
   * is applied first, its snapshot put in the input (definitions/resolve-definition.ts; an unknown
   * name: `INVALID_INPUT`, field `definition`).
   */
  async start(sent: AgentStart, options: { workflowId?: string } = {}): Promise<string> {
    const input = withRegisteredGraph(withDefinition(sent, this.definitions), this.graphs);
    const parsed = parseAgentInput(input);
    if (!parsed.ok) throw new ClientError('INVALID_INPUT', parsed.errors.join('; '), parsed.field || undefined);
    const workflowId = options.workflowId ?? this.newAgentId(parsed.settings.task);
    try {
      await this.temporal.workflow.start<typeof agentWorkflow>(AGENT_WORKFLOW_TYPE, {
        taskQueue: this.taskQueue,
        workflowId,
        args: [input],
        staticSummary: parsed.settings.task.slice(0, 200),
        // The list view reads the task from the memo (static summaries come only with describe).
        memo: { task: parsed.settings.task.slice(0, 500), ...definitionMemo(parsed.settings.definition) },
        typedSearchAttributes: [
          // A graph agent plans nothing: its nodes run from the start.
          { key: AgentPhaseKey, value: parsed.settings.mode.plan && !parsed.settings.graph ? 'planning' : 'executing' },
          { key: AgentAwaitingInputKey, value: false },
        ],
      });
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) {
        throw new ClientError('CONFLICT', `an agent with id "${workflowId}" already exists`, 'workflowId');
      }
      throw err;
    }
    return workflowId;
  }

  /**
   * The agent's state; with `afterSeq`, only newer timeline events. A query no worker answers
   * within the query timeout fails with `AGENT_UNAVAILABLE`.
   */
  async state(id: string, afterSeq?: number): Promise<AgentState> {
    const deadline = Date.now() + this.queryTimeoutMs;
    const query = () => this.handle(id).query(stateQuery, afterSeq === undefined ? {} : { afterSeq });
    try {
      return await this.guard(id, () => this.temporal.withDeadline(deadline, query));
    } catch (err) {
      if (!isUnansweredQuery(err)) throw err;
      const seconds = this.queryTimeoutMs / 1000;
      const message = `no worker answered agent "${id}" within ${seconds} s (workers down or busy); try again`;
      throw new ClientError('AGENT_UNAVAILABLE', message);
    }
  }

  /**
   * What step `stepId`'s model said each round (docs/contracts.md#step-transcripts): `NOT_FOUND`
   * for an unknown agent, or (field `stepId`) a step that never started; `AGENT_UNAVAILABLE` as `state`.
   */
  async transcript(id: string, stepId: string): Promise<StepTranscript> {
    return this.guard(id, () => readStepTranscript(this.temporal, id, stepId, this.queryTimeoutMs));
  }

  /** The Worker Deployment version the agent's current run is on; undefined when unversioned. */
  async version(id: string): Promise<AgentVersion | undefined> {
    return this.guard(id, (described) => Promise.resolve(versionOfDescription(described)));
  }

  /** Agents, newest first, filtered by phase and/or whether they wait for input. */
  async list(filter: ListFilter = {}): Promise<AgentSummary[]> {
    // A run that continued as new is the same agent going on: list each agent once.
    const clauses = [`WorkflowType = '${AGENT_WORKFLOW_TYPE}'`, `ExecutionStatus != 'ContinuedAsNew'`];
    if (filter.phase) clauses.push(`AgentPhase = '${filter.phase}'`);
    if (filter.awaitingInput !== undefined) clauses.push(`AgentAwaitingInput = ${filter.awaitingInput}`);
    const out: AgentSummary[] = [];
    for await (const wf of this.temporal.workflow.list({ query: clauses.join(' AND ') })) {
      out.push({
        id: wf.workflowId,
        task: typeof wf.memo?.task === 'string' ? wf.memo.task : '',
        phase: (wf.typedSearchAttributes.get(AgentPhaseKey) as AgentPhase | undefined) ?? 'unknown',
        awaitingInput: wf.typedSearchAttributes.get(AgentAwaitingInputKey) ?? false,
        status: wf.status.name,
        startedAt: wf.startTime.toISOString(),
        ...(wf.closeTime ? { closedAt: wf.closeTime.toISOString() } : {}),
        ...versionOf(wf.typedSearchAttributes.get(DeploymentVersionKey)),
        ...spendOf(wf.typedSearchAttributes.get(AgentTokensKey), wf.typedSearchAttributes.get(AgentCostUsdKey)),
        ...definitionOfMemo(wf.memo),
      });
      if (out.length >= (filter.limit ?? 100)) break;
    }
    return out;
  }

  /**
   * Answers an interaction. By update (default) the validator's verdict comes back at once: a
   * rejected answer throws ClientError `INVALID_ANSWER` (or `NOT_OPEN` for a closed or unknown
   * interaction) with the offending field, both as the workflow coded them. By signal it is
   * fire-and-forget, as the Temporal UI sends it.
   */
  async answer(
    id: string,
    input: AnswerInput,
    via: 'update' | 'signal' = 'update',
  ): Promise<AnswerAccepted | undefined> {
    const nonFinite = nonFiniteNumberPath(input.answer, 'answer');
    if (nonFinite !== undefined) {
      throw new ClientError('INVALID_ANSWER', `${nonFinite}: must be a finite number`, nonFinite);
    }
    return this.guard(id, async () => {
      if (via === 'signal') return void (await this.handle(id).signal(answerSignal, input));
      try {
        return await this.handle(id).executeUpdate(answerUpdate, { args: [input] });
      } catch (err) {
        throw answerRejected(err) ?? err;
      }
    });
  }

  /**
   * Requests cancellation: running steps and their calls stop; the state keeps what finished.
   * With a `by` or an `actor`, the agent first records who asks (the `recordCancel` update), so
   * its end and the audit name them. Temporal's cancellation carries no payload: the record is
   * best effort — the cancellation is requested once the query timeout passes even if no worker
   * took the record (it then waits on the server with the cancellation, and names who asked
   * when a worker comes); an agent on an older release without the update is cancelled without
   * a name. An agent that has ended throws ClientError `AGENT_FINISHED`.
   */
  async cancel(id: string, request: CancelRequest = {}): Promise<void> {
    await this.guardRunning(id, async () => {
      const handle = this.handle(id);
      if (request.by !== undefined || request.actor !== undefined) {
        const deadline = Date.now() + this.queryTimeoutMs;
        await this.temporal
          .withDeadline(deadline, () => handle.executeUpdate(recordCancelUpdate, { args: [request] }))
          .catch((err: unknown) => {
            if (err instanceof WorkflowNotFoundError) throw err;
          });
      }
      await handle.cancel();
    });
  }

  /**
   * Pauses the agent: no new model or tool call starts anywhere in its tree until `resume`;
   * calls in flight finish, open interactions stay answerable. An agent that has ended throws
   * ClientError `AGENT_FINISHED`. With an `actor` (Cairn's HTTP API) it goes by update, so the
   * timeline and the audit keep who paused — or, when no worker takes it in time, by the signal,
   * which waits for the next worker; without an actor, by the fire-and-forget signal.
   */
  async pause(id: string, request: HoldRequest = {}): Promise<void> {
    await this.hold(id, 'pause', request);
  }

  /** Lifts a `pause`: the agent goes on where it stopped. An ended agent throws `AGENT_FINISHED`. */
  async resume(id: string, request: HoldRequest = {}): Promise<void> {
    await this.hold(id, 'resume', request);
  }

  /** Waits for the agent's result (throws the workflow's failure). */
  result(id: string): Promise<AgentResult> {
    return this.guard(id, () => this.handle(id).result());
  }

  /** New timeline events as they happen, until the agent ends; resumable from `afterSeq`. */
  async *watch(id: string, { afterSeq = 0, intervalMs = 500 } = {}): AsyncGenerator<AgentEvent> {
    for await (const state of followTimeline((after) => this.state(id, after), { afterSeq, intervalMs })) {
      yield* state.events;
    }
  }

  private async hold(id: string, action: 'pause' | 'resume', request: HoldRequest): Promise<void> {
    await this.guardRunning(id, async () => {
      const handle = this.handle(id);
      if (request.actor === undefined) {
        await handle.signal(action === 'pause' ? pauseSignal : resumeSignal, request);
        return;
      }
      const update = action === 'pause' ? pauseUpdate : resumeUpdate;
      try {
        await this.temporal.withDeadline(Date.now() + this.queryTimeoutMs, () =>
          handle.executeUpdate(update, { args: [request] }),
        );
      } catch (err) {
        if (!isUnansweredQuery(err) && !unknownToRelease(err)) throw endedRefusal(err) ?? err;
        // No worker took the update (an outage, a deploy), or the agent runs on a release without
        // it: the request is not lost — it goes as the signal, which waits in the history for the
        // next worker, naming who by `by` (a signal carries no actor). Pausing or resuming twice
        // is harmless if the update lands too.
        const { actor, ...rest } = request;
        await handle.signal(action === 'pause' ? pauseSignal : resumeSignal, { ...rest, by: rest.by ?? actor.id });
      }
    });
  }

  private handle(id: string): WorkflowHandle<typeof agentWorkflow> {
    return this.temporal.workflow.getHandle(id);
  }

  /**
   * `guard` for a message that needs a running agent: an agent that has ended throws ClientError
   * `AGENT_FINISHED`, also when it closes between the check and the message — Temporal answers a
   * message to a closed workflow as "not found", which would misread as a missing agent.
   */
  private guardRunning<T>(id: string, call: () => Promise<T>): Promise<T> {
    return this.guard(id, async ({ status }) => {
      refuseEnded(status, id);
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
        const now = await this.handle(id).describe();
        refuseEnded(now.status, id);
        throw err;
      }
    });
  }

  /** Runs `call` only when `id` is an agent (workflow-kind-guard.ts): anything else is NOT_FOUND. */
  private guard<T>(id: string, call: (described: WorkflowExecutionDescription) => Promise<T>): Promise<T> {
    return withWorkflowOfKind(this.temporal, id, AGENT_KIND, call);
  }
}

/**
 * Throws ClientError `AGENT_FINISHED` when the agent's latest run has closed (a missing agent
 * throws WorkflowNotFoundError, which `guard` turns into `NOT_FOUND`).
 */
function refuseEnded(status: WorkflowExecutionDescription['status'], id: string): void {
  if (status.name !== 'RUNNING') throw new ClientError('AGENT_FINISHED', `agent "${id}" has ended (${status.name})`);
}

/**
 * `{ spend }` from the spend search attributes, or nothing before the first is recorded. The
 * workflow leaves `AgentCostUsd` unset while the cost is unknown, so tokens without a cost read
 * as an unknown cost (null), never as $0.
 */
function spendOf(tokens: number | undefined, costUsd: number | undefined): { spend?: AgentSpend } {
  if (tokens === undefined) return {};
  return { spend: { tokens, costUsd: costUsd ?? null } };
}

/** `{ version: build id }` from `<deployment>:<build id>`, or nothing. */
function versionOf(key: string | undefined): { version?: string } {
  const buildId = key?.slice(key.indexOf(':') + 1);
  return buildId ? { version: buildId } : {};
}

/** The agent's own `AGENT_FINISHED` refusal of an update (its validator's) as a ClientError; else undefined. */
const endedRefusal = (err: unknown): ClientError | undefined =>
  updateRefusal(err, (type): type is 'AGENT_FINISHED' => type === 'AGENT_FINISHED');

/** The Worker Deployment version in a description of the agent's current run; undefined when unversioned. */
function versionOfDescription(described: WorkflowExecutionDescription): AgentVersion | undefined {
  const info = described.raw.workflowExecutionInfo?.versioningInfo;
  const version = info?.deploymentVersion;
  if (!version?.buildId || !version.deploymentName) return undefined;
  const behavior = info?.behavior === temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_AUTO_UPGRADE;
  return {
    deploymentName: version.deploymentName,
    buildId: version.buildId,
    behavior: behavior ? 'auto-upgrade' : 'pinned',
  };
}
