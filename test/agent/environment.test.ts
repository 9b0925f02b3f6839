import { describe, expect, it } from '@jest/globals'
import { agentEnvironment, parentIdentity } from '../../src/agent/environment.js'
import { isRunnerVariable } from '../../src/config/runner-variables.js'
import { allowedNames } from '../../src/agent/presets.js'

const contract = {
  handoffPath: '.itervox/handoff/2026-01-02T03-04-05.678Z_dev.md',
  runTimestamp: '2026-01-02T03-04-05.678Z',
  profile: 'dev',
  issue: '42',
  promptFile: '/tmp/run/prompt.md'
}

// What a GitHub-hosted runner puts in a JavaScript action's environment, give or take.
const runnerEnv = {
  PATH: '/usr/bin:/bin',
  HOME: '/home/runner',
  ANTHROPIC_API_KEY: 'sk-ant-keep',
  HTTPS_PROXY: 'http://proxy:3128',
  GITHUB_TOKEN: 'ghs_secret',
  GH_TOKEN: 'ghs_secret',
  GH_ENTERPRISE_TOKEN: 'ghe_secret',
  ACTIONS_RUNTIME_TOKEN: 'rt',
  ACTIONS_RUNTIME_URL: 'https://pipelines.actions.githubusercontent.com/x/',
  ACTIONS_CACHE_URL: 'https://artifactcache.actions.githubusercontent.com/x/',
  ACTIONS_RESULTS_URL: 'https://results-receiver.actions.githubusercontent.com/',
  ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
  ACTIONS_ID_TOKEN_REQUEST_URL: 'https://token/',
  ACTIONS_STEP_DEBUG: 'true',
  'INPUT_GITHUB-TOKEN': 'ghs_secret',
  INPUT_WORKFLOW_FILE: 'WORKFLOW.md',
  GITHUB_ENV: '/home/runner/work/_temp/_runner_file_commands/set_env_1',
  GITHUB_OUTPUT: '/home/runner/work/_temp/_runner_file_commands/set_output_1',
  GITHUB_STATE: '/home/runner/work/_temp/_runner_file_commands/save_state_1',
  GITHUB_PATH: '/home/runner/work/_temp/_runner_file_commands/add_path_1',
  GITHUB_STEP_SUMMARY: '/home/runner/work/_temp/_runner_file_commands/step_summary_1',
  GITHUB_REPOSITORY: 'octo/repo',
  GITHUB_WORKSPACE: '/home/runner/work/repo/repo',
  RUNNER_TEMP: '/home/runner/work/_temp',
  ITERVOX_PROFILE: 'spoofed',
  UNSET: undefined
}

const RUNNER_NAMES = [
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GH_ENTERPRISE_TOKEN',
  'GITHUB_ENV',
  'GITHUB_OUTPUT',
  'GITHUB_STATE',
  'GITHUB_PATH',
  'GITHUB_STEP_SUMMARY'
]

// What else a job's environment may hold: secrets of other tools, the user's own settings.
const jobEnv = {
  ...runnerEnv,
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  TZ: 'UTC',
  TERM: 'xterm',
  CI: 'true',
  NO_PROXY: 'localhost',
  https_proxy: 'http://proxy:3128',
  USER: 'runner',
  SHELL: '/bin/bash',
  AWS_SECRET_ACCESS_KEY: 'aws-secret',
  NPM_TOKEN: 'npm-secret',
  DATABASE_URL: 'postgres://user:secret@db/app',
  OPENAI_API_KEY: 'sk-openai',
  MY_TOOL_CONFIG: '/etc/tool.json',
  ITERVOX_DEMO_FAIL_AT: 'researcher'
}

