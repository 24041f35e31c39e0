/**
 * The schema of prompt texts as they cross a boundary (the worker's read, an agent's carry, a
 * step's input): template name → text, built-in names only. The texts were checked whole when
 * the worker read its file (workflows/model/prompts/check-overrides.ts); here the shape is checked.
 */
import { z } from 'zod';
import { PROMPT_TEMPLATES, type PromptName, type PromptTexts } from './templates';

const names = Object.keys(PROMPT_TEMPLATES) as [PromptName, ...PromptName[]];

/** Prompt texts: built-in template name → the text used instead. */
export const promptTextsSchema = z.partialRecord(z.enum(names), z.string()) satisfies z.ZodType<PromptTexts>;
