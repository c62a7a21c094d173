import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const NO_ELECTRON = { name: 'electron', message: 'The core never imports electron; only main/index.ts and main/electron/ do.' };
const NO_RENDERER = { regex: '^(\\.\\./)+renderer(/|$)', message: 'main never imports the window (renderer/); share through common/.' };
const NO_MAIN = { regex: '^(\\.\\./)+main(/|$)', message: 'The window never imports main; share through common/ and reach main through the contract.' };

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
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }],
    },
  },
  {
    // The layers: main never reaches into the window's code, nor the window into main's.
    files: ['main/**/*.ts'],
    ignores: ['main/index.ts', 'main/electron/**/*.ts', 'main/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [NO_RENDERER] }],
    },
  },
  {
    files: ['main/index.ts', 'main/electron/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [NO_RENDERER] }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [NO_MAIN] }] },
  },
  {
    // The platform layer serves the features; it imports only itself and common/.
    files: ['main/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [NO_ELECTRON],
          patterns: [{ regex: '^\\.\\./(?!\\.\\./common/)', message: 'main/platform/ imports no feature folder: only ./ and ../../common/.' }],
        },
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
