/**
 * The example agent definitions as a `CAIRN_AGENTS` module: `CAIRN_AGENTS=examples/agents/index.ts
 * npx cairn definitions` lists them, `POST /api/agents { "definition": "support", "task": "…" }`
 * starts one. The registry reads a module's default export, an array of definitions made with
 * `defineAgent` (docs/definitions.md).
 */
import { defineAgent } from '../../cairn';
import { researchAgent } from './research';
import { supportAgent } from './support';

export default [defineAgent(supportAgent), defineAgent(researchAgent)];
