/**
 * The tool catalogue crosses continue-as-new in the agent's carry: every field of a tool,
 * optional ones included, survives the carry's schema (zod strips what a schema does not name,
 * which is how `autoApproved` was once lost and auto-approved writes went unaudited).
 */
import { agentCarrySchema } from '../../workflows/model/agent/agent-carry';
import { toolInfoSchema, type ToolInfo } from '../../workflows/model/tools/tool-types';

/** A tool with every field set. */
const full: Required<ToolInfo> = {
  name: 'http_fetch',
  description: 'Fetches a URL',
  effect: 'write',
  idempotent: false,
  needsApproval: true,
  readWhen: { argument: 'method', default: 'GET', values: ['GET', 'HEAD'] },
  parameters: { type: 'object', properties: { url: { type: 'string' } } },
  policy: true,
  autoApproved: true,
};

test('a tool with every field set loses nothing through its schema', () => {
  expect(toolInfoSchema.parse(full)).toEqual(full);
});

test("the carry's catalogue keeps every field of every tool", () => {
  const tools = agentCarrySchema.shape.tools.parse([full, { ...full, name: 'write_file', readWhen: undefined }]);
  expect(tools[0]).toEqual(full);
  expect(tools[1]).toMatchObject({ name: 'write_file', autoApproved: true, policy: true });
});
