// Copies the webhook payloads the action reacts to from @octokit/webhooks-examples (GitHub's
// documented examples) into test/fixtures/events/, one file per event, unchanged. Tests clone them
// and set the repository, issue, label and sender with test/harness/events.ts.
//
// The package is not a project dependency. To regenerate:
//   mkdir -p /tmp/oa && cd /tmp/oa && npm init -y && npm install @octokit/webhooks-examples@<version in source.json>
//   cd /work/main && npx tsx scripts/extract-events.ts /tmp/oa/node_modules/@octokit/webhooks-examples
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** file name → [webhook name, action ('' for events without one)]; the first example is taken. */
const EVENTS: Record<string, [string, string]> = {
  'issues.labeled': ['issues', 'labeled'],
  'issues.unlabeled': ['issues', 'unlabeled'],
  // The examples have no `issues` `closed`; `reopened` carries the same issue and sender, and
  // CLOSED turns it into the closing (GitHub's documented `closed` payload has those fields).
  'issues.closed': ['issues', 'reopened'],
  'pull_request.labeled': ['pull_request', 'labeled'],
  'pull_request.reopened': ['pull_request', 'reopened'],
  'pull_request.opened': ['pull_request', 'opened'],
  'pull_request.closed': ['pull_request', 'closed'],
  workflow_dispatch: ['workflow_dispatch', ''],
  repository_dispatch: ['repository_dispatch', 'on-demand-test'],
  'issue_comment.created': ['issue_comment', 'created']
}

interface Webhook {
  name: string
  examples: Array<Record<string, unknown> & { action?: string }>
}

/** The `reopened` example as the closing of the same issue: action, state and closed_at. */
function closed(example: Record<string, unknown>): Record<string, unknown> {
  const issue = example.issue as Record<string, unknown>
  const at = String(issue.updated_at)
  return {
    ...example,
    action: 'closed',
    issue: { ...issue, state: 'closed', state_reason: 'completed', closed_at: at }
  }
}

function main(): void {
  const pkgDir = resolve(process.argv[2] ?? '/tmp/oa/node_modules/@octokit/webhooks-examples')
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as {
    version: string
  }
  const hooks = JSON.parse(
    readFileSync(join(pkgDir, 'api.github.com', 'index.json'), 'utf8')
  ) as Webhook[]
  const dir = fileURLToPath(new URL('../test/fixtures/events/', import.meta.url))
  mkdirSync(dir, { recursive: true })
  for (const [file, [name, action]] of Object.entries(EVENTS)) {
    const example = hooks
      .find((h) => h.name === name)
      ?.examples.find((e) => (e.action ?? '') === action)
    if (!example) throw new Error(`@octokit/webhooks-examples has no ${name} ${action} example`)
    const out = file === 'issues.closed' ? closed(example) : example
    writeFileSync(join(dir, `${file}.json`), JSON.stringify(out, null, 2) + '\n')
  }
  const source = {
    package: '@octokit/webhooks-examples',
    version,
    generatedBy: 'scripts/extract-events.ts',
    events: EVENTS
  }
  writeFileSync(join(dir, 'source.json'), JSON.stringify(source, null, 2) + '\n')
  console.log(
    `wrote ${Object.keys(EVENTS).length} events from @octokit/webhooks-examples ${version}`
  )
}

main()
