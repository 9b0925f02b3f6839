/** The issue as the templates see it; the pipeline's Issue is one. */
interface BindingIssue {
  id: string
  identifier: string
  title: string
  description: string
  state: string | null
  labels: string[]
  url: string
  createdAt?: string | undefined
  updatedAt?: string | undefined
}

/** What the templates can see. Untrusted issue text must already be cleaned by the caller. */
export interface BindingInput {
  issue: BindingIssue & {
    branchName?: string
    comments?: { body: string; author: string; createdAt: string }[]
  }
  /** null on the first run, 1, 2, ... on retries (itervox's convention). */
  attempt: number | null
  run: { timestamp: string; handoffPath: string }
  trigger: { type: string; state: string | null; automation: string | null }
  profile: string
}

/**
 * Snake-case bindings as itervox templates expect them. Optional fields are present and null,
 * so `{% if issue.url %}` works and printing one gives an empty string rather than an error.
 */
export function templateBindings(input: BindingInput): Record<string, unknown> {
  const { issue } = input
  return {
    issue: {
      id: issue.id,
      identifier: issue.identifier,
      title: issue.title,
      description: issue.description,
      state: issue.state,
      labels: issue.labels,
      url: issue.url || null,
      branch_name: issue.branchName ?? null,
      created_at: issue.createdAt ?? null,
      updated_at: issue.updatedAt ?? null,
      comments: (issue.comments ?? []).map((c) => ({
        body: c.body,
        author_name: c.author,
        created_at: c.createdAt
      }))
    },
    attempt: input.attempt,
    run: { timestamp: input.run.timestamp, handoff_path: input.run.handoffPath },
    trigger: {
      type: input.trigger.type,
      state: input.trigger.state,
      automation: input.trigger.automation
    },
    profile: input.profile
  }
}
