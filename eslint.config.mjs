// ESLint flat config. The override for workflows/** keeps the deterministic sandbox honest:
// no Node built-ins, no openai, no activity implementations (type imports only).
import js from '@eslint/js';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].filter(
  // The workflow sandbox allows these three (PLATFORM: Worker and tests).
  (m) => !['assert', 'url', 'util', 'node:assert', 'node:url', 'node:util'].includes(m),
);

export default tseslint.config(
  { ignores: ['node_modules/**', '.tools/**', '.data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['*.mjs', '*.js', 'test/harness/*.js', 'bin/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/ban-ts-comment': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-cycle': 'error',
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
          patterns: [
            { group: ['openai/*'], message: 'LLM calls are activities.' },
            {
              group: ['../activities/*', '../activities/**'],
              allowTypeImports: true,
              message: 'Workflows may import activity types only (import type).',
            },
          ],
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
          'AbortController',
          'TextDecoderStream',
          'setTimeout',
          'setInterval',
          'clearInterval',
        ].map((n) => [n, 'readonly']),
      ),
    },
  },
);
