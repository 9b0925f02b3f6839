import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
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
      'WORKFLOW.md:21:6: prompt template: undefined variable: issue.number; use one of issue.*, attempt, run.timestamp, run.handoff_path, trigger.*, profile, or guard it with {% if %} or | default: "..."'
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

  it("names days and months in the runner's locale, as liquidjs does by itself", () => {
    // The default locale is fixed when a process first uses Intl: a process of its own.
    const render = `
      import { renderTemplate } from ${JSON.stringify(new URL('../../src/prompt/template.ts', import.meta.url).href)}
      const text = '{{ "2024-03-05T12:00:00" | date: "%A %B, %a %b" }}'
      process.stdout.write(await renderTemplate({ text, file: 'WORKFLOW.md', line: 1, what: 'x' }, {}))`
    const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'de_DE.UTF-8' }
    delete env.LC_ALL
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', render],
      {
        env,
        encoding: 'utf8'
      }
    )
    expect(out).toBe('Dienstag März, Di Mär')
  })

  describe('a template that would run away', () => {
    const MEMORY =
      'builds more than 10 million values or characters; use smaller ranges and shorter strings'

    /** The one-line error and how long the render took to give it. */
    async function stopped(text: string): Promise<{ msg: string; ms: number }> {
      const started = performance.now()
      const msg = await errorOf(renderTemplate(src(text, 3), {}))
      return { msg, ms: performance.now() - started }
    }

    it('stops a range of a hundred million at once', async () => {
      const { msg, ms } = await stopped('{% for i in (1..100000000) %}x{% endfor %}')
      expect(msg).toBe(`WORKFLOW.md:3:1: prompt template: ${MEMORY}`)
      expect(ms).toBeLessThan(1000)
    })

    it('stops ranges, strings and dates made huge by arithmetic or doubling', async () => {
      const cases = [
        '{% assign n = 9 | times: 99999999 %}{% for i in (1..n) %}{% endfor %}',
        '{% assign s = "xxxxxxxxxx" %}{% for i in (1..40) %}{% assign s = s | append: s %}{% endfor %}',
        '{{ "now" | date: "%999999999Y" }}'
      ]
      for (const text of cases) {
        const { msg, ms } = await stopped(text)
        expect(msg).toMatch(new RegExp(`^WORKFLOW\\.md:3:\\d+: prompt template: ${MEMORY}$`))
        expect(ms).toBeLessThan(1000)
      }
    })

    it('stops nested loops after two seconds, at the loop', async () => {
      const { msg, ms } = await stopped(
        '{% for a in (1..3000) %}\n{% for b in (1..3000) %}xxxxxxxxxx{% endfor %}{% endfor %}'
      )
      expect(msg).toBe(
        'WORKFLOW.md:4:1: prompt template: takes more than 2 s to render; loop over less'
      )
      expect(ms).toBeLessThan(5000)
    })

    it('refuses output over 16 million characters', async () => {
      const { msg } = await stopped(
        '{% assign s = "xxxxxxxxxxxxxxxx" %}{% for i in (1..16) %}{% assign s = s | append: s %}{% endfor %}' +
          '{% for i in (1..20) %}{{ s }}{% endfor %}'
      )
      expect(msg).toBe(
        'WORKFLOW.md:3: prompt template: renders to more than 16 million characters; loop over less'
      )
    })

    it('refuses a template over a million characters', async () => {
      const { msg } = await stopped('x'.repeat(1_000_001))
      expect(msg).toBe(
        'WORKFLOW.md:3: prompt template: is longer than 1 million characters; shorten it'
      )
    })

    it('counts each render on its own', async () => {
      // Each render builds ~5.2 million characters, so two would pass the limit together. A
      // string that doubles costs milliseconds; a range that size took a second, near the
      // render-time limit on a loaded machine.
      const text =
        '{% assign s = "xxxxxxxxxx" %}{% for i in (1..18) %}{% assign s = s | append: s %}{% endfor %}{{ s | size }}'
      expect(await renderTemplate(src(text), {})).toBe('2621440')
      expect(await renderTemplate(src(text), {})).toBe('2621440')
      expect(await renderTemplate(src(text.replace('1..18', '1..19')), {}).catch(String)).toMatch(
        /builds more than 10 million values or characters/
      )
    })
  })
})
