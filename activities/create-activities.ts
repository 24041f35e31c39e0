/**
 * The activity factory: every side effect Cairn performs, built from injected dependencies so
 * the worker passes real clients and tests pass fakes.
 */
import type { ApprovalPolicy } from './policy/approval-policy';
import type { PriceTable } from '../config/price-config';
import type { LlmModelTable } from '../config/llm-models-config';
import type OpenAI from 'openai';
import type { Redactor } from '../config/redact-secrets';
import { askUserTool } from '../workflows/model/interactions/ask-user-tool';
import type { Activities } from '../workflows/contract/activities';
import type { LlmToolSpec } from '../workflows/model/llm/llm-types';
import type { PromptTexts } from '../workflows/model/prompts/templates';
import { workflowBuiltins } from '../workflows/model/tools/builtin-tools';
import { finishStepTool } from '../workflows/model/tools/finish-step';
import { createLlmActivities } from './llm/call-llm';
import type { ConversationReader } from './llm/read-conversation';
import type { StreamSupport } from './llm/stream-support';
import type { LivePublisher } from './live/live-call';
import type { AllowableClass } from './tools/builtin/address-policy';
import { createHttpFetchTool } from './tools/builtin/http-fetch';
import { listFilesTool } from './tools/builtin/list-files';
import { readFileTool } from './tools/builtin/read-file';
import { writeFileTool } from './tools/builtin/write-file';
import { createToolActivities } from './tools/create-tool-activities';
import type { ToolDefinition } from './tools/define-tool';
import { createToolRegistry } from './tools/tool-registry';

/** Everything activities need from outside. */
export interface ActivityDeps {
  openai: OpenAI;
  defaultModel: string;
  /** Reads conversations lent by reference (the workflows' `conversation` query). */
  conversations: ConversationReader;
  workspace: string;
  /** Folder of the idempotency ledger, outside the workspace. */
  ledgerDir: string;
  /** Extra tools beside the built-ins (user modules, MCP servers, tests). */
  tools?: ToolDefinition[];
  /** Write tools that run without approval. */
  autoApprove?: string[];
  /** Address classes http_fetch may reach besides public ones. */
  fetchAllow?: AllowableClass[];
  /** Removes secrets from error text before it is recorded (history, state, logs). */
  redact: Redactor;
  /** Model prices (config/price-config.ts); without them every cost is unknown. */
  prices?: PriceTable;
  /** Per-model reply budgets and pinned capabilities (config/llm-models-config.ts). */
  models?: LlmModelTable;
  /** The approval policy (CAIRN_POLICY_FILE): with it, every registered tool's calls are decided by it. */
  policy?: ApprovalPolicy;
  /** Which endpoints stream (CAIRN_LLM_STREAM and what endpoints refused); every one may when absent. */
  streams?: StreamSupport;
  /** The operator's prompt texts (CAIRN_PROMPTS_FILE, checked at start); none when absent. */
  prompts?: PromptTexts;
  /** Where model calls' deltas go as they stream (the agents' live streams); nowhere when absent. */
  live?: LivePublisher;
}

/** Built-in tools implemented in the workflows themselves; the model still needs their specs. */
const WORKFLOW_TOOLS: Record<string, LlmToolSpec> = {
  ask_user: askUserTool(),
  finish_step: finishStepTool(),
  ...workflowBuiltins(),
};

/** The registry's built-in tools. */
export function builtinTools(fetchAllow: AllowableClass[] = []): ToolDefinition[] {
  return [readFileTool, writeFileTool, listFilesTool, createHttpFetchTool({ allow: fetchAllow })];
}

/** Builds the activity implementations registered on the worker. */
export function createActivities(deps: ActivityDeps): Activities {
  const builtins = builtinTools(deps.fetchAllow);
  const registry = createToolRegistry(
    [...builtins, ...(deps.tools ?? [])],
    deps.redact,
    builtins.map((t) => t.name),
  );
  return {
    ...createLlmActivities({
      openai: deps.openai,
      workspace: deps.workspace,
      defaultModel: deps.defaultModel,
      readConversation: deps.conversations.read,
      toolSpec: (name) => WORKFLOW_TOOLS[name] ?? registry.spec(name),
      redact: deps.redact,
      ...(deps.prices ? { prices: deps.prices } : {}),
      ...(deps.models ? { models: deps.models } : {}),
      ...(deps.streams ? { streams: deps.streams } : {}),
      ...(deps.live ? { live: deps.live } : {}),
    }),
    ...createToolActivities({
      registry,
      workspace: deps.workspace,
      ledgerDir: deps.ledgerDir,
      autoApprove: deps.autoApprove ?? [],
      ...(deps.policy ? { policy: deps.policy } : {}),
    }),
    /** The operator's prompt texts, read once by each agent at its start (a local activity). */
    readPrompts(): Promise<PromptTexts> {
      return Promise.resolve(deps.prompts ?? {});
    },
  };
}

/** The activity interface, declared with the workflows (`proxyActivities<Activities>`). */
export type { Activities };
