/**
 * Cairn's public module: everything a user module imports — the graphs of `CAIRN_GRAPHS`, the
 * tools of `CAIRN_TOOLS`, agent definitions — comes from here, so the files behind it can move without breaking a
 * user's code. (`client/graphs/define-graph.ts` and `activities/tools/define-tool.ts` still
 * export the same functions; import them from here.)
 *
 * @example
 * import { defineGraph, defineTool } from '../cairn'; // a path relative to the user's module
 */
export { defineGraph, GraphDefinitionError } from './client/graphs/define-graph';
export { defineTool } from './activities/tools/define-tool';
export { defineAgent, DefinitionError } from './client/definitions/define-agent';
export type { AgentDefinition, AgentDefinitionInput } from './client/definitions/definition-schema';
export type { ToolContext, ToolDefinition, ToolResult } from './activities/tools/define-tool';
export type { GraphInput } from './workflows/model/graph/graph-schema';
