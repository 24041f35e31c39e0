/**
 * Modules the worker loads once and shares between all workflows (the bundler's
 * `preloadModules`, see worker/workflows-path.ts). The SDK evaluates every other module of the
 * bundle afresh for each workflow it starts or brings back into its cache, and building zod —
 * and then Cairn's own schemas — was most of that: with them evaluated per workflow, a parked
 * thread woken by a message cost ~14 ms of the one workflow thread before its reply could start,
 * and each cached workflow held its own copy of every schema.
 *
 * What may be shared: a module whose imports are zod and other such modules only (never
 * `@temporalio/*`, whose state is per workflow) and which keeps no state between calls — its
 * schemas, constants and pure functions. The SDK deep-freezes these modules after loading them,
 * so zod is set up first (workflows/zod-setup.ts) and every schema's lazily computed parts are
 * computed before the freeze (workflows/warm-schemas.ts). The modules are listed in
 * shared-modules-1.ts and -2.ts; test/unit/shared-modules.test.ts checks the rule for each and
 * that everything they import is listed.
 */
import { zod } from './zod-setup';
import { warmSchemas } from './warm-schemas';
import { sharedModules1 } from './shared-modules-1';
import { sharedModules2 } from './shared-modules-2';

/** Every module shared: zod, then Cairn's. */
export const sharedModules: readonly unknown[] = [zod, ...sharedModules1, ...sharedModules2];

/** How many schemas were readied for sharing. */
export const sharedSchemas = warmSchemas([...sharedModules1, ...sharedModules2]);
