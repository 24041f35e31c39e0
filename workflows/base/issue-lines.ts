/**
 * zod issues as `path: message` lines — the one format Cairn uses wherever it reports a broken
 * rule (to a model, a person or an operator). Pure: safe in workflow, activity and client code.
 */
import type { z } from 'zod';

/**
 * How a path is spelled: `servers.1.url` (`dots`, the default) or `servers[1].url` (`brackets`,
 * as in JavaScript — for values people write as JSON, such as an environment variable).
 */
export type PathStyle = 'dots' | 'brackets';

/**
 * One `path: message` line per zod issue.
 * @param root what to call the value itself when an issue has no path (e.g. `answer`).
 * @param under a path the value sits at inside a larger one (e.g. `spec`), put before each path.
 * @param style how array indexes are spelled.
 */
export function issueLines(error: z.ZodError, root: string, under?: string, style: PathStyle = 'dots'): string[] {
  return error.issues.map((issue) => {
    const path = pathText([...(under === undefined ? [] : [under]), ...issue.path], style);
    return `${path || root}: ${issue.message}`;
  });
}

function pathText(parts: PropertyKey[], style: PathStyle): string {
  if (style === 'dots') return parts.map(String).join('.');
  return parts
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i > 0 ? '.' : ''}${String(part)}`))
    .join('');
}

/**
 * The dotted path of the first issue (`values.pages`), the field a coded rejection names; empty
 * when that issue is about the value itself.
 */
export function firstIssuePath(error: z.ZodError): string {
  return error.issues[0]?.path.map(String).join('.') ?? '';
}
