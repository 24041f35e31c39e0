/**
 * The replay gate of dropping foreign regular expressions from a tool's schema in workflow code
 * (validate-arguments.ts). A call whose arguments a dropped expression would have refused now
 * runs its activity (the tool refuses it there) instead of being refused in the workflow: a new
 * command, so runs recorded before — 0.3.0's, whose catalogue carried user and MCP tools'
 * expressions — take the old path. Asked only of a schema that has such an expression, so every
 * other call records no marker.
 */
import { patched } from '@temporalio/workflow';
import { PATCHES } from '../base/patches';
import { OWN_PATTERNS } from '../model/tools/own-patterns';
import { regexKeywordPaths } from '../model/tools/schema-regex';
import type { RegexRun } from './validate-arguments';

/** Which of `parameters`' regular expressions this run's argument checks run. */
export function regexToRun(parameters: Record<string, unknown>): RegexRun {
  if (regexKeywordPaths(parameters, '', OWN_PATTERNS).length === 0) return 'own';
  return patched(PATCHES.toolRegexOwnOnly) ? 'own' : 'all';
}
