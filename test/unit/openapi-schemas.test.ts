/**
 * The OpenAPI document is built from the workflows' own schemas, not copies: the agent state's
 * and the interaction's properties are those of the zod schemas in workflows/, every kind of
 * interaction and answer is in it, and every `$ref` points at a component that exists.
 */
import { answerSchemas, interactionSchema } from '../../workflows/model/interactions/interaction-schema';
import { AGENT_EVENT_TYPES, agentStateSchema } from '../../workflows/model/state/agent-state-schema';
import { AGENT_PHASES } from '../../workflows/model/state/agent-phases';
import { stepRunSchema } from '../../workflows/model/state/step-run-schema';
import { stepTranscriptSchema } from '../../workflows/contract/step-transcript';
import { unusedAgents } from '../harness/config-errors';
import { appOver } from '../harness/http-app';

interface JsonSchema {
  properties?: Record<string, JsonSchema>;
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  enum?: string[];
  $ref?: string;
}

const agents = unusedAgents('no agent route is called');

async function openApiDocument(): Promise<{ components: { schemas: Record<string, JsonSchema> } }> {
  const app = appOver(agents);
  const res = await app.request('/api/openapi.json');
  expect(res.status).toBe(200);
  return (await res.json()) as { components: { schemas: Record<string, JsonSchema> } };
}

test('the state, step run, step transcript, interaction, answer and event components are the workflow schemas', async () => {
  const doc = await openApiDocument();
  const schemas = doc.components.schemas;
  const keys = (name: string) => Object.keys(schemas[name]?.properties ?? {}).sort();
  // The HTTP state is the workflow's, plus the Worker Deployment version and the final answer
  // under its other name (`answer` beside `result`), which the route adds.
  expect(keys('AgentState')).toEqual([...Object.keys(agentStateSchema.shape), 'version', 'answer'].sort());
  expect(keys('StepRun')).toEqual(Object.keys(stepRunSchema.shape).sort());
  expect(keys('StepTranscript')).toEqual(Object.keys(stepTranscriptSchema.shape).sort());
  expect(schemas.AgentPhase?.enum).toEqual([...AGENT_PHASES]);
  expect(schemas.AgentEvent?.properties?.type?.enum).toEqual([...AGENT_EVENT_TYPES]);
  const kinds = (schemas.Interaction?.oneOf ?? []).map((variant) => variant.properties?.kind?.enum?.[0]);
  expect(kinds).toEqual(interactionSchema.options.map((variant) => variant.shape.kind.value));
  expect(schemas.Answer?.anyOf).toHaveLength(Object.keys(answerSchemas).length);
  for (const variant of schemas.Interaction?.oneOf ?? []) {
    expect(variant.properties?.answer).toEqual({ $ref: '#/components/schemas/Answer' });
  }
});

test('every $ref of the document names a component it defines', async () => {
  const doc = await openApiDocument();
  const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  expect(refs.length).toBeGreaterThan(10);
  expect(refs.filter((name) => name === undefined || !(name in doc.components.schemas))).toEqual([]);
});
