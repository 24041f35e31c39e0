/**
 * Execution of an agent graph: the walk (graph/graph-walk.ts) decides which nodes are ready, and
 * each visit runs as a step child workflow — every ready node at once, up to `maxParallelSteps`.
 * A finished visit leaves by its edges (an `llm` condition asks the router first), which makes
 * the next nodes ready; `state.path` records each visit and the edge it took. The first end
 * node reached completes the graph once nothing runs. A visit beyond `maxIterations` stops the
 * agent (`max_iterations`); a failed visit goes through the failure policy as a plan step does
 * (skip ends its branch). At a roll-over, new visits stop and, once running ones settle, the walk
 * is carried to the next run, which goes on from there.
 */
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import { routeChoices } from '../../graph/graph-exits';
import type { Graph } from '../../graph/graph-schema';
import { abandonVisit, leaveVisit, readyNodes, startVisits, type Walk, type WalkVisit } from '../../graph/graph-walk';
import type { StepOutcome } from '../../step/step-types';
import type { ToolInfo } from '../../tools/tool-types';
import type { AgentRun } from '../agent-run';
import type { StepFailure } from '../execution';
import { runStepChild, withSteered } from '../run-step';
import { startWithHeldSteers } from '../agent-steer';
import { awaitChange } from '../await-change';
import { keepBounded } from './graph-bounds';
import { routeVisit } from './route-visit';
import { nodeOf, sourcesOf, visitInput } from './visit-input';

/** How a graph's execution ended. */
export type GraphOutcome =
  | { kind: 'done'; stepId: string }
  | { kind: 'no-end' }
  | { kind: 'max-iterations' }
  | { kind: 'roll-over' }
  | ({ kind: 'failed' } & StepFailure);

/** Runs the graph from `walk` until it ends, fails, or rolls over. */
export function executeGraph(
  run: AgentRun,
  graph: Graph,
  walk: Walk,
  tools: ToolInfo[],
): Promise<{ outcome: GraphOutcome; walk: Walk }> {
  return new GraphExecution(run, graph, walk, tools).run();
}

class GraphExecution {
  private readonly scopes: Record<string, CancellationScope> = {};
  private readonly tasks: Promise<void>[] = [];
  private changed = false;
  private failure: StepFailure | undefined;
  /** A failure of the graph itself (the router's), thrown once running visits settled. */
  private fatal: Error | undefined;
  private rollOver = false;

  constructor(
    private readonly agent: AgentRun,
    private readonly graph: Graph,
    private walk: Walk,
    private readonly tools: ToolInfo[],
  ) {}

  async run(): Promise<{ outcome: GraphOutcome; walk: Walk }> {
    const { hold } = this.agent;
    for (;;) {
      this.rollOver ||= this.walk.ended === undefined && this.agent.rollOverDue();
      const mayGoOn = !this.failed() && !this.rollOver && this.walk.ended === undefined;
      const held = hold.held();
      if (mayGoOn && !held) this.startReady();
      const ready = readyNodes(this.walk, this.graph).length > 0;
      if (this.walk.running.length === 0 && !(held && mayGoOn && ready)) break;
      await awaitChange(() => this.changed, hold, held, this.tasks);
      this.changed = false;
    }
    await Promise.all(this.tasks);
    if (this.fatal !== undefined) throw this.fatal;
    return { outcome: this.outcome(), walk: this.walk };
  }

  private failed(): boolean {
    return this.failure !== undefined || this.fatal !== undefined;
  }

  /** Ends the graph with `err`: running visits are cancelled, and it is thrown once they settled. */
  private abort(err: Error): void {
    this.fatal ??= err;
    for (const scope of Object.values(this.scopes)) scope.cancel();
  }

  private outcome(): GraphOutcome {
    if (this.failure !== undefined) return { kind: 'failed', ...this.failure };
    const ended = this.walk.ended;
    if (ended?.status === 'completed') return { kind: 'done', stepId: ended.stepId };
    if (ended?.status === 'failed') return { kind: 'no-end' };
    if (ended?.status === 'stopped') return { kind: 'max-iterations' };
    return { kind: 'roll-over' };
  }

