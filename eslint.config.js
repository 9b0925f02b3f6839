import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import prettier from 'eslint-config-prettier'

// The core decides; the adapters talk to GitHub, the runner and the terminal. A core file that
// imported an adapter (or the libraries only adapters use) could no longer run in both.
const CORE = ['src/config', 'src/handoff', 'src/prompt', 'src/agent', 'src/pipeline', 'src/secrets']
const CORE_ONLY =
  'the core (config, handoff, prompt, agent, pipeline, secrets) never imports an adapter'

export default tseslint.config(
  { ignores: ['dist/', '.build/', 'node_modules/', 'coverage/', 'test/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly' }
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-control-regex': 'off'
    }
  },
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname }
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error'
    }
  },
  {
    files: CORE.map((dir) => `${dir}/**/*.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@actions/*', '@octokit/*'], message: CORE_ONLY },
            // `tracker/types.ts` is the port's own type, and allowed.
            { regex: '^\\.\\./(action|cli)/', message: CORE_ONLY },
            { regex: '^\\.\\./tracker/(github|local)', message: CORE_ONLY }
          ]
        }
      ]
    }
  }
)
