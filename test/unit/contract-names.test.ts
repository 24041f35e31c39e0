/**
 * The names outsiders depend on, spelled out as literals and compared with the definitions the
 * code uses. Every other test imports those definitions, so a rename (of the `answer` signal,
 * the `cairn` task queue, a search attribute, a route or an LLM header) would pass them all
 * while breaking the Temporal UI, `temporal workflow signal`, running workflows, scripts and
 * LLM gateways that route on the headers. This file is the one place such a rename must show.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createLlmActivities } from '../../activities/llm/call-llm';
import { createOpenAiClient } from '../../activities/llm/openai-client';
import { createApp } from '../../client/http/create-app';
import { agentWorkflowId, threadWorkflowId } from '../../client/workflow-id';
import { DEFAULT_TASK_QUEUE, loadConfig } from '../../config/config';
import { SEARCH_ATTRIBUTES } from '../../scripts/dev-server';
import * as workflows from '../../workflows';
import { AGENT_WORKFLOW_TYPE, STEP_WORKFLOW_TYPE } from '../../workflows/model/agent/agent-contract';
import { THREAD_WORKFLOW_TYPE } from '../../workflows/contract/thread-contract';
import { AGENT_PHASES } from '../../workflows/model/agent/agent-state';
import { stepWorkflowId, subAgentWorkflowId } from '../../workflows/base/ids';
import { llmTaskQueue } from '../../workflows/base/llm-task-queue';
import type { LegacyLlmCallInput, LlmCallInput, LlmPurpose } from '../../workflows/model/llm/llm-call-schema';
import * as messages from '../../workflows/contract/messages';
import * as threadContract from '../../workflows/contract/thread-contract';
import * as searchAttributes from '../../workflows/contract/search-attributes';
import * as liveMessages from '../../workflows/contract/live-messages';
import * as stepTranscript from '../../workflows/contract/step-transcript';
import { LIVE_STREAM_WORKFLOW_TYPE, liveStreamId } from '../../workflows/contract/live-stream-names';
import { eventsOf } from '../../client/live/live-events';
import { TOOL_CATALOGUE_WORKFLOW_TYPE } from '../../workflows/tool-catalogue-workflow';
import { reply } from '../fake-llm/replies';
import { ScriptedLlm } from '../fake-llm/scripted-llm';
import { unusedAgents, unusedThreads } from '../harness/config-errors';

test('workflow types: agentWorkflow, stepWorkflow, agentStreamWorkflow, threadWorkflow (and the llmCheckWorkflow probe and toolCatalogueWorkflow)', () => {
  // The bundle registers each workflow under its export name; clients start it by function name.
  const registered = Object.entries(workflows).map(([exported, fn]) => [exported, fn.name]);
  expect(registered.sort()).toEqual([
    ['agentStreamWorkflow', 'agentStreamWorkflow'],
    ['agentWorkflow', 'agentWorkflow'],
    ['llmCheckWorkflow', 'llmCheckWorkflow'],
    ['stepWorkflow', 'stepWorkflow'],
    ['threadWorkflow', 'threadWorkflow'],
    ['toolCatalogueWorkflow', 'toolCatalogueWorkflow'],
  ]);
  expect(TOOL_CATALOGUE_WORKFLOW_TYPE).toBe('toolCatalogueWorkflow');
  expect(THREAD_WORKFLOW_TYPE).toBe('threadWorkflow');
  // The names the client and a step use to start agents and steps without importing them.
  expect([AGENT_WORKFLOW_TYPE, STEP_WORKFLOW_TYPE]).toEqual(['agentWorkflow', 'stepWorkflow']);
  // The name an LLM worker starts an agent's live stream by.
  expect(LIVE_STREAM_WORKFLOW_TYPE).toBe('agentStreamWorkflow');
});

test('the live stream: workflow id `<agent id>/stream`, its messages, and the delta shape', () => {
  expect(liveStreamId('agent-compare-1a2b3c4d')).toBe('agent-compare-1a2b3c4d/stream');
  const definitions = Object.entries(liveMessages).flatMap(([exported, value]) =>
    typeof value === 'object' && value !== null && 'type' in value && 'name' in value
      ? [[exported, value.type, value.name]]
      : [],
  );
  expect(definitions.sort()).toEqual(
    [
      ['liveEndSignal', 'signal', 'liveEnd'],
      ['livePollUpdate', 'update', 'livePoll'],
      ['livePublishSignal', 'signal', 'livePublish'],
      ['liveReadQuery', 'query', 'liveRead'],
    ].sort(),
  );
  // docs/contracts.md#live-output: a delta as viewers get it is its call's identity and its own fields.
  const [delta] = eventsOf({
    items: [{ offset: 7, key: 'k', entry: { type: 'delta', channel: 'tool', text: '{"pa', toolCallId: 'c1' } }],
    calls: { k: { agentId: 'a', stepId: 's1', modelCallId: 'a/step-s1/r/3', attempt: 2, purpose: 'step' } },
  });
  expect(delta).toEqual({
    offset: 7,
    type: 'delta',
    data: {
      agentId: 'a',
      stepId: 's1',
      modelCallId: 'a/step-s1/r/3',
      attempt: 2,
      purpose: 'step',
      channel: 'tool',
      text: '{"pa',
      toolCallId: 'c1',
    },
  });
});

test('messages: signal and update `answer`, query `state`, and the internal ones running workflows expect', () => {
  const definitions = Object.entries(messages).flatMap(([exported, value]) =>
    typeof value === 'object' && value !== null && 'type' in value && 'name' in value
      ? [[exported, value.type, value.name]]
      : [],
  );
  expect(definitions.sort()).toEqual(
    [
      // Public: the web app, the CLI, the Temporal UI and `temporal workflow signal --name answer`.
      ['answerSignal', 'signal', 'answer'],
      ['answerUpdate', 'update', 'answer'],
      ['stateQuery', 'query', 'state'],
      ['pauseSignal', 'signal', 'pause'],
      ['resumeSignal', 'signal', 'resume'],
      // Cairn's HTTP API: pause, resume and the cancellation's record, with the actor it authenticated.
      ['pauseUpdate', 'update', 'pause'],
      ['resumeUpdate', 'update', 'resume'],
      ['recordCancelUpdate', 'update', 'recordCancel'],
      // Internal, but workflows already running (and recorded histories) send and expect them.
      ['conversationQuery', 'query', 'conversation'],
      ['stepAnswerSignal', 'signal', 'stepAnswer'],
      ['stepInteractionSignal', 'signal', 'stepInteraction'],
      ['stepProgressSignal', 'signal', 'stepProgress'],
      ['stepHoldSignal', 'signal', 'stepHold'],
      ['nestedBudgetSignal', 'signal', 'nestedBudget'],
      // A message for the running model: a thread's `steer`, passed on by the agent to its steps.
      ['incomingMessageSignal', 'signal', 'steer'],
    ].sort(),
  );
});

test('threads: update `send`, queries `thread`, `message` and `messageOfUpdate`, signal `steer` to a turn (one way: the turn result names what its steps heard); ids `thread-<slug>-<short id>`, turns `<thread id>/turn-<n>`', () => {
  const definitions = Object.entries(threadContract).flatMap(([exported, value]) =>
    typeof value === 'object' && value !== null && 'type' in value && 'name' in value
      ? [[exported, value.type, value.name]]
      : [],
  );
  expect(definitions.sort()).toEqual(
    [
      ['messageOfUpdateQuery', 'query', 'messageOfUpdate'],
      ['messageQuery', 'query', 'message'],
      ['sendUpdate', 'update', 'send'],
      ['steerSignal', 'signal', 'steer'],
      ['threadQuery', 'query', 'thread'],
    ].sort(),
  );
  expect(threadWorkflowId('Plan the launch', '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d')).toBe(
    'thread-plan-the-launch-1a2b3c4d',
  );
  expect(threadWorkflowId('', randomUUID())).toMatch(/^thread-task-[0-9a-f]{8}$/);
  expect(threadContract.threadTurnWorkflowId('thread-plan-1a2b3c4d', 3)).toBe('thread-plan-1a2b3c4d/turn-3');
  expect(threadContract.threadMessageId(3)).toBe('msg-3');
});

test('a step answers the query `transcript` (its rounds, docs/contracts.md#step-transcripts)', () => {
  const definitions = Object.entries(stepTranscript).flatMap(([exported, value]) =>
    typeof value === 'object' && value !== null && 'type' in value && 'name' in value
      ? [[exported, value.type, value.name]]
      : [],
  );
  expect(definitions).toEqual([['transcriptQuery', 'query', 'transcript']]);
});

test('task queue: `cairn` by default, LLM calls on `cairn-llm`', () => {
  expect(DEFAULT_TASK_QUEUE).toBe('cairn');
  expect(loadConfig({}).taskQueue).toBe('cairn');
  expect(loadConfig({ CAIRN_TASK_QUEUE: 'other' }).taskQueue).toBe('other');
  expect(llmTaskQueue('cairn')).toBe('cairn-llm');
});

test('search attributes: AgentPhase (Keyword), AgentAwaitingInput (Bool), AgentTokens (Int), AgentCostUsd (Double), defined and registered alike', () => {
  const defined = Object.values(searchAttributes).map((key) => [key.name, key.type]);
  expect(defined.sort()).toEqual([
    ['AgentAwaitingInput', 'BOOL'],
    ['AgentCostUsd', 'DOUBLE'],
    ['AgentPhase', 'KEYWORD'],
    ['AgentTokens', 'INT'],
  ]);
  // What the dev server and `npm run setup-cluster` register on the server.
  expect(SEARCH_ATTRIBUTES).toEqual({
    AgentPhase: 'Keyword',
    AgentAwaitingInput: 'Bool',
    AgentTokens: 'Int',
    AgentCostUsd: 'Double',
  });
  // The values of AgentPhase that saved filters such as `AgentPhase = 'awaiting_input'` use.
  expect(AGENT_PHASES).toEqual([
    'planning',
    'awaiting_input',
    'executing',
    'paused',
    'replanning',
    'summarizing',
    'completed',
    'stopped',
    'failed',
    'cancelled',
  ]);
});

test('workflow ids: agents `agent-<slug>-<short id>`, steps `<agent id>/step-<step id>`, nested agents `…/sub-<call id>`', () => {
  expect(agentWorkflowId('Compare three note-taking apps', '1a2b3c4d-5e6f-7a8b-9c0d-1e2f3a4b5c6d')).toBe(
    'agent-compare-three-note-taking-apps-1a2b3c4d',
  );
  expect(agentWorkflowId('Explain durable execution', randomUUID())).toMatch(
    /^agent-explain-durable-execution-[0-9a-f]{8}$/,
  );
  expect(stepWorkflowId('agent-compare-1a2b3c4d', 's2')).toBe('agent-compare-1a2b3c4d/step-s2');
  expect(subAgentWorkflowId('agent-compare-1a2b3c4d', 's2', 'call_7')).toBe(
    'agent-compare-1a2b3c4d/step-s2/sub-call_7',
  );
});

describe('HTTP routes', () => {
  const ROUTES = [
    'POST /api/agents',
    'GET /api/agents',
    'GET /api/agents/:id',
    'POST /api/agents/:id/answers',
    'POST /api/agents/:id/cancel',
    'POST /api/agents/:id/pause',
    'POST /api/agents/:id/resume',
    'GET /api/agents/:id/events',
    'GET /api/agents/:id/stream',
    'GET /api/agents/:id/audit',
    'GET /api/agents/:id/steps/:stepId/transcript',
    'GET /api/agents/:id/files',
    'GET /api/agents/:id/files/:path',
    'GET /api/graphs',
    'GET /api/agent-definitions',
    'GET /api/tools',
    'GET /api/agent-definitions/:name',
    'POST /api/threads',
    'GET /api/threads',
    'GET /api/threads/:id',
    'GET /api/threads/:id/stream',
    'GET /api/threads/:id/messages/:messageId',
    'POST /api/threads/:id/messages',
    'POST /v1/chat/completions',
    'GET /v1/models',
    'GET /api/me',
    'GET /healthz',
    'GET /api/openapi.json',
  ];
  const agents = unusedAgents('the contract test calls no agent route');
  const threads = unusedThreads('the contract test calls no thread route');
  const app = createApp({ version: 'contract', temporalHealthy: () => Promise.resolve(true), agents, threads });

  test('the route table serves every documented route', () => {
    // A parameter's own pattern (`:path{.+}`, a path across folders) is left out of its name.
    const served = new Set(app.routes.map((r) => `${r.method} ${r.path.replace(/\{[^/]*\}/g, '')}`));
    expect(ROUTES.filter((route) => !served.has(route))).toEqual([]);
  });

  test('the OpenAPI document the app serves lists the same routes (all but itself)', async () => {
    const res = await app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).toEqual(ROUTES.filter((r) => r !== 'GET /api/openapi.json').sort());
    expect((await app.request('/healthz')).status).toBe(200);
  });
});

describe('LLM request headers', () => {
  const PURPOSES = [
    'plan',
    'replan',
    'step',
    'summary',
    'model',
    'route',
    'verify',
    'assess',
    'chat',
    'route-message',
    'compress',
    'title',
  ] as const;
  // Fails to compile when LlmPurpose gains, loses or renames a value the list does not.
  type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
  const purposesMatch: Same<LlmPurpose, (typeof PURPOSES)[number]> = true;

  let llm: ScriptedLlm;
  beforeAll(async () => {
    llm = await ScriptedLlm.start();
  });
  afterAll(async () => {
    await llm.close();
  });

  test('X-Cairn-Purpose (plan | replan | step | summary | model | route | verify | assess | chat | route-message | compress | title), X-Cairn-Agent, X-Cairn-Step on the wire', async () => {
    expect(purposesMatch).toBe(true);
    const config = loadConfig({ OPENAI_BASE_URL: llm.baseUrl, CAIRN_MODEL: 'scripted-model' });
    const { callLlm } = createLlmActivities({
      openai: createOpenAiClient(config.llm),
      defaultModel: config.llm.model,
      readConversation: () => Promise.reject(new Error('messages are inline')),
      toolSpec: () => undefined,
      redact: (text) => text,
    });
    for (const purpose of PURPOSES) {
      llm.enqueue(reply.text('ok'));
      const stepId = ['step', 'model', 'route', 'verify'].includes(purpose) ? 's2' : undefined;
      const input: LlmCallInput = {
        purpose,
        ownerId: 'agent-contract-1a2b3c4d',
        ...(stepId ? { stepId } : {}),
        messages: [{ role: 'user', content: 'hi' }],
      };
      await new MockActivityEnvironment().run(callLlm, input);
    }
    // A call scheduled by a worker of 0.3.0 or before names its owner `agentId`: the same header.
    llm.enqueue(reply.text('ok'));
    const legacy: LegacyLlmCallInput = {
      purpose: 'plan',
      agentId: 'agent-old-1a2b3c4d',
      messages: [{ role: 'user', content: 'hi' }],
    };
    await new MockActivityEnvironment().run(callLlm, legacy);
    // Node lower-cases header names; HTTP compares them without case.
    const sent = llm.requests.map((r) => [
      r.headers['X-Cairn-Purpose'.toLowerCase()],
      r.headers['X-Cairn-Agent'.toLowerCase()],
      r.headers['X-Cairn-Step'.toLowerCase()],
    ]);
    expect(sent).toEqual([
      ['plan', 'agent-contract-1a2b3c4d', undefined],
      ['replan', 'agent-contract-1a2b3c4d', undefined],
      ['step', 'agent-contract-1a2b3c4d', 's2'],
      ['summary', 'agent-contract-1a2b3c4d', undefined],
      ['model', 'agent-contract-1a2b3c4d', 's2'],
      ['route', 'agent-contract-1a2b3c4d', 's2'],
      ['verify', 'agent-contract-1a2b3c4d', 's2'],
      ['assess', 'agent-contract-1a2b3c4d', undefined],
      ['chat', 'agent-contract-1a2b3c4d', undefined],
      ['route-message', 'agent-contract-1a2b3c4d', undefined],
      ['compress', 'agent-contract-1a2b3c4d', undefined],
      ['title', 'agent-contract-1a2b3c4d', undefined],
      ['plan', 'agent-old-1a2b3c4d', undefined],
    ]);
  });
});

test('the workflow type names are spelled once: code outside workflows/model/agent/agent-contract.ts imports them', () => {
  const root = join(__dirname, '..', '..');
  const sources = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return sources(path);
      return /\.(ts|js)$/.test(entry.name) ? [path] : [];
    });
  const spelled = ['activities', 'client', 'config', 'scripts', 'worker', 'workflows']
    .flatMap(sources)
    .filter((path) => path !== join('workflows', 'model', 'agent', 'agent-contract.ts'))
    .filter((path) => {
      const code = readFileSync(join(root, path), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/^\s*\/\/.*$/gm, '');
      return /['"`](agentWorkflow|stepWorkflow)['"`]/.test(code);
    });
  expect(spelled).toEqual([]);
});
