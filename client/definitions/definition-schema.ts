/**
 * What a team writes to define an agent once (docs/definitions.md): its name, instructions, model
 * and per-stage parameters, tools, prompt texts, mode, limits, approval rules, language, default
 * files, and which of `model` and `mode` a start may change. One zod schema checks it where it is
 * defined (`defineAgent`) and where it is loaded, each problem naming its field.
 */
import { promptOverrideProblem } from '../../workflows/model/prompts/check-overrides';
import { z } from 'zod';
import { agentInputSchema } from '../../workflows/model/agent/agent-input';
import { modelSettingsSchema } from '../../workflows/model/llm/llm-types';
import { MODEL_STAGES } from '../../workflows/model/llm/model-stages';
import { PROMPT_TEMPLATES } from '../../workflows/model/prompts/templates';

/** A definition's name: lower-case letters, digits and `-`, at most 64 (it appears in ids, queues and URLs). */
export const DEFINITION_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

const nameSchema = z
  .string()
  .regex(DEFINITION_NAME, 'lower-case letters, digits and -, 1 to 64, not starting or ending with -');

export { MODEL_STAGES };

/** A model call's parameters: the agent input's model settings (stop sequences and tool choice among them). */
const callParamsSchema = modelSettingsSchema;

const modelSchema = callParamsSchema.extend({
  /** The endpoint by name (`default`: today's OPENAI_BASE_URL / OPENAI_API_KEY). */
  endpoint: nameSchema.default('default'),
  /** Parameters for one stage's calls, over the ones above. */
  stages: z.partialRecord(z.enum(MODEL_STAGES), callParamsSchema).optional(),
});

/** The agent input's limits, each optional and without its default: a definition sets what it sets. */
const limitsShape = agentInputSchema.shape.limits.unwrap().shape;
const limitsSchema = z.strictObject(
  Object.fromEntries(
    Object.entries(limitsShape).map(([key, schema]) => [
      key,
      (schema instanceof z.ZodDefault ? (schema.unwrap() as z.ZodType) : schema).optional(),
    ]),
  ) as { [K in keyof typeof limitsShape]: z.ZodOptional<z.ZodType<z.output<(typeof limitsShape)[K]>>> },
);

/** Planning as the agent input's `mode` has it, or a registered graph walked instead. */
const modeSchema = z.union([
  z.strictObject({
    plan: z.boolean().optional(),
    ask: z.boolean().optional(),
    confirmPlan: z.boolean().optional(),
    replanAfter: z.enum(['listed', 'each']).optional(),
    verifySteps: z.boolean().optional(),
    assess: z.boolean().optional(),
  }),
  z.strictObject({ graph: z.string().trim().min(1).max(100) }),
]);

/** A rule that makes a call stricter than the operator's policy: ask a person, or deny. */
const approvalRuleSchema = z.strictObject({
  tool: z.string().min(1).max(200),
  decision: z.enum(['ask', 'deny']),
  role: z.string().min(1).max(64).optional(),
});

const templateNames = Object.keys(PROMPT_TEMPLATES) as [
  keyof typeof PROMPT_TEMPLATES,
  ...(keyof typeof PROMPT_TEMPLATES)[],
];

/** An agent definition as written. */
export const agentDefinitionSchema = z.strictObject({
  name: nameSchema,
  /** A human label for this version (the version itself is the digest of the content). */
  label: z.string().trim().min(1).max(100).optional(),
  description: z.string().trim().min(1).max(2_000),
  /** The system prompt; a start's own `systemPrompt` is appended to it. */
  instructions: z.string().max(20_000).optional(),
  model: modelSchema.optional(),
  /** Allow list: tool names, packs, or `agent:<name>` for a nested agent of another definition. */
  tools: z.array(z.string().min(1).max(200)).max(100).optional(),
  /** Built-in prompt texts replaced for this definition, and the locale they are written in. */
  prompts: z
    .strictObject({
      templates: z
        .partialRecord(z.enum(templateNames), z.string().min(1).max(20_000))
        .superRefine((templates, ctx) => {
          // As the operator's CAIRN_PROMPTS_FILE is checked: each text uses exactly its template's variables.
          const problem = promptOverrideProblem(templates);
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .optional(),
      locale: z.string().min(2).max(35).optional(),
    })
    .optional(),
  mode: modeSchema.optional(),
  limits: limitsSchema.optional(),
  approvals: z.array(approvalRuleSchema).max(100).optional(),
  /** The language steps answer in (a BCP 47 tag or a name). */
  language: z.string().trim().min(2).max(35).optional(),
  /** Files every run is given, as a start's `files`. */
  files: z.array(z.string().min(1)).max(50).optional(),
  /** What a start may change: `model`, `mode`. Everything else a start may only narrow. */
  overridable: z
    .array(z.enum(['model', 'mode']))
    .max(2)
    .optional(),
});

/** An agent definition as written (what `defineAgent` takes). */
export type AgentDefinitionInput = z.input<typeof agentDefinitionSchema>;
/** An agent definition as checked, defaults filled in. */
export type AgentDefinition = z.output<typeof agentDefinitionSchema>;
