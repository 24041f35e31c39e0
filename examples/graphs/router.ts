/**
 * Example graph: a router. `classify` reads the message; a `route` model call decides whether it
 * is a bug report (→ `triage`) or a feature request (→ `spec`); anything else goes to `answer`,
 * the plain fallback edge. Each branch ends the agent. Used by the tests and the docs.
 */
import type { GraphInput } from '../../workflows/model/graph/graph-schema';

/** classify → (bug? triage : feature? spec : answer). */
export const routerGraph: GraphInput = {
  name: 'router',
  description: 'Send a message to triage, to a spec writer, or answer it directly.',
  nodes: [
    { id: 'classify', title: 'Classify', systemPrompt: 'Read the message and say what kind of request it is.' },
    { id: 'triage', title: 'Triage', systemPrompt: 'Triage the bug report: severity, area, next step.' },
    { id: 'spec', title: 'Spec', systemPrompt: 'Write a short spec for the requested feature.' },
    { id: 'answer', title: 'Answer', systemPrompt: 'Answer the message directly.' },
  ],
  edges: [
    { from: 'classify', to: 'triage', when: { llm: 'The message reports a bug.' } },
    { from: 'classify', to: 'spec', when: { llm: 'The message requests a feature.' } },
    { from: 'classify', to: 'answer' },
  ],
  entry: ['classify'],
  end: ['triage', 'spec', 'answer'],
};
