// ESLint flat config. The override for workflows/** keeps the deterministic sandbox honest:
// no Node built-ins, no openai, nothing of activities/ (the layer zones below).
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].filter(
  // The workflow sandbox allows these three.
  (m) => !['assert', 'url', 'util', 'node:assert', 'node:url', 'node:util'].includes(m),
);

// The client's feature folders (client/agents, threads, live, …): every folder of client/ but the
// shells (http: the app, auth, errors; cli: the program and the terminal) and the web page.
const CLIENT_SHELLS = new Set(['http', 'cli', 'web']);
const clientFeatures = readdirSync(join(import.meta.dirname, 'client'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !CLIENT_SHELLS.has(entry.name))
  .map((entry) => entry.name)
  .sort();

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.data/**', '.cache/**', 'coverage/**', 'dist/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs', '*.js', 'test/harness/*.js', 'bin/*.js', 'scripts/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    // Import cycles (type imports included) are checked by scripts/check-cycles.ts, not by
    // import-x/no-cycle: that rule skips `import type`, and walking every package it resolves
    // made it most of the lint time.
    plugins: { 'import-x': importX },
    // Without .ts in the resolver's extensions, import-x resolves none of the project's own
    // imports and its path rules pass silently.
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })] },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The layers, type imports included (CONTRIBUTING.md, "The layers"). Inside workflows/:
    //   base/ (codes, ids, names, gates) → model/ (the pure shared modules) → contract/ (the
    //   Temporal definitions other programs rely on) → runtime/ (what the orchestrators share
    //   that touches Temporal) → the orchestrators: agent/ runs step/; agent/ and thread/ use live/.
    // Each imports only the layers below it; scripts/check-cycles.ts also refuses any loop between
    // two folders of workflows/. Around it:
    // - workflows/ imports nothing of activities/, client/ or worker/;
    // - activities/ imports only workflows/{base,model,contract};
    // - the client (library, CLI, HTTP API) and the worker are apart: what both need lives in
    //   config/, temporal/ (connection, payload codecs, deployments, tracing) or workflows/contract.
    files: ['workflows/**/*.ts', 'activities/**/*.ts', 'client/**/*.ts', 'worker/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './workflows/base',
              from: './workflows',
              except: ['./base'],
              message: 'base/ (codes, ids, names) imports nothing of workflows/ but base/.',
            },
            {
              target: './workflows/model',
              from: './workflows',
              except: ['./base', './model'],
              message: 'model/ (the pure shared modules) imports only base/ and model/: move what it needs down.',
            },
            {
              target: './workflows/contract',
              from: './workflows',
              except: ['./base', './model', './contract'],
              message:
                'contract/ imports only base/, model/ and contract/: the orchestrators build on it, not under it.',
            },
            {
              target: './workflows/runtime',
              from: './workflows',
              except: ['./base', './model', './contract', './runtime'],
              message: 'runtime/ serves the orchestrators: it imports only base/, model/, contract/ and runtime/.',
            },
            {
              target: './workflows/step',
              from: ['./workflows/agent', './workflows/thread', './workflows/live'],
              message: 'step/ must not import agent/, thread/ or live/: move what both need down a layer.',
            },
            {
              target: './workflows/live',
              from: ['./workflows/agent', './workflows/step', './workflows/thread'],
              message: 'live/ must not import the agent, step or thread workflows: move what both need down a layer.',
            },
            {
              target: './workflows',
              from: ['./activities', './client', './worker'],
              message:
                'workflows/ imports nothing of activities/, client/ or worker/ (activity types: workflows/contract/activities.ts).',
            },
            {
              target: './activities',
              from: './workflows',
              except: ['./base', './model', './contract'],
              message: 'activities/ imports only workflows/{base,model,contract}: move the helper down a layer.',
            },
            // A feature's routes are its own: no file of one feature imports another feature's
            // routes/, and no route imports a route (what routes share is a non-route module of
            // its feature). Only the HTTP shell (client/http/create-app.ts) gathers the routes.
            ...clientFeatures.map((feature) => ({
              target: `./client/${feature}`,
              from: clientFeatures.map((other) => `./client/${other}/routes`),
              message: `client/${feature} must not import routes (its own or another feature's): import the non-route module the route uses, or move what both need there.`,
            })),
            {
              target: './client',
              from: './worker',
              message:
                'the client does not import the worker: move what both need to config/, temporal/ or workflows/contract.',
            },
            {
              target: './worker',
              from: './client',
              message:
                'the worker does not import the client: move what both need to config/, temporal/ or workflows/contract.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'Workflow code is deterministic: no Node built-ins.' })),
            { name: 'openai', message: 'LLM calls are activities; workflows import types from llm-types.ts.' },
          ],
          patterns: [{ group: ['openai/*'], message: 'LLM calls are activities.' }],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'No environment in workflow code.' },
        { name: 'setTimeout', message: 'Use sleep() from @temporalio/workflow.' },
        { name: 'fetch', message: 'Network is for activities.' },
      ],
    },
  },
  {
    // The CLI prints text models, tools and other people wrote: only client/cli/terminal.ts
    // writes to the terminal, spelling out control characters, so no print path can forget it.
    // The CLI is its shell (client/cli) and each feature's commands (client/<feature>/cli).
    files: ['client/cli/**/*.ts', 'client/*/cli/**/*.ts'],
    ignores: ['client/cli/terminal.ts'],
    rules: {
      'no-console': ['error'],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stdout', message: 'Print through client/cli/terminal.ts.' },
        { object: 'process', property: 'stderr', message: 'Print through client/cli/terminal.ts.' },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: { module: 'writable', require: 'readonly', __dirname: 'readonly', process: 'readonly' },
    },
    // Plain CommonJS files (jest config, reporter, the bin launcher) load with require().
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The web page's browser modules: plain JavaScript with JSDoc, no type-aware lint.
    files: ['client/web/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      parserOptions: { projectService: false, project: false },
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'location',
          'history',
          'localStorage',
          'fetch',
          'EventSource',
          'URL',
          'Element',
          'Text',
          'AbortController',
          'TextDecoderStream',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'FormData',
          'Blob',
        ].map((n) => [n, 'readonly']),
      ),
    },
  },
);
