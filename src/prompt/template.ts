import { Liquid } from 'liquidjs'
import { UserError } from '../errors.js'

/** A Liquid template and where its first character sits in a user's file. */
export interface TemplateSource {
  text: string
  file: string
  /** 1-based line of the file where `text` starts. */
  line: number
  /** What the template is, for messages: "prompt template", "SOUL.md", ... */
  what: string
}

const engine = new Liquid({
  strictVariables: true,
  strictFilters: true,
  // `{% if issue.priority %}` and `| default:` are how templates guard optional fields.
  lenientIf: true,
  ownPropertyOnly: true
})

// Templates come from WORKFLOW.md and profile files on the default branch; still, a template
// must never reach the file system, so the tags that would read one are errors.
for (const tag of ['include', 'render', 'layout']) {
  engine.registerTag(tag, {
    parse() {
      throw new Error(`{% ${tag} %} is not supported: templates cannot include files`)
    },
    render() {}
  })
}

interface LiquidErrorLike {
  message: string
  token?: { getPosition?: () => [number, number] }
}

/** Renders strictly: an undefined variable or filter is a user error at the template's line. */
export async function renderTemplate(
  src: TemplateSource,
  bindings: Record<string, unknown>
): Promise<string> {
  try {
    return await engine.parseAndRender(src.text, bindings)
  } catch (err) {
    throw templateError(src, err as LiquidErrorLike)
  }
}

function templateError(src: TemplateSource, err: LiquidErrorLike): UserError {
  const pos = err.token?.getPosition?.()
  // liquidjs appends ", line:L, col:C" (and sometimes a source excerpt) to its messages.
  const reason = (err.message.split('\n')[0] ?? '').replace(/, line:\d+, col:\d+$/, '')
  const line = pos ? src.line + pos[0] - 1 : src.line
  const col = pos ? pos[1] : undefined
  return new UserError(`${src.what}: ${reason}; ${hint(reason)}`, { file: src.file, line, col })
}

function hint(reason: string): string {
  if (reason.startsWith('undefined variable')) {
    return 'use one of issue.*, attempt, run.timestamp, run.handoff_path, trigger.*, profile, or guard it with {% if %} or | default:'
  }
  if (reason.startsWith('undefined filter')) return 'use a standard Liquid filter'
  if (reason.includes('cannot include files')) return 'put the text in the template itself'
  return 'fix the Liquid syntax'
}
