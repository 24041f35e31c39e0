/**
 * The check of an operator's prompt overrides (template name → text): every name must be a
 * built-in template, and each text must use exactly the variables its template declares — no
 * unknown `{{variable}}`, none left out (every declared variable is required). The first problem
 * is one line naming the template and the variable. Pure, so the worker and tests share it.
 */
import { placeholders, PROMPT_TEMPLATES, type PromptName } from './templates';

/** Whether a name is a built-in template's. */
export function isPromptName(name: string): name is PromptName {
  return Object.hasOwn(PROMPT_TEMPLATES, name);
}

/** The first problem with the overrides, as one line, or undefined when they can be used. */
export function promptOverrideProblem(overrides: Readonly<Record<string, string>>): string | undefined {
  for (const [name, text] of Object.entries(overrides)) {
    if (!isPromptName(name)) {
      return `unknown prompt template "${name}" (known: ${Object.keys(PROMPT_TEMPLATES).join(', ')})`;
    }
    const declared: readonly string[] = PROMPT_TEMPLATES[name].variables;
    const used = placeholders(text);
    const unknown = used.find((v) => !declared.includes(v));
    if (unknown !== undefined) {
      const known = declared.length ? declared.map((v) => `{{${v}}}`).join(', ') : 'none';
      return `prompt template "${name}" has no variable {{${unknown}}} (it declares ${known})`;
    }
    const missing = declared.find((v) => !used.includes(v));
    if (missing !== undefined) return `prompt template "${name}" leaves out its required variable {{${missing}}}`;
  }
  return undefined;
}
