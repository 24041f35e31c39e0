/**
 * Cairn's own metrics, recorded through the Temporal runtime's metric meter so they are served
 * by the same Prometheus endpoint as the SDK's runtime metrics (one `/metrics`, one scrape
 * target; the SDK prefixes only its own with `temporal_`). Where each is measured, and why:
 *
 * - LLM tokens, cost, latency, calls and errors: in the LLM activity (worker/telemetry/
 *   activity-telemetry.ts), where the call happens — once per attempt, never on replay, with
 *   the endpoint's own usage figures and the error code the activity failed with.
 * - Tool calls: in the tool activity, for the same reasons.
 * - Step durations: in workflow code (workflows/telemetry/step-metrics.ts) through the workflow
 *   metric meter, because only the step workflow knows when a step (across its retries and
 *   continue-as-new runs) ended and how; the SDK drops workflow metrics during replay, so a
 *   step is counted once.
 * - Agents by phase and open interactions by kind and age: read from visibility and the agents'
 *   state (worker/telemetry/visibility-gauges.ts). They are levels, not events: a counter kept
 *   by workflow code would drift whenever a worker restarts, while visibility is the truth.
 *
 * Names are the contract of dashboards and alerts (docs/operations.md#observability).
 */
import type { MetricCounter, MetricGauge, MetricHistogram, MetricMeter } from '@temporalio/common';

/** Metric names, exactly as Prometheus shows them. */
export const METRIC_NAMES = {
  llmTokens: 'cairn_llm_tokens_total',
  llmCost: 'cairn_llm_cost_usd',
  llmCalls: 'cairn_llm_calls_total',
  llmErrors: 'cairn_llm_errors_total',
  llmLatency: 'cairn_llm_latency_seconds',
  toolCalls: 'cairn_tool_calls_total',
  stepDuration: 'cairn_step_duration_seconds',
  agents: 'cairn_agents',
  openInteractions: 'cairn_open_interactions',
  oldestInteractionAge: 'cairn_open_interaction_oldest_age_seconds',
} as const;

/** Bucket bounds (seconds) for step durations, which run from seconds to hours. */
export const STEP_DURATION_BUCKETS = [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600, 7200];
/** Bucket bounds (seconds) for one LLM call. */
export const LLM_LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** The instruments the worker records into. */
export interface CairnMetrics {
  /** Tokens by `model` and `kind` (prompt, completion). */
  llmTokens: MetricCounter;
  /** Cost in USD of each call by `model` (its `_sum` is the spend), when the endpoint reports one. */
  llmCost: MetricHistogram;
  /** Calls by `model` and `outcome` (ok, error). */
  llmCalls: MetricCounter;
  /** Failed calls by `model` and `code` (workflows/base/error-codes.ts). */
  llmErrors: MetricCounter;
  /** Seconds per call by `model` and `outcome`. */
  llmLatency: MetricHistogram;
  /** Tool calls by `tool` and `outcome` (ok, tool_error, failed). */
  toolCalls: MetricCounter;
  /** Running agents by `phase`. */
  agents: MetricGauge;
  /** Open interactions by `kind`. */
  openInteractions: MetricGauge;
  /** Age in seconds of the oldest open interaction by `kind` (0 when none is open). */
  oldestInteractionAge: MetricGauge;
}

/** Creates Cairn's instruments on `meter` (normally `Runtime.instance().metricMeter`). */
export function createCairnMetrics(meter: MetricMeter): CairnMetrics {
  const n = METRIC_NAMES;
  return {
    llmTokens: meter.createCounter(n.llmTokens, 'tokens', 'LLM tokens by model and kind (prompt, completion)'),
    llmCost: meter.createHistogram(n.llmCost, 'float', 'USD', 'Cost of each LLM call by model'),
    llmCalls: meter.createCounter(n.llmCalls, 'calls', 'LLM calls by model and outcome'),
    llmErrors: meter.createCounter(n.llmErrors, 'calls', 'Failed LLM calls by model and error code'),
    llmLatency: meter.createHistogram(n.llmLatency, 'float', 's', 'Seconds per LLM call by model and outcome'),
    toolCalls: meter.createCounter(n.toolCalls, 'calls', 'Tool calls by tool and outcome'),
    agents: meter.createGauge(n.agents, 'int', 'agents', 'Running agents by phase'),
    openInteractions: meter.createGauge(n.openInteractions, 'int', 'interactions', 'Open interactions by kind'),
    oldestInteractionAge: meter.createGauge(
      n.oldestInteractionAge,
      'float',
      's',
      'Age of the oldest open interaction by kind',
    ),
  };
}