  /** Starts the ready nodes' next visits, as many as free slots allow; one beyond its bound stops the agent. */
  private startReady(): void {
    const { settings } = this.agent;
    const free = Math.max(0, settings.limits.maxParallelSteps - this.walk.running.length);
    const chosen = readyNodes(this.walk, this.graph).slice(0, free);
    if (chosen.length === 0) return;
    const sources = Object.fromEntries(chosen.map((node) => [node, sourcesOf(this.walk, this.graph, node)]));
    const before = this.walk;
    const { walk, started } = startVisits(this.walk, this.graph, chosen);
    this.update(walk);
    if (walk.ended?.status === 'stopped') {
      const bound = this.graph.maxIterations;
      this.agent.event({
        type: 'step.guard',
        message: `node ${walk.ended.node} would run more than ${bound} times (maxIterations): the agent stops`,
      });
      // Visits still running are stopped with the agent; with none, the walk's end says it.
      if (walk.running.length > 0) this.agent.ending.stop('max_iterations');
      return;
    }
    const inputOf = (v: WalkVisit) => visitInput(this.agent, this.graph, before, v, sources[v.node] ?? [], this.tools);
    startWithHeldSteers(this.agent, (steered) =>
      started.filter((visit) => this.start(visit, withSteered(inputOf(visit), steered))).map((v) => v.stepId),
    );
  }

  /** Starts a visit's step; false when it could not start. */
  private start(visit: WalkVisit, input: ReturnType<typeof visitInput>): boolean {
    const { board } = this.agent;
    board.add(visit.stepId, input.step.title);
    if (!board.start(visit.stepId)) return false;
    const scope = new CancellationScope();
    this.scopes[visit.stepId] = scope;
    const task = scope
      .run(() => runStepChild(this.agent, input, `${visit.node} · visit ${visit.visit}`))
      .then((outcome) => this.settle(visit, outcome, input))
      .finally(() => void (this.changed = true));
    this.tasks.push(task);
    return true;
  }

  private async settle(visit: WalkVisit, outcome: StepOutcome, input: ReturnType<typeof visitInput>): Promise<void> {
    const { board } = this.agent;
    delete this.scopes[visit.stepId];
    if (outcome.progress) this.agent.progress(outcome.progress);
    if (outcome.status === 'completed') {
      board.complete(visit.stepId, outcome.result, outcome);
      await this.leave(visit, outcome.result, outcome.output);
      return;
    }
    const cancelled = outcome.code === 'CANCELLED';
    board.end(visit.stepId, cancelled ? 'cancelled' : 'failed', outcome.error);
    if (cancelled || this.failed()) return this.update(abandonVisit(this.walk, this.graph, visit.stepId));
    await this.onFailed(visit, outcome.code, outcome.error, input);
  }

  /** Takes the visit's exit: the router first when `llm` edges are candidates. */
  private async leave(visit: WalkVisit, result: string, output: unknown): Promise<void> {
    const choices = routeChoices(this.graph, visit.node, output);
    try {
      const routed = choices.length
        ? await routeVisit(this.agent, visit, nodeOf(this.graph, visit.node), { result, output }, choices)
        : undefined;
      this.update(leaveVisit(this.walk, this.graph, visit.stepId, { output, ...(routed ? { routed } : {}) }).walk);
    } catch (err) {
      this.update(abandonVisit(this.walk, this.graph, visit.stepId));
      if (isCancellation(err)) throw err;
      this.abort(err instanceof Error ? err : new Error(String(err))); // the router's (ROUTE_INVALID)
    }
  }

  /** The failure policy: `fail` aborts, `continue` ends the branch, `ask` lets a person decide. */
  private async onFailed(
    visit: WalkVisit,
    code: StepFailure['code'],
    error: string,
    input: ReturnType<typeof visitInput>,
  ): Promise<void> {
    const { board, desk, settings } = this.agent;
    let decision: 'retry' | 'skip' | 'abort' = settings.onStepFailure === 'fail' ? 'abort' : 'skip';
    if (settings.onStepFailure === 'ask') {
      board.await(visit.stepId);
      const prompt = `Step "${input.step.title}" (${visit.stepId}) failed. Retry, skip or abort?`;
      ({ decision } = await desk.ask<'step.failure'>({ kind: 'step.failure', prompt, error }, visit.stepId));
      board.decide(visit.stepId, decision);
    }
    if (decision === 'retry') return this.retry(visit, input);
    if (decision === 'skip') return this.update(abandonVisit(this.walk, this.graph, visit.stepId));
    this.failure = { stepId: visit.stepId, code, error: `step ${visit.stepId} failed: ${error}` };
    this.update(abandonVisit(this.walk, this.graph, visit.stepId));
    for (const scope of Object.values(this.scopes)) scope.cancel();
  }

  /** Runs the same visit again (the walk still counts it as running), hearing what is held now, not at its first start. */
  private retry(visit: WalkVisit, input: ReturnType<typeof visitInput>): void {
    startWithHeldSteers(this.agent, (steered) =>
      this.start(visit, withSteered(input, steered)) ? [visit.stepId] : [],
    );
  }

  /** Makes `walk` current: `state.path` follows it, bounded with the board. */
  private update(walk: Walk): void {
    this.walk = keepBounded(this.agent, walk);
  }
}
