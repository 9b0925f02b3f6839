import { describe, expect, it } from '@jest/globals'
import { agentEnvironment, isRunnerVariable } from '../../src/agent/environment.js'

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

describe('agentEnvironment', () => {
  const env = agentEnvironment(runnerEnv, contract)

  it('removes every token, runtime URL, input and file-command path of the runner', () => {
    for (const name of Object.keys(env)) {
      expect(name).not.toMatch(/^(ACTIONS_|INPUT_)/)
    }
    for (const name of [
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'GH_ENTERPRISE_TOKEN',
      'GITHUB_ENV',
      'GITHUB_OUTPUT',
      'GITHUB_STATE',
      'GITHUB_PATH',
      'GITHUB_STEP_SUMMARY'
    ]) {
      expect(env).not.toHaveProperty([name])
    }
    expect(Object.values(env).join('\n')).not.toContain('ghs_secret')
  })

  it("keeps the user's own variables and the runner's harmless context", () => {
    expect(env).toMatchObject({
      PATH: '/usr/bin:/bin',
      HOME: '/home/runner',
      ANTHROPIC_API_KEY: 'sk-ant-keep',
      HTTPS_PROXY: 'http://proxy:3128',
      GITHUB_REPOSITORY: 'octo/repo',
      RUNNER_TEMP: '/home/runner/work/_temp'
    })
    expect(env).not.toHaveProperty(['UNSET'])
  })

  it('sets the agent contract variables, over any inherited ones', () => {
    expect(env).toMatchObject({
      ITERVOX_HANDOFF_PATH: contract.handoffPath,
      ITERVOX_RUN_TIMESTAMP: contract.runTimestamp,
      ITERVOX_PROFILE: 'dev',
      ITERVOX_ISSUE: '42',
      ITERVOX_PROMPT_FILE: '/tmp/run/prompt.md',
      ITERVOX_AGENT: '1'
    })
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
