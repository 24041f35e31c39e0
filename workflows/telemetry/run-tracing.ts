/**
 * One workflow run's tracing state, for the interceptors in trace-interceptors.ts: whether the
 * run is traced (decided once, behind the tracing patches), whom its spans belong to (the agent,
 * and the step for a step run), and Temporal's OpenTelemetry interceptors, loaded by the first
 * traced call only. Deterministic: labels come from the run's own info and input.
 */
import type * as OtelApi from '@opentelemetry/api';
import type * as OtelWorkflow from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { patched, workflowInfo, type WorkflowExecuteInput } from '@temporalio/workflow';
import { STEP_WORKFLOW_TYPE } from '../model/agent/agent-contract';
import { PATCHES } from '../base/patches';
import { ownerAttributes, type SpanOwner } from '../base/span-attributes';

/**
 * The header Temporal's OpenTelemetry interceptors carry a span context in (`TRACE_HEADER` of
 * @temporalio/interceptors-opentelemetry; a unit test holds the two equal).
 */
export const TRACE_HEADER = '_tracer-data';

/** OpenTelemetry's API and Temporal's workflow interceptors, evaluated on first use (see above). */
function loadOtel(): { api: typeof OtelApi; interceptors: typeof OtelWorkflow } {
  /* eslint-disable @typescript-eslint/no-require-imports -- a require evaluates the module when called, an import at load */
  return {
    api: require('@opentelemetry/api') as typeof OtelApi,
    interceptors: require('@temporalio/interceptors-opentelemetry/lib/workflow') as typeof OtelWorkflow,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/** The step input fields this reads; anything else leaves the step id out. */
function stepOwner(arg: unknown): SpanOwner | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { agentId, step } = arg as { agentId?: unknown; step?: { id?: unknown } };
  if (typeof agentId !== 'string') return undefined;
  return { agentId, ...(typeof step?.id === 'string' ? { stepId: step.id } : {}) };
}

/** Temporal's OpenTelemetry interceptors, one of each kind. */
interface TemporalTracers {
  inbound: OtelWorkflow.OpenTelemetryInboundInterceptor;
  outbound: OtelWorkflow.OpenTelemetryOutboundInterceptor;
  internals: OtelWorkflow.OpenTelemetryInternalsInterceptor;
}

/** One run's tracing state: whether it is traced, and whom its spans belong to. */
export class RunTracing {
  private traced: boolean | undefined;
  private owner: SpanOwner | undefined;
  /** Whether the run's start carried a trace header (known once the run executes). */
  private startTraced = false;
  /** Temporal's interceptors for this run, made by its first traced call. */
  private tracers: TemporalTracers | undefined;

  get otel(): TemporalTracers {
    if (this.tracers) return this.tracers;
    const { interceptors: m } = loadOtel();
    this.tracers = {
      inbound: new m.OpenTelemetryInboundInterceptor(),
      outbound: new m.OpenTelemetryOutboundInterceptor(),
      internals: new m.OpenTelemetryInternalsInterceptor(),
    };
    return this.tracers;
  }

  /** Whether this run is traced, deciding it now (a hook that may issue commands). */
  decide(): boolean {
    this.traced ??= patched(PATCHES.tracingByHeader) ? this.startTraced : patched(PATCHES.tracing);
    return this.traced;
  }

  /** Whether this run is traced, without deciding (read-only hooks). */
  get on(): boolean {
    return this.traced === true;
  }

  own(input: WorkflowExecuteInput): void {
    this.startTraced = TRACE_HEADER in input.headers;
    const info = workflowInfo();
    this.owner =
      info.workflowType === STEP_WORKFLOW_TYPE
        ? (stepOwner(input.args[0]) ?? { agentId: info.workflowId })
        : { agentId: info.workflowId };
  }

  labelActiveSpan(): void {
    if (this.owner) loadOtel().api.trace.getActiveSpan()?.setAttributes(ownerAttributes(this.owner));
  }
}
