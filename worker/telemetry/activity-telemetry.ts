/**
 * Cairn's activity interceptor: names the agent, step, tool and model on the span Temporal's
 * interceptor opened around the activity (it runs inside that span), and records the LLM and
 * tool metrics of worker/telemetry/cairn-metrics.ts. It reads the activity's own input and
 * result, so the activities themselves stay free of telemetry.
 */
import { trace } from '@opentelemetry/api';
import type { Context as ActivityContext } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityInterceptorsFactory,
  Next,
} from '@temporalio/worker';
import { z } from 'zod';
import { ownerAttributes, SPAN_ATTRIBUTES } from '../../workflows/base/span-attributes';
import type { CairnMetrics } from './cairn-metrics';

/**
 * The fields of the `callLlm` input this reads (workflows/model/llm/llm-types.ts): its owner is
 * `ownerId`, or `agentId` in a call an older worker scheduled. The span's attribute keeps its
 * public name, `cairn.agent.id`.
 */
const llmInputSchema = z
  .object({
    purpose: z.string(),
    ownerId: z.string().optional(),
    agentId: z.string().optional(),
    stepId: z.string().optional(),
    model: z.object({ name: z.string().optional() }).optional(),
  })
  .transform(({ ownerId, agentId, ...rest }, ctx) => {
    const owner = ownerId ?? agentId;
    if (owner === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a callLlm input names its owner' });
      return z.NEVER;
    }
    return { ...rest, agentId: owner };
  });

/**
 * The fields of the `callLlm` result this reads. `costUsd` is null when the price table does not
 * name the model (an unknown cost is not recorded, never as 0).
 */
const llmResultSchema = z.object({
  usage: z.object({
    promptTokens: z.number(),
    completionTokens: z.number(),
    costUsd: z.number().nullable().optional(),
  }),
});

/** The fields of the `runTool` input and outcome this reads (workflows/model/tools/tool-types.ts). */
const toolInputSchema = z.object({ agentId: z.string(), stepId: z.string(), name: z.string() });
const toolOutcomeSchema = z.object({ ok: z.boolean() });

/** The code an activity failed with: its ApplicationFailure type, CANCELLED, or UNKNOWN. */
function codeOf(err: unknown): string {
  if (err instanceof CancelledFailure) return 'CANCELLED';
  if (err instanceof ApplicationFailure && err.type) return err.type;
  return 'UNKNOWN';
}

/** How LLM calls are labelled: the model of calls whose agent names none, and each name's label. */
export interface ModelLabels {
  defaultModel: string;
  /** `name` if the configuration knows it, else `other` (model-label.ts). */
  labelOf: (model: string) => string;
}

class LlmTelemetry implements ActivityInboundCallsInterceptor {
  constructor(
    private readonly metrics: CairnMetrics,
    private readonly models: ModelLabels,
  ) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
    const call = llmInputSchema.safeParse(input.args[0]);
    if (!call.success) return next(input);
    // The model asked for: errors have no other, and one label keeps error rates comparable. An
    // agent may name any model, so only a configured name is a label (the rest are `other`).
    const model = this.models.labelOf(call.data.model?.name ?? this.models.defaultModel);
    trace.getActiveSpan()?.setAttributes({
      ...ownerAttributes(call.data),
      [SPAN_ATTRIBUTES.llmModel]: model,
      [SPAN_ATTRIBUTES.llmPurpose]: call.data.purpose,
    });
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    try {
      const result = await next(input);
      this.metrics.llmLatency.record(seconds(), { model, outcome: 'ok' });
      this.metrics.llmCalls.add(1, { model, outcome: 'ok' });
      const usage = llmResultSchema.safeParse(result);
      if (usage.success) {
        const { promptTokens, completionTokens, costUsd } = usage.data.usage;
        this.metrics.llmTokens.add(promptTokens, { model, kind: 'prompt' });
        this.metrics.llmTokens.add(completionTokens, { model, kind: 'completion' });
        if (typeof costUsd === 'number') this.metrics.llmCost.record(costUsd, { model });
      }
      return result;
    } catch (err) {
      const code = codeOf(err);
      trace.getActiveSpan()?.setAttribute(SPAN_ATTRIBUTES.errorCode, code);
      this.metrics.llmLatency.record(seconds(), { model, outcome: 'error' });
      this.metrics.llmCalls.add(1, { model, outcome: 'error' });
      this.metrics.llmErrors.add(1, { model, code });
      throw err;
    }
  }
}

class ToolTelemetry implements ActivityInboundCallsInterceptor {
  constructor(private readonly metrics: CairnMetrics) {}

  async execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>) {
    const call = toolInputSchema.safeParse(input.args[0]);
    if (!call.success) return next(input);
    const tool = call.data.name;
    trace.getActiveSpan()?.setAttributes({ ...ownerAttributes(call.data), [SPAN_ATTRIBUTES.toolName]: tool });
    try {
      const result = await next(input);
      const outcome = toolOutcomeSchema.safeParse(result);
      this.metrics.toolCalls.add(1, { tool, outcome: outcome.success && !outcome.data.ok ? 'tool_error' : 'ok' });
      return result;
    } catch (err) {
      trace.getActiveSpan()?.setAttribute(SPAN_ATTRIBUTES.errorCode, codeOf(err));
      this.metrics.toolCalls.add(1, { tool, outcome: 'failed' });
      throw err;
    }
  }
}

/**
 * The interceptor factory for Cairn's activities; list it after Temporal's so it runs inside
 * the activity span. `models` labels each call by its model.
 */
export function activityTelemetry(metrics: CairnMetrics, models: ModelLabels): ActivityInterceptorsFactory {
  return (ctx: ActivityContext) => {
    switch (ctx.info.activityType) {
      case 'callLlm':
        return { inbound: new LlmTelemetry(metrics, models) };
      case 'runTool':
        return { inbound: new ToolTelemetry(metrics) };
      default:
        return {};
    }
  };
}
