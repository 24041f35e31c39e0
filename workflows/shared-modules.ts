/**
 * Libraries the worker loads once and shares between all workflows (the bundler's
 * `preloadModules`, see worker/workflows-path.ts). The SDK evaluates every other module of the
 * bundle afresh for each workflow, and zod's own start-up — hundreds of schema classes — was
 * the largest cost of starting an agent or a step: a third of the workflow thread under load.
 *
 * Shared modules are deep-frozen after loading, so zod's global state that it would otherwise
 * set lazily on first use (default locale, memoizer, the `allowsEval` probe) is set here,
 * before the freeze. `jitless` keeps zod from compiling a parser per schema: workflow schemas
 * live as long as one workflow, too short for compilation to pay off. zod is stateless
 * otherwise, so sharing it cannot leak anything between workflows.
 */
import * as zod from 'zod';

zod.config({ ...zod.locales.en(), memoizer: zod.memoizer(), jitless: true });
void zod.util.allowsEval.value;

/** Keeps the import from being tree-shaken away. */
export const sharedModules = [zod];
