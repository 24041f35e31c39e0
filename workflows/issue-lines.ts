/**
 * zod issues as `path: message` lines — the one format Cairn uses wherever it reports a broken
 * rule (to a model, a person or an operator). Pure: safe in workflow, activity and client code.
 */
import type { z } from 'zod';

/**
 * One `path: message` line per zod issue.
 * @param root what to call the value itself when an issue has no path (e.g. `answer`).
 * @param under a path the value sits at inside a larger one (e.g. `spec`), put before each path.
 */
export function issueLines(error: z.ZodError, root: string, under?: string): string[] {
  return error.issues.map((issue) => {
    const path = [...(under === undefined ? [] : [under]), ...issue.path.map(String)].join('.');
    return `${path || root}: ${issue.message}`;
  });
}
