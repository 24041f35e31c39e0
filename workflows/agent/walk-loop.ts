/**
 * The walk: the one loop that runs an agent's steps as child workflows, for graphs and plans
 * alike — a plan enters as its graph (plan-as-graph.ts). The graph walk (model/graph/graph-walk.ts)
 * says which nodes are ready; the rules order them (a graph's own order, a plan's longest
 * remaining path first) and each visit runs as a step child workflow, up to `maxParallelSteps`
 * at once. A finished visit leaves by its edges (an `llm` condition asks the router first), which
 * makes the next nodes ready; a completed step the rules replan after closes the walk. A failed
 * visit goes through the failure policy: `fail` aborts, `continue` skips (its branch ends, and
 * steps that waited on it are marked skipped), `ask` lets a person decide (retry runs the same
 * visit again at once). A visit beyond `maxIterations` stops the agent (`max_iterations`). When
 * the server suggests continue-as-new, a failure or the rules close the walk, new starts stop
 * and, once running steps settle (they are children of this run: it must not close under them),
 * the walk returns how it ended.
 */
import { CancellationScope, isCancellation } from '@temporalio/workflow';
import type { ErrorCode } from '../base/error-codes';
import type { SteerMessage } from '../contract/thread-contract';
import { routeChoices } from '../model/graph/graph-exits';
import type { Graph } from '../model/graph/graph-schema';
import { abandonVisit, leaveVisit, readyNodes, startVisits } from '../model/graph/graph-walk';
import type { Walk, WalkVisit } from '../model/graph/graph-walk';
import type { StepInput, StepOutcome } from '../step/step-types';
import type { AgentRun } from './agent-run';
import { startWithHeldSteers } from './agent-steer';
import { awaitChange } from './await-change';
import { routeVisit } from './graph/route-visit';
import { nodeOf, sourcesOf } from './graph/visit-input';
import { runStepChild, withSteered } from './run-step';

/** Why a walk ended the agent: the step whose failure did it, its code and its error. */
export interface StepFailure {
  stepId: string;
  code: ErrorCode;
  error: string;
}

/** How a walk ended. */
export type WalkOutcome =
  | { kind: 'done'; stepId: string }
  | { kind: 'no-end' }
  | { kind: 'max-iterations' }
  | { kind: 'replan' }
  | { kind: 'roll-over' }
  | ({ kind: 'failed' } & StepFailure);

/** A visit's step: its input and the name the Temporal UI shows for it. */
export interface VisitStep {
  input: StepInput;
  summary: string;
}

/** What differs between walking a developer's graph and a plan's. */
export interface WalkRules {
  /** The order ready nodes start in. */
  order(nodes: readonly string[]): string[];
  /** Whether step `id` completing closes the walk for a replan, once running steps settle. */
  replanAfter(id: string): boolean;
  /** The step of `visit`, made ready by the edges from `sources`; `walk` as it stood before the visit. */
  step(visit: WalkVisit, sources: string[], walk: Walk): VisitStep;
  /** What the agent's state keeps of the walk each time it moves; the walk goes on from what it returns. */
  kept(walk: Walk): Walk;
}

/** Runs `graph` from `walk` under `rules` until nothing runs and nothing may start. */
export async function runWalk(
  agent: AgentRun,
  graph: Graph,
  walk: Walk,
  rules: WalkRules,
): Promise<{ outcome: WalkOutcome; walk: Walk }> {
  const loop = new WalkLoop(agent, graph, walk, rules);
  const outcome = await loop.run();
  return { outcome, walk: loop.walk };
}

/** One pass of the walk; its fields are what it waits on. */
class WalkLoop {
  private readonly scopes: Record<string, CancellationScope> = {};
  private readonly tasks: Promise<void>[] = [];
  /** The visits started, by step id: what a retry starts again. */
  private readonly visits: Record<string, { visit: WalkVisit; sources: string[]; before: Walk; title: string }> = {};
  /** A step settled since the loop last looked. */
  private changed = false;
  private failure: StepFailure | undefined;
  /** A failure of the walk itself (a graph router's), thrown once running steps settled. */
  private fatal: Error | undefined;
  private rollOver = false;
  private replanDue = false;

  constructor(
    private readonly agent: AgentRun,
    private readonly graph: Graph,
    public walk: Walk,
    private readonly rules: WalkRules,
  ) {}

  async run(): Promise<WalkOutcome> {
    const { hold } = this.agent;
    for (;;) {
      this.rollOver ||= this.walk.ended === undefined && this.agent.rollOverDue();
      const mayGoOn = !this.failed() && !this.rollOver && !this.replanDue && this.walk.ended === undefined;
      // While held (paused, over budget) no step starts; the loop wakes when the hold lifts.
      const held = hold.held();
      if (mayGoOn && !held) this.startReady();
      const waiting = readyNodes(this.walk, this.graph).length > 0;
      if (this.walk.running.length === 0 && !(held && mayGoOn && waiting)) break;
      await awaitChange(() => this.changed, hold, held, this.tasks);
      this.changed = false;
    }
    await Promise.all(this.tasks);
    if (this.fatal !== undefined) throw this.fatal;
    return this.outcome();
  }

  private outcome(): WalkOutcome {
    if (this.failure !== undefined) return { kind: 'failed', ...this.failure };
    if (this.replanDue) return { kind: 'replan' };
    const ended = this.walk.ended;
    if (ended?.status === 'completed') return { kind: 'done', stepId: ended.stepId };
    if (ended?.status === 'failed') return { kind: 'no-end' };
    if (ended?.status === 'stopped') return { kind: 'max-iterations' };
    return { kind: 'roll-over' };
  }

  private failed(): boolean {
    return this.failure !== undefined || this.fatal !== undefined;
  }

