import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { boundaryRules } from './scripts/lint/boundaries.js';

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
  // The layers and vendor boundaries (decision 114): see scripts/lint/boundaries.js.
  ...boundaryRules,
);
