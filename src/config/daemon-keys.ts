/** The parts of WORKFLOW.md, each checked on its own. */
export type Section =
  'root' | 'tracker' | 'workspace' | 'agent' | 'profile' | 'automation' | 'handoff' | 'approval'

/**
 * Keys the itervox daemon reads but a CI runner has no use for: they load with a warning, so
 * one WORKFLOW.md can serve both.
 */
export const DAEMON_ONLY_KEYS: Record<Section, readonly string[]> = {
  root: ['server', 'polling', 'hooks', 'dependencies', 'schedules'],
  tracker: ['endpoint', 'working_state', 'outbox', 'comment_commands'],
  workspace: ['clone_url', 'root', 'worktree', 'auto_clear'],
  agent: [
    'backend',
    'read_timeout_ms',
    'max_retry_backoff_ms',
    'max_automation_queue_length',
    'reviewer_prompt',
    'inline_input',
    'pr_footer',
    'pause_dispatch_when_any_in_state',
    'merge_strategy',
    'merge_block_labels',
    'allow_unchecked_merge',
    'transport_error_patterns',
    'rate_limit_error_patterns',
    'rate_limit_error_patterns_mode',
    'backend_fallback',
    'max_switches_per_issue_per_window',
    'switch_window_hours',
    'switch_revert_hours',
    'ssh_hosts',
    'ssh_strict_host_checking',
    'dispatch_strategy',
    'deps_analyzer_profile',
    'available_models',
    'base_branch'
  ],
  profile: ['backend', 'create_issue_state', 'permission_mode', 'require_evidence'],
  automation: [],
  handoff: [],
  approval: []
}

const REMOVED_IN_2 = 'is not allowed in itervox_schema_version 2; remove it'

/** Keys schema 2 rejects outright, with what to do instead. */
export const SCHEMA_1_KEYS: Partial<Record<Section, Record<string, string>>> = {
  agent: { agent_mode: REMOVED_IN_2, enable_agent_teams: REMOVED_IN_2 },
  profile: {
    prompt:
      'inline prompts are not allowed in itervox_schema_version 2; move the text into the file named by instructions_file'
  }
}
