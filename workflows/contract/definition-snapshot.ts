/**
 * What an agent started from a definition carries of it (docs/definitions.md): its name, its
 * version (the SHA-256 of its resolved content), an optional label and the resolved content
 * itself — for display, audit and forks. Set by the client that starts the agent, which also
 * fills the input's flat fields from it; workflow code reads no registry, so a running agent
 * never changes when its definition does. Absent: the agent was started without a definition.
 */
import { z } from 'zod';

/** An agent's definition snapshot. */
export const definitionSnapshotSchema = z.object({
  name: z.string().min(1).max(64),
  version: z.string().regex(/^[0-9a-f]{64}$/, 'a SHA-256 in hex'),
  label: z.string().min(1).max(100).optional(),
  content: z.record(z.string(), z.unknown()),
});
/** An agent's definition snapshot. */
export type DefinitionSnapshot = z.infer<typeof definitionSnapshotSchema>;