describe('agentEnvironment', () => {
  const env = agentEnvironment(jobEnv, contract, {
    allowed: allowedNames([], 'claude'),
    home: '/home/agent'
  })

  it('removes every token, runtime URL, input and file-command path of the runner', () => {
    for (const name of Object.keys(env)) {
      expect(name).not.toMatch(/^(ACTIONS_|INPUT_)/)
    }
    for (const name of RUNNER_NAMES) expect(env).not.toHaveProperty([name])
    expect(Object.values(env).join('\n')).not.toContain('ghs_secret')
  })

  it('passes PATH, the locale, proxies, TERM, CI, ITERVOX_* and the preset model variables', () => {
    expect(env).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/agent',
      LANG: 'C.UTF-8',
      LC_ALL: 'C.UTF-8',
      TZ: 'UTC',
      TERM: 'xterm',
      CI: 'true',
      HTTPS_PROXY: 'http://proxy:3128',
      https_proxy: 'http://proxy:3128',
      NO_PROXY: 'localhost',
      ANTHROPIC_API_KEY: 'sk-ant-keep',
      ITERVOX_DEMO_FAIL_AT: 'researcher',
      ITERVOX_HANDOFF_PATH: contract.handoffPath,
      ITERVOX_RUN_TIMESTAMP: contract.runTimestamp,
      ITERVOX_PROFILE: 'dev',
      ITERVOX_ISSUE: '42',
      ITERVOX_PROMPT_FILE: '/tmp/run/prompt.md',
      ITERVOX_AGENT: '1'
    })
  })

  it("keeps the job's other secrets and context from the agent unless they are declared", () => {
    for (const name of [
      'AWS_SECRET_ACCESS_KEY',
      'NPM_TOKEN',
      'DATABASE_URL',
      'OPENAI_API_KEY',
      'MY_TOOL_CONFIG',
      'GITHUB_REPOSITORY',
      'RUNNER_TEMP',
      'USER',
      'SHELL'
    ]) {
      expect(env).not.toHaveProperty([name])
    }
    const declared = agentEnvironment(jobEnv, contract, {
      allowed: allowedNames(['NPM_TOKEN', 'GITHUB_REPOSITORY', 'NOT_SET'], 'claude'),
      home: '/home/agent'
    })
    expect(declared).toMatchObject({
      NPM_TOKEN: 'npm-secret',
      GITHUB_REPOSITORY: 'octo/repo',
      ANTHROPIC_API_KEY: 'sk-ant-keep'
    })
    expect(declared).not.toHaveProperty(['AWS_SECRET_ACCESS_KEY'])
    expect(declared).not.toHaveProperty(['NOT_SET'])
    expect(declared).not.toHaveProperty(['UNSET'])
  })

  it('gives each preset its own model variables, and a generic agent none', () => {
    const of = (preset: 'codex' | 'generic') =>
      agentEnvironment(jobEnv, contract, { allowed: allowedNames([], preset), home: undefined })
    expect(of('codex')).toHaveProperty(['OPENAI_API_KEY'], 'sk-openai')
    expect(of('codex')).not.toHaveProperty(['ANTHROPIC_API_KEY'])
    expect(of('generic')).not.toHaveProperty(['ANTHROPIC_API_KEY'])
    expect(of('generic')).not.toHaveProperty(['OPENAI_API_KEY'])
  })

  it('never passes a runner variable, even when it is declared', () => {
    const declared = agentEnvironment(jobEnv, contract, {
      allowed: [...RUNNER_NAMES, 'ACTIONS_RUNTIME_TOKEN', 'INPUT_GITHUB-TOKEN', 'github_token'],
      home: undefined
    })
    for (const name of Object.keys(declared)) expect(isRunnerVariable(name)).toBe(false)
    expect(Object.values(declared).join('\n')).not.toContain('ghs_secret')
  })

  it('takes HOME and the other identity variables from the caller, not the parent', () => {
    const given = agentEnvironment(jobEnv, contract, {
      allowed: ['HOME'],
      home: '/tmp/agent-home',
      ...parentIdentity({ USER: 'runner', LOGNAME: 'runner', TMPDIR: '/tmp/t', SHELL: '/bin/sh' })
    })
    expect(given).toMatchObject({
      HOME: '/tmp/agent-home',
      USER: 'runner',
      LOGNAME: 'runner',
      TMPDIR: '/tmp/t',
      SHELL: '/bin/sh'
    })
    const none = agentEnvironment(jobEnv, contract, { allowed: [], home: undefined })
    for (const name of ['HOME', 'USER', 'LOGNAME', 'TMPDIR', 'SHELL']) {
      expect(none).not.toHaveProperty([name])
    }
  })

  it('sets the agent contract variables, over any inherited or declared ones', () => {
    const declared = agentEnvironment(jobEnv, contract, {
      allowed: ['ITERVOX_PROFILE'],
      home: undefined
    })
    expect(declared).toMatchObject({ ITERVOX_PROFILE: 'dev', ITERVOX_AGENT: '1' })
    expect(env.ITERVOX_PROFILE).toBe('dev')
  })

  it('does not change the parent environment', () => {
    expect(runnerEnv.GITHUB_TOKEN).toBe('ghs_secret')
    expect(runnerEnv.ITERVOX_PROFILE).toBe('spoofed')
  })
})

describe('isRunnerVariable', () => {
  it('matches names whatever their case', () => {
    expect(isRunnerVariable('github_token')).toBe(true)
    expect(isRunnerVariable('Actions_Runtime_Token')).toBe(true)
    expect(isRunnerVariable('input_x')).toBe(true)
  })

  it('leaves look-alikes alone', () => {
    expect(isRunnerVariable('GITHUB_TOKEN_FILE_HINT')).toBe(false)
    expect(isRunnerVariable('MY_ACTIONS_X')).toBe(false)
    expect(isRunnerVariable('GITHUB_SHA')).toBe(false)
  })
})
