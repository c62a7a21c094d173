import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['out/', 'dist/', 'node_modules/', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // The core must run without Electron: only the Electron host and the preload may import it.
    files: ['common/**/*.ts', 'main/**/*.ts', 'renderer/**/*.{ts,tsx}'],
    ignores: ['main/index.ts', 'main/electron/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'The core never imports electron; only main/index.ts and main/electron/ do.' }] },
      ],
    },
  },
  {
    // Pure code: no I/O, no Node built-ins.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', 'fs', 'path', 'child_process', 'electron'], message: 'common/ is pure: no I/O.' }] }],
    },
  },
);
