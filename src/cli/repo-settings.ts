// What `labels` can see of the repository settings a first run depends on (Settings → Actions →
// General), each as one line: fine, to change, or to check by hand when the token may not read
// them (reading them takes admin on the repository).
import { messageOf, type Rest } from './github-rest.js'

export interface SettingLine {
  verdict: 'ok' | 'change' | 'check'
  text: string
}

const PAGE = 'Settings → Actions → General'

/** The repository setting without which GITHUB_TOKEN may not open a pull request. */
export const PULL_REQUEST_SETTING = 'Allow GitHub Actions to create and approve pull requests'

export async function repoSettings(rest: Rest): Promise<SettingLine[]> {
  return [...(await actionsPermissions(rest)), ...(await workflowPermissions(rest))]
}

async function actionsPermissions(rest: Rest): Promise<SettingLine[]> {
  const r = await rest.call('GET', '/actions/permissions')
  if (r.status !== 200) return [unreadable(r.status, r.data, 'whether Actions may run')]
  const a = r.data as { enabled: boolean; allowed_actions?: string; sha_pinning_required?: boolean }
  if (!a.enabled) {
    return [
      {
        verdict: 'change',
        text: `GitHub Actions is disabled for ${rest.repo}: in ${PAGE}, allow actions to run`
      }
    ]
  }
  const out: SettingLine[] = []
  if (a.allowed_actions === 'local_only') {
    out.push({
      verdict: 'change',
      text: `only this repository's own actions may run: in ${PAGE}, allow itervox/handoff-action and actions/checkout`
    })
  } else if (a.allowed_actions === 'selected') {
    out.push({
      verdict: 'check',
      text: `only selected actions may run: in ${PAGE}, make sure itervox/handoff-action@* and actions/checkout@* are among them`
    })
  } else {
    out.push({ verdict: 'ok', text: 'GitHub Actions is enabled and may run any action' })
  }
  if (a.sha_pinning_required === true) {
    out.push({
      verdict: 'change',
      text: 'actions must be pinned to full commit SHAs: replace @v1 and @v6 in .github/workflows/itervox.yml by the commits those tags point at'
    })
  }
  return out
}

async function workflowPermissions(rest: Rest): Promise<SettingLine[]> {
  const r = await rest.call('GET', '/actions/permissions/workflow')
  if (r.status !== 200) {
    return [unreadable(r.status, r.data, 'whether workflows may open pull requests')]
  }
  const w = r.data as {
    default_workflow_permissions: string
    can_approve_pull_request_reviews: boolean
  }
  return [
    w.can_approve_pull_request_reviews
      ? { verdict: 'ok', text: 'GitHub Actions may create pull requests' }
      : {
          verdict: 'change',
          text: `GitHub Actions may not create pull requests, so a stage cannot open its draft pull request with GITHUB_TOKEN: in ${PAGE} → Workflow permissions, tick "${PULL_REQUEST_SETTING}" (not needed with a GitHub App token)`
        },
    {
      verdict: 'ok',
      text: `default workflow permissions are ${w.default_workflow_permissions === 'write' ? 'read and write' : 'read-only'}: either works, the workflow asks for the permissions it needs`
    }
  ]
}

function unreadable(status: number, data: unknown, what: string): SettingLine {
  return {
    verdict: 'check',
    text: `cannot read ${what} (${status} ${messageOf(data)}; it takes admin on the repository): look in ${PAGE}`
  }
}
