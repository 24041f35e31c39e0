/**
 * Execution of an agent graph: the one walk loop (../walk-loop.ts) under the graph's policy. The
 * walk (graph/graph-walk.ts) decides which nodes are ready, and each visit runs as a step child
 * workflow — every ready node at once, up to `maxParallelSteps`. A finished visit leaves by its
 * edges (an `llm` condition asks the router first), which makes the next nodes ready;
 * `state.path` records each visit and the edge it took. The first end node reached completes the
 * graph once nothing runs. A visit beyond `maxIterations` stops the agent (`max_iterations`); a
 * failed visit goes through the failure policy as a plan step does (skip ends its branch). At a
 * roll-over, new visits stop and, once running ones settle, the walk is carried to the next run,
 * which goes on from there.
 */
import { isCancellation } from '@temporalio/workflow';
import { routeChoices } from '../../graph/graph-exits';
import type { Graph } from '../../graph/graph-schema';
import { abandonVisit, leaveVisit, readyNodes, startVisits, type Walk, type WalkVisit } from '../../graph/graph-walk';
import type { StepInput } from '../../step/step-types';
import type { ToolInfo } from '../../tools/tool-types';
import type { AgentRun } from '../agent-run';
import { runStepChild, withSteered } from '../run-step';
import { startWithHeldSteers } from '../agent-steer';
import { runWalk, type StepFailure, type WalkLoop, type WalkPolicy } from '../walk-loop';
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

type Loop = WalkLoop<GraphOutcome>;

/** Runs the graph from `walk` until it ends, fails, or rolls over. */
export async function executeGraph(
  run: AgentRun,
  graph: Graph,
  walk: Walk,
  tools: ToolInfo[],
): Promise<{ outcome: GraphOutcome; walk: Walk }> {
  const policy = new GraphPolicy(run, graph, walk, tools);
  const outcome = await runWalk(run, policy);
  return { outcome, walk: policy.walk };
}

/** The graph's decisions: which visits start, where a finished one leads, and how the walk ended. */
class GraphPolicy implements WalkPolicy<GraphOutcome> {
  /** The visits started, by step id: what a retry starts again and a failure question names. */
  private readonly inputs: Record<string, { visit: WalkVisit; input: StepInput }> = {};

  constructor(
    private readonly agent: AgentRun,
    private readonly graph: Graph,
    public walk: Walk,
    private readonly tools: ToolInfo[],
  ) {}

  leftToRun(): boolean {
    return this.walk.ended === undefined;
  }

  open(): boolean {
    return this.walk.ended === undefined;
  }

  running(): boolean {
    return this.walk.running.length > 0;
  }

  waiting(): boolean {
    return readyNodes(this.walk, this.graph).length > 0;
  }

  /** Starts the ready nodes' next visits, as many as free slots allow; one beyond its bound stops the agent. */
  startReady(loop: Loop): void {
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
      started.filter((visit) => this.start(loop, visit, withSteered(inputOf(visit), steered))).map((v) => v.stepId),
    );
  }

  /** Starts a visit's step; false when it could not start. */
  private start(loop: Loop, visit: WalkVisit, input: StepInput): boolean {
    this.agent.board.add(visit.stepId, input.step.title);
    this.inputs[visit.stepId] = { visit, input };
    return loop.launch(visit.stepId, () => runStepChild(this.agent, input, `${visit.node} · visit ${visit.visit}`));
  }

  /** Takes the visit's exit: the router first when `llm` edges are candidates. */
  async completed(loop: Loop, id: string, outcome: { result: string; output?: unknown }): Promise<void> {
    const { visit } = this.started(id);
    const { result, output } = outcome;
    const choices = routeChoices(this.graph, visit.node, output);
    try {
      const routed = choices.length
        ? await routeVisit(this.agent, visit, nodeOf(this.graph, visit.node), { result, output }, choices)
        : undefined;
      this.update(leaveVisit(this.walk, this.graph, visit.stepId, { output, ...(routed ? { routed } : {}) }).walk);
    } catch (err) {
      this.update(abandonVisit(this.walk, this.graph, visit.stepId));
      if (isCancellation(err)) throw err;
      loop.abort(err instanceof Error ? err : new Error(String(err))); // the router's (ROUTE_INVALID)
    }
  }

  dropped(id: string): void {
    this.update(abandonVisit(this.walk, this.graph, id));
  }

  failurePrompt(id: string): string {
    return `Step "${this.started(id).input.step.title}" (${id}) failed. Retry, skip or abort?`;
  }

  /** Retry runs the same visit again (the walk still counts it as running), hearing what is held now; skip and abort end its branch. */
  decided(loop: Loop, id: string, decision: 'retry' | 'skip' | 'abort'): void {
    if (decision !== 'retry') return this.update(abandonVisit(this.walk, this.graph, id));
    const { visit, input } = this.started(id);
    startWithHeldSteers(this.agent, (steered) => (this.start(loop, visit, withSteered(input, steered)) ? [id] : []));
  }

  outcome(failure: StepFailure | undefined): GraphOutcome {
    if (failure !== undefined) return { kind: 'failed', ...failure };
    const ended = this.walk.ended;
    if (ended?.status === 'completed') return { kind: 'done', stepId: ended.stepId };
    if (ended?.status === 'failed') return { kind: 'no-end' };
    if (ended?.status === 'stopped') return { kind: 'max-iterations' };
    return { kind: 'roll-over' };
  }

  private started(id: string): { visit: WalkVisit; input: StepInput } {
    const started = this.inputs[id];
    if (!started) throw new Error(`no visit started as ${id}`);
    return started;
  }

  /** Makes `walk` current: `state.path` follows it, bounded with the board. */
  private update(walk: Walk): void {
    this.walk = keepBounded(this.agent, walk);
  }
}
