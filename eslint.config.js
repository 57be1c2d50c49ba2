import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import { boundaryRules } from './scripts/lint/boundaries.js';
import { layerRules } from './scripts/lint/layers.js';

export default tseslint.config(
  {
    ignores: [
      'build/',
      'var/',
      '.react-router/',
      '.vite-cache/',
      'test-results/',
      'playwright-report/',
      'bench/results/',
      'node_modules/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'react-hooks/refs': 'off',
    },
  },
  // No import cycles: a cycle means a type or constant lives in the wrong module (decision 114).
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  // The layers and vendor boundaries (decision 114): see scripts/lint/boundaries.js.
  ...boundaryRules,
  // The server's layers: a lower layer imports nothing above it (decision 167).
  ...layerRules,
  // Admin commands print only through `context.io`, the one terminal-safe layer (decision 208).
  {
    files: ['server/**/*-admin-commands.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'stdout', message: 'Print with context.io (decision 208).' },
        { object: 'process', property: 'stderr', message: 'Print with context.io (decision 208).' },
      ],
    },
  },
);
