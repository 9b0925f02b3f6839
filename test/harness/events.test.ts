import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from '@jest/globals'
import { EVENT_NAME, makeEvent, toDispatchEvent, writeEvent, type EventName } from './events.js'

const ALL = Object.keys(EVENT_NAME) as EventName[]

describe('webhook payloads for tests', () => {
  it.each(ALL)('%s keeps the example shape and moves to the test repository', (name) => {
    const original = JSON.parse(
      readFileSync(new URL(`../fixtures/events/${name}.json`, import.meta.url), 'utf8')
    ) as Record<string, unknown>
    const event = makeEvent(name, { owner: 'acme', repo: 'widgets' })
    expect(Object.keys(event).sort()).toEqual(Object.keys(original).sort())
    expect(event.repository).toMatchObject({
      name: 'widgets',
      full_name: 'acme/widgets',
      owner: { login: 'acme' },
      default_branch: 'main'
    })
    const text = JSON.stringify(event)
    expect(text).not.toMatch(/Hello-World|octo-repo/)
  })

  it('sets the issue, its labels, the label applied and the sender of issues.labeled', () => {
    const e = makeEvent('issues.labeled', {
      issue: 42,
      title: 'Add a cache',
      body: null,
      label: 'plan',
      labels: ['bug', 'plan'],
      sender: 'alice'
    })
    expect(e.action).toBe('labeled')
    expect(e.issue).toMatchObject({
      number: 42,
      title: 'Add a cache',
      body: null,
      html_url: 'https://github.com/octo-org/demo/issues/42'
    })
    expect(e.issue.labels.map((l: { name: string }) => l.name)).toEqual(['bug', 'plan'])
    expect(e.issue).not.toHaveProperty('pull_request')
    expect(e.label.name).toBe('plan')
    expect(e.sender).toMatchObject({ login: 'alice', type: 'User' })
  })

  it('sets head, base and a fork head on pull_request.labeled', () => {
    const e = makeEvent('pull_request.labeled', {
      issue: 5,
      label: 'review',
      head: 'patch-1',
      headRepo: 'mallory/widgets'
    })
    expect(e.number).toBe(5)
    expect(e.pull_request).toMatchObject({
      number: 5,
      head: {
        ref: 'patch-1',
        label: 'mallory:patch-1',
        repo: { full_name: 'mallory/widgets', fork: true }
      },
      base: { ref: 'main', repo: { full_name: 'octo-org/demo' } }
    })
    expect(e.label.name).toBe('review')
  })

  it('marks an issue_comment on a pull request and sets the comment', () => {
    const e = makeEvent('issue_comment.created', {
      issue: 3,
      comment: '/itervox run',
      onPullRequest: true,
      sender: 'bob'
    })
    expect(e.issue.pull_request.url).toMatch(/\/pulls\/3$/)
    expect(e.comment).toMatchObject({ body: '/itervox run', user: { login: 'bob' } })
  })

  it('sets workflow_dispatch inputs and ref', () => {
    const e = makeEvent('workflow_dispatch', { inputs: { issue: '7' }, defaultBranch: 'trunk' })
    expect(e).toMatchObject({ inputs: { issue: '7' }, ref: 'refs/heads/trunk' })
  })

  it('turns a recorded dispatch into the repository_dispatch event, sent by the Actions bot', () => {
    const e = toDispatchEvent({ eventType: 'itervox-handoff', clientPayload: { issue: 7 } })
    expect(e).toMatchObject({
      action: 'itervox-handoff',
      client_payload: { issue: 7 },
      branch: 'main',
      sender: { login: 'github-actions[bot]', id: 41898282, type: 'Bot' }
    })
  })

  it('writes event.json for GITHUB_EVENT_PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'event-'))
    try {
      const path = writeEvent(dir, makeEvent('issues.labeled', { issue: 1 }))
      expect(JSON.parse(readFileSync(path, 'utf8')).issue.number).toBe(1)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
