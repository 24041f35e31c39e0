/**
 * Example definition: a research agent. It plans, fetches sources over HTTP, checks each step's
 * result, and writes its notes to files; a start may change its mode (e.g. to confirm the plan
 * first). Used by the tests and the docs.
 */
import type { AgentDefinitionInput } from '../../cairn';

export const researchAgent: AgentDefinitionInput = {
  name: 'research',
  description: 'Researches a question from sources on the web and writes cited notes.',
  instructions:
    'You are the research agent. Cite every source you use with its URL; separate what the sources say from ' +
    'what you conclude.',
  tools: ['http_fetch', 'read_file', 'write_file', 'list_files'],
  mode: { plan: true, verifySteps: true },
  limits: { maxParallelSteps: 3 },
  overridable: ['mode'],
};
