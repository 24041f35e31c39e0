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
import {
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
import { RunTracing } from './run-tracing';

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
