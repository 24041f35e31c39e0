/**
 * The example graphs as a `CAIRN_GRAPHS` module: `CAIRN_GRAPHS=examples/graphs/index.ts npx cairn
 * graphs` lists them, `npx cairn run --graph review-loop "…"` runs one. The registry reads a
 * module's default export, an array of graphs made with `defineGraph` (docs/graphs.md).
 */
import { defineGraph } from '../../cairn';
import { reviewLoopGraph } from './review-loop';
import { routerGraph } from './router';

export default [defineGraph(reviewLoopGraph), defineGraph(routerGraph)];
