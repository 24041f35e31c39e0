/**
 * The agent that waits at its plan check across every fault: started through the web server
 * (`POST /api/agents` with `mode.confirmPlan`) before the first scenario, found at the end in
 * the web server's list of agents awaiting input (SQL visibility on Cairn's search attributes),
 * confirmed through `POST /api/agents/:id/answers`, and then held to the same invariants as
 * every other agent: it completes, and each of its writes is on disk exactly once. Its evidence:
 * every fault of the suite struck while it waited.
 */
import { z } from 'zod';
import { CHAOS_TOOLS } from '../chaos/agent-script';
import { since } from '../chaos/clock';
import { proven, verify } from '../chaos/verify';
import { waitUntil } from '../testkit/wait-until';
import { worldProblems, type ProvenRun } from './under-fault';
import type { ScenarioView, World } from './world';

const createdSchema = z.object({ id: z.string().min(1) });
const listSchema = z.object({ agents: z.array(z.object({ id: z.string(), awaitingInput: z.boolean() })) });
const stateSchema = z.object({
  interactions: z.array(z.object({ id: z.string(), kind: z.string(), status: z.string() })),
});

async function call<T>(url: string, schema: z.ZodType<T>, init?: RequestInit): Promise<T> {
  const response = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init?.headers ?? {}) },
  });
  const body: unknown = await response.json();
  if (!response.ok) throw new Error(`${init?.method ?? 'GET'} ${url}: ${response.status} ${JSON.stringify(body)}`);
  return schema.parse(body);
}

export class PlanCheckAgent {
  private constructor(
    readonly id: string,
    private readonly started: number,
    private readonly checkId: string,
  ) {}

  /** Starts the agent through the web server and waits until its plan check is open. */
  static async start(world: World): Promise<PlanCheckAgent> {
    const started = performance.now();
    const { id } = await call(`${world.webUrl}/api/agents`, createdSchema, {
      method: 'POST',
      body: JSON.stringify({ task: 'Plan-checked cluster agent', tools: CHAOS_TOOLS, mode: { confirmPlan: true } }),
    });
    const check = await waitUntil(
      `${id} waits at its plan check`,
      async () => {
        const state = await call(`${world.webUrl}/api/agents/${id}`, stateSchema);
        return state.interactions.find((i) => i.kind === 'plan.check' && i.status === 'open');
      },
      { timeoutMs: 120_000, intervalMs: 250 },
    );
    return new PlanCheckAgent(id, started, check.id);
  }

  /**
   * After every fault: finds it listed as waiting, confirms the plan, and verifies it like the
   * others. `faults` says how many faults struck mid-run while it waited, of how many the suite has.
   */
  async confirmAndVerify(view: ScenarioView, faults: { struck: number; all: number }): Promise<ProvenRun> {
    const { world } = view;
    const failures: string[] = [];
    const listed = await call(`${world.webUrl}/api/agents?awaitingInput=true`, listSchema);
    if (!listed.agents.some((a) => a.id === this.id)) {
      failures.push(`GET /api/agents?awaitingInput=true does not list ${this.id} (SQL visibility)`);
    }
    const state = await call(`${world.webUrl}/api/agents/${this.id}`, stateSchema);
    const check = state.interactions.find((i) => i.id === this.checkId);
    if (check?.status !== 'open') failures.push(`its plan check is ${check?.status ?? 'gone'} before the answer`);
    await call(`${world.webUrl}/api/agents/${this.id}/answers`, z.unknown(), {
      method: 'POST',
      body: JSON.stringify({ interactionId: this.checkId, answer: { decision: 'confirm' } }),
    });
    const started = performance.now();
    const notes = [
      `waited at its plan check for ${since(this.started)} across every fault, confirmed through the web server`,
    ];
    const verified = await verify(view, [this.id], { started, notes, failures });
    verified.failures.push(...(await worldProblems(view)));
    const waitedThrough = {
      what: 'faults that struck mid-run while it waited',
      found: faults.struck,
      needed: faults.all,
    };
    return {
      result: proven(verified, [waitedThrough]),
      fault: { scenario: view.options.name, fault: 'waited at its plan check through all of them', at: '-', downMs: 0 },
      struckMidRun: false,
    };
  }
}
