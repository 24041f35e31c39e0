/**
 * Workflow interceptors for tracing (the bundle's `workflowInterceptorModules`, see
 * worker/workflows-path.ts): Temporal's OpenTelemetry interceptors, which open a span for the
 * run, each activity, child and outgoing signal (not for incoming signals and updates: see
 * TracingInbound), and Cairn's, which name the agent and step on
 * those spans. Cairn's run inside Temporal's, so the active span is the one to label.
 *
 * Temporal's interceptors wrap handlers in extra awaits, which reorders commands against a
 * history recorded without them (an update completing before a search-attribute upsert), so
 * they are switched on per run behind `patched(PATCHES.tracing)`: runs recorded before tracing
 * existed replay untraced. The decision is taken at the first hook that may issue commands
 * (the run itself, a signal, an update); read-only hooks (queries, log attributes) never
 * decide and only trace once it is on.
 *
 * Since `PATCHES.tracingByHeader`, a run is traced only when whoever started it was: its start
 * carries Temporal's trace header (a tracing client, or a traced parent run for a step). Without
 * tracing configured, runs then skip Temporal's interceptors entirely — they cost a quarter of
 * the worker's CPU even with every span dropped. Runs started before that patch keep deciding
 * by `PATCHES.tracing` alone, as they were recorded.
 *
 * Temporal's interceptors and OpenTelemetry are loaded by the first run that is traced, not by
 * every run: the SDK evaluates a bundle's modules afresh for each workflow, and evaluating
 * OpenTelemetry's SDK was a tenth of the workflow thread's time in untraced runs.
 *
 * Deterministic: spans leave through a sink that is not called during replay, and the labels
 * are read from the workflow's own info and input.
 */
import type * as OtelApi from '@opentelemetry/api';
import type * as OtelWorkflow from '@temporalio/interceptors-opentelemetry/lib/workflow';
import {
  patched,
  workflowInfo,
  type ActivityInput,
  type ContinueAsNewInput,
  type DisposeInput,
  type GetLogAttributesInput,
  type GetMetricTagsInput,
  type LocalActivityInput,
  type Next,
  type QueryInput,
  type SignalInput,
  type SignalWorkflowInput,
  type StartChildWorkflowExecutionInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { ownerAttributes, type SpanOwner } from './span-attributes';
import { PATCHES } from '../patches';
import { STEP_WORKFLOW_TYPE } from '../agent-contract';

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
class RunTracing {
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

class TracingInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly run: RunTracing) {}

  execute(input: WorkflowExecuteInput, next: Next<WorkflowInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    this.run.own(input);
    if (!this.run.decide()) return next(input);
    return this.run.otel.inbound.execute(input, (i) => {
      this.run.labelActiveSpan();
      return next(i);
    });
  }

  // Signals and updates are not traced: Temporal's wrappers run a handler a few microtasks
  // later than the SDK delivers it, and an update's completion then lands on the other side of
  // a search-attribute upsert on replay than it did live (a nondeterminism error on the next
  // cache miss or query of a waiting agent). Their spans are not worth that.
  handleSignal(input: SignalInput, next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>): Promise<void> {
    this.run.decide();
    return next(input);
  }

  handleUpdate(input: UpdateInput, next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>): Promise<unknown> {
    this.run.decide();
    return next(input);
  }

  handleQuery(input: QueryInput, next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>): Promise<unknown> {
    return this.run.on ? this.run.otel.inbound.handleQuery(input, next) : next(input);
  }
}

class TracingOutbound implements WorkflowOutboundCallsInterceptor {
  constructor(private readonly run: RunTracing) {}

  scheduleActivity(input: ActivityInput, next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>) {
    if (!this.run.decide()) return next(input);
    return this.run.otel.outbound.scheduleActivity(input, (i) => {
      this.run.labelActiveSpan();
      return next(i);
    });
  }

  scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ) {
    return this.run.decide() ? this.run.otel.outbound.scheduleLocalActivity(input, next) : next(input);
  }

  startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ) {
    if (!this.run.decide()) return next(input);
    return this.run.otel.outbound.startChildWorkflowExecution(input, (i) => {
      this.run.labelActiveSpan();
      return next(i);
    });
  }

  continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>) {
    return this.run.decide() ? this.run.otel.outbound.continueAsNew(input, next) : next(input);
  }

  signalWorkflow(input: SignalWorkflowInput, next: Next<WorkflowOutboundCallsInterceptor, 'signalWorkflow'>) {
    return this.run.decide() ? this.run.otel.outbound.signalWorkflow(input, next) : next(input);
  }

  getLogAttributes(input: GetLogAttributesInput, next: Next<WorkflowOutboundCallsInterceptor, 'getLogAttributes'>) {
    return this.run.on ? this.run.otel.outbound.getLogAttributes(input, next) : next(input);
  }

  getMetricTags(input: GetMetricTagsInput, next: Next<WorkflowOutboundCallsInterceptor, 'getMetricTags'>) {
    return this.run.on ? this.run.otel.outbound.getMetricTags(input, next) : next(input);
  }
}

class TracingInternals implements WorkflowInternalsInterceptor {
  constructor(private readonly run: RunTracing) {}

  dispose(input: DisposeInput, next: Next<WorkflowInternalsInterceptor, 'dispose'>): void {
    // Temporal's dispose only disables its context manager and calls next synchronously.
    if (this.run.on) void this.run.otel.internals.dispose(input, next);
    else next(input);
  }
}

/** The interceptor factory the SDK calls once per workflow run. */
export const interceptors = (): WorkflowInterceptors => {
  const run = new RunTracing();
  return {
    inbound: [new TracingInbound(run)],
    outbound: [new TracingOutbound(run)],
    internals: [new TracingInternals(run)],
  };
};
