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
 * computed before the freeze (workflows/warm-schemas.ts). The folders say which: every module
 * under workflows/base/ and workflows/model/ is shared, and no other (shared-list.ts spells them
 * out for the bundler, written by scripts/shared-list.ts); test/unit/shared-modules.test.ts checks
 * the list against the folders, the rule for each module, and that everything they import is
 * shared.
 */
import { zod } from './zod-setup';
import { warmSchemas } from './warm-schemas';
import { sharedList } from './shared-list';

/** Every module shared: zod, then Cairn's. */
export const sharedModules: readonly unknown[] = [zod, ...sharedList];

/** How many schemas were readied for sharing. */
export const sharedSchemas = warmSchemas(sharedList);
