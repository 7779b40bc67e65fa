// @ts-check
import tseslint from 'typescript-eslint';
import { roomImports } from './scripts/lint/rooms.mjs';

/** The protocol core, the CLI, the language server and the shared contracts run without VS Code. */
export const VSCODE_FREE = [
  'client/src/kernel/**/*.ts',
  'client/src/cli/**/*.ts',
  'server/**/*.ts',
  'shared/**/*.ts',
];

export const noVscodeImport = {
  files: VSCODE_FREE,
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: 'vscode',
            message:
              'kernel/, cli/, server/ and shared/ must run without VS Code: move this code to client/src/vscode/.',
          },
        ],
        patterns: [
          {
            group: ['vscode-languageclient', 'vscode-languageclient/*'],
            message: 'the language client belongs to client/src/vscode/.',
          },
        ],
      },
    ],
    '@typescript-eslint/no-require-imports': 'error',
  },
};

/** The arrows between rooms (scripts/lint/rooms.mjs): nothing under client/ is imported by server/… */
export const roomArrows = {
  files: ['**/*.ts'],
  plugins: { rooms: { rules: { imports: roomImports } } },
  rules: { 'rooms/imports': 'error' },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'media/dist/',
      'examples/servers/dist/',
      'examples/minimal-server/dist/',
      'packages/*/dist/',
      'tools/*',
      '!tools/discovery-lab/',
      'test-results/',
      '.scratch/',
      'test/fixtures/',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
    },
  },
  noVscodeImport,
  roomArrows,
);
