import { describe, expect, it } from '@jest/globals'
import { UserError } from '../../src/errors.js'
import { renderTemplate } from '../../src/prompt/template.js'

const src = (text: string, line = 20) => ({
  text,
  file: 'WORKFLOW.md',
  line,
  what: 'prompt template'
})

async function errorOf(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (err) {
    expect(err).toBeInstanceOf(UserError)
    return (err as UserError).format()
  }
  throw new Error('expected a UserError')
}

describe('renderTemplate', () => {
  it('renders the seed body', async () => {
    const out = await renderTemplate(
      src('Implement issue {{ issue.identifier }}: {{ issue.title }}.\n\n{{ issue.description }}'),
      { issue: { identifier: '#42', title: 'Fix it', description: 'Body' } }
    )
    expect(out).toBe('Implement issue #42: Fix it.\n\nBody')
  })

  it('reports an undefined variable at the file line and column', async () => {
    const msg = await errorOf(renderTemplate(src('line one\n  {{ issue.number }}'), { issue: {} }))
    expect(msg).toBe(
      'WORKFLOW.md:21:6: prompt template: undefined variable: issue.number; use one of issue.*, attempt, run.timestamp, run.handoff_path, trigger.*, profile, or guard it with {% if %} or | default:'
    )
  })

  it('reports an undefined filter', async () => {
    const msg = await errorOf(
      renderTemplate(src('{{ issue.title | shout }}', 5), { issue: { title: 'x' } })
    )
    expect(msg).toMatch(/^WORKFLOW\.md:5:1: prompt template: undefined filter: shout; /)
  })

  it('lets {% if %} and default guard optional fields', async () => {
    const out = await renderTemplate(
      src('{% if attempt %}retry {{ attempt }}{% endif %}{{ issue.url | default: "none" }}'),
      {
        attempt: null,
        issue: { url: null }
      }
    )
    expect(out).toBe('none')
  })

  it('never reads files through include or render', async () => {
    for (const tag of ['include', 'render', 'layout']) {
      const msg = await errorOf(renderTemplate(src(`x\n{% ${tag} "/etc/passwd" %}`, 1), {}))
      expect(msg).toBe(
        `WORKFLOW.md:2:1: prompt template: {% ${tag} %} is not supported: templates cannot include files; put the text in the template itself`
      )
    }
  })

  it('treats bound values as data, not template code', async () => {
    const out = await renderTemplate(src('{{ issue.title }}'), {
      issue: { title: '{{ 7 | plus: 1 }} {% raw %}' }
    })
    expect(out).toBe('{{ 7 | plus: 1 }} {% raw %}')
  })
})