  /** Starts the ready nodes' next visits, as many as free slots allow; one beyond its bound stops the agent. */
  private startReady(): void {
    const { agent, graph } = this;
    const free = Math.max(0, agent.settings.limits.maxParallelSteps - this.walk.running.length);
    const chosen = this.rules.order(readyNodes(this.walk, graph)).slice(0, free);
    if (chosen.length === 0) return;
    const sources = Object.fromEntries(chosen.map((node) => [node, sourcesOf(this.walk, graph, node)]));
    const before = this.walk;
    const { walk, started } = startVisits(this.walk, graph, chosen);
    this.move(walk);
    if (walk.ended?.status === 'stopped') {
      const bound = graph.maxIterations;
      agent.event({
        type: 'step.guard',
        message: `node ${walk.ended.node} would run more than ${bound} times (maxIterations): the agent stops`,
      });
      // Visits still running are stopped with the agent; with none, the walk's end says it.
      if (walk.running.length > 0) agent.ending.stop('max_iterations');
      return;
    }
    const steps = started.map((visit) => ({ visit, sources: sources[visit.node] ?? [], before }));
    startWithHeldSteers(agent, (steered) =>
      steps.filter((step) => this.start(step, steered)).map((step) => step.visit.stepId),
    );
  }

  /** Starts a visit's step (on the board first), hearing `steered`; false when the board would not start it. */
  private start(at: { visit: WalkVisit; sources: string[]; before: Walk }, steered: SteerMessage[]): boolean {
    const { input, summary } = this.rules.step(at.visit, at.sources, at.before);
    const id = at.visit.stepId;
    this.agent.board.add(id, input.step.title);
    this.visits[id] = { ...at, title: input.step.title };
    if (!this.agent.board.start(id)) return false;
    const scope = new CancellationScope();
    this.scopes[id] = scope;
    const child = () => runStepChild(this.agent, withSteered(input, steered), summary);
    const task = scope
      .run(child)
      .then((outcome) => this.settle(id, outcome))
      .finally(() => void (this.changed = true));
    this.tasks.push(task);
    return true;
  }

  private async settle(id: string, outcome: StepOutcome): Promise<void> {
    const { board } = this.agent;
    delete this.scopes[id];
    if (outcome.progress) this.agent.progress(outcome.progress);
    if (outcome.status === 'completed') {
      board.complete(id, outcome.result, outcome);
      return this.completed(id, outcome);
    }
    const cancelled = outcome.code === 'CANCELLED';
    board.end(id, cancelled ? 'cancelled' : 'failed', outcome.error);
    if (cancelled || this.failed()) return this.move(abandonVisit(this.walk, this.graph, id));
    await this.onFailed(id, outcome.code, outcome.error);
  }

  /** Takes the visit's exit (the router first when `llm` edges are candidates); then a replan may be due. */
  private async completed(id: string, { result, output }: { result: string; output?: unknown }): Promise<void> {
    const { visit } = this.started(id);
    const choices = routeChoices(this.graph, visit.node, output);
    try {
      const routed = choices.length
        ? await routeVisit(this.agent, visit, nodeOf(this.graph, visit.node), { result, output }, choices)
        : undefined;
      this.move(leaveVisit(this.walk, this.graph, id, { output, ...(routed ? { routed } : {}) }).walk);
    } catch (err) {
      this.move(abandonVisit(this.walk, this.graph, id));
      if (isCancellation(err)) throw err;
      this.fatal ??= err instanceof Error ? err : new Error(String(err)); // the router's (ROUTE_INVALID)
      return this.cancelAll();
    }
    if (this.rules.replanAfter(id)) this.replanDue = true;
  }

  /** The failure policy: `fail` aborts, `continue` skips, `ask` lets a person decide (retry, skip or abort). */
  private async onFailed(id: string, code: ErrorCode, error: string): Promise<void> {
    const { board, desk, settings } = this.agent;
    let decision: 'retry' | 'skip' | 'abort' = settings.onStepFailure === 'fail' ? 'abort' : 'skip';
    if (settings.onStepFailure === 'ask') {
      board.await(id);
      const prompt = `Step "${this.started(id).title}" (${id}) failed. Retry, skip or abort?`;
      ({ decision } = await desk.ask<'step.failure'>({ kind: 'step.failure', prompt, error }, id));
      board.decide(id, decision);
    }
    // A retry runs the same visit again (the walk still counts it as running), hearing what is held now.
    if (decision === 'retry')
      return startWithHeldSteers(this.agent, (s) => (this.start(this.started(id), s) ? [id] : []));
    this.move(abandonVisit(this.walk, this.graph, id));
    // Its branch ends: steps on the board that waited on it can no longer run.
    if (decision === 'skip') board.skipDependents(dependsOn(this.graph), id);
    if (decision !== 'abort') return;
    this.failure = { stepId: id, code, error: `step ${id} failed: ${error}` };
    this.cancelAll();
  }

  private started(id: string): { visit: WalkVisit; sources: string[]; before: Walk; title: string } {
    const started = this.visits[id];
    if (!started) throw new Error(`no visit started as ${id}`);
    return started;
  }

  /** Makes `walk` current, as the rules keep it. */
  private move(walk: Walk): void {
    this.walk = this.rules.kept(walk);
  }

  private cancelAll(): void {
    for (const scope of Object.values(this.scopes)) scope.cancel();
  }
}

/** Each node with the nodes whose edges lead into it: a plan's steps and their dependencies. */
function dependsOn(graph: Graph): { steps: { id: string; depends_on: string[] }[] } {
  const into = (id: string) => [...new Set(graph.edges.filter((edge) => edge.to === id).map((edge) => edge.from))];
  return { steps: graph.nodes.map((node) => ({ id: node.id, depends_on: into(node.id) })) };
}
