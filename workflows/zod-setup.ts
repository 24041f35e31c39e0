/**
 * zod's global settings in the workflow sandbox, set once per worker before any workflow
 * schema is built (the first module workflows/shared-modules.ts loads):
 *
 * - zod's global state that it would otherwise set lazily on first use (default locale, the
 *   `allowsEval` probe) is set now, before the SDK freezes the shared modules;
 * - `jitless` keeps zod from compiling a parser per schema: a workflow's parses are too few for
 *   compilation to pay off;
 * - the memoizer is a pass-through. zod's default one guards a parse against cyclic input and
 *   stores what it learns about each schema on the schema on its first parse, which a shared
 *   (frozen) schema refuses. A workflow's input is decoded JSON, which has no cycles.
 */
import * as zod from 'zod';

type Memoizer = NonNullable<Parameters<typeof zod.config>[0]>['memoizer'];

/** Allocates what each container asks for and remembers nothing. */
const passThrough: Memoizer = {
  attach: () => undefined,
  guard: () => undefined,
  alloc: (_schema, _payload, empty) => empty,
};

zod.config({ ...zod.locales.en(), memoizer: passThrough, jitless: true });
void zod.util.allowsEval.value;

export { zod };
