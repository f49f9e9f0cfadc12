// ESLint flat config (issue 34). Formatting is Prettier's (eslint-config-prettier turns off every
// rule it owns); ESLint checks what a formatter cannot: hooks, accessibility, TypeScript pitfalls.
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import jsxA11y from 'eslint-plugin-jsx-a11y'
import prettier from 'eslint-config-prettier'
import globals from 'globals'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'build/**',
      'build-base-path/**',
      '.cache/**',
      '.data/**',
      '.scratch/**',
      'test-results/**',
      'playwright-report/**',
      'bench/results/**',
      'public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `typeof import('…')` is how the tests type a module they load at run time.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  {
    // Tests handle arbitrary JSON from the cluster by design.
    // The local cluster takes whatever JSON a client sends, as a real one does, and reads it field by field.
    files: ['**/*.test.{ts,tsx}', 'tests/**', 'e2e/**', 'cluster/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      // tests send numbers that JSON cannot hold exactly, on purpose
      'no-loss-of-precision': 'off',
    },
  },
  {
    // Playwright fixtures that use no other fixture are written `async ({}, use) => …`.
    files: ['e2e/**'],
    rules: { 'no-empty-pattern': 'off' },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // No import cycles in app/ (issue 53, decision 102): a cycle hid the session check's way to the
    // cluster behind a dynamic import. Dynamic imports count too (`allowUnsafeDynamicCyclicDependency`
    // off), so a loop cannot be hidden that way again; type-only imports do not run and do not count.
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver': undefined,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: 'tsconfig.json' })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['app/**/*.tsx'],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // autoFocus is set only on the first field in error after a refused submit (and on a new toast
      // when nothing else has focus), so that without scripts focus lands where the user must act.
      'jsx-a11y/no-autofocus': 'off',
    },
  },
  prettier,
)
