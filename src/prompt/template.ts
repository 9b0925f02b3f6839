import type { Liquid } from 'liquidjs'
import { closest } from '../config/did-you-mean.js'
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

// A prompt template renders in milliseconds to some KiB. These bounds stop a hostile or
// mistaken one (`{% for i in (1..100000000) %}`, an append that doubles a string in a loop)
// long before it uses up the runner: liquidjs charges every range, array and string it builds
// against memoryLimit, and checks the clock between the tags it renders. Each is per call.
const PARSE_LIMIT_CHARS = 1_000_000
const RENDER_LIMIT_MS = 2000
const MEMORY_LIMIT = 10_000_000
// Output is not charged, and a loop can repeat one long string cheaply: its length is checked.
const OUTPUT_LIMIT_CHARS = 16_000_000

const TOO_LONG = `renders to more than ${millions(OUTPUT_LIMIT_CHARS)} characters; loop over less`
// liquidjs's limit messages, and V8's when a string outgrows what it can hold, said plainly.
const LIMITS: Record<string, string> = {
  'parse length limit exceeded': `is longer than ${millions(PARSE_LIMIT_CHARS)} characters; shorten it`,
  'template render limit exceeded': `takes more than ${RENDER_LIMIT_MS / 1000} s to render; loop over less`,
  'memory alloc limit exceeded': `builds more than ${millions(MEMORY_LIMIT)} values or characters; use smaller ranges and shorter strings`,
  'Invalid string length': TOO_LONG
}

let engine: Promise<Liquid> | undefined

/**
 * The Liquid engine, loaded and set up when a template is first rendered: a job that renders
 * none (a skipped event, the post step) never runs liquidjs's code. It stays in the bundle's
 * one file ("eager"): ncc's licenses.txt lists the packages of one file only, and a second
 * file dropped every other package's licence from it.
 */
function liquid(): Promise<Liquid> {
  engine ??= import(/* webpackMode: "eager" */ 'liquidjs').then(({ Liquid }) => {
    const made = new Liquid({
      strictVariables: true,
      strictFilters: true,
      // `{% if issue.priority %}` and `| default:` are how templates guard optional fields.
      lenientIf: true,
      ownPropertyOnly: true,
      parseLimit: PARSE_LIMIT_CHARS,
      renderLimit: RENDER_LIMIT_MS,
      memoryLimit: MEMORY_LIMIT,
      // The runner's default locale, which `date`'s %a %A %b %B name days and months in: what
      // liquidjs finds by itself through Intl.DateTimeFormat, which costs ~25 ms of CPU to
      // make where a PluralRules, which resolves to the same locale, costs under 1 ms.
      locale: new Intl.PluralRules().resolvedOptions().locale
    })
    // Templates come from WORKFLOW.md and profile files on the default branch; still, a
    // template must never reach the file system, so the tags that would read one are errors.
    for (const tag of ['include', 'render', 'layout']) {
      made.registerTag(tag, {
        parse() {
          throw new Error(`{% ${tag} %} is not supported: templates cannot include files`)
        },
        render() {}
      })
    }
    return made
  })
  return engine
}

/** A template's mistake; `variable` names the undefined variable it uses, if that is it. */
export class TemplateError extends UserError {
  constructor(
    message: string,
    location: UserError['location'],
    readonly variable?: string
  ) {
    super(message, location)
  }
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
  const engine = await liquid()
  let out: string
  try {
    out = await engine.parseAndRender(src.text, bindings)
  } catch (err) {
    throw templateError(src, err as LiquidErrorLike, bindings)
  }
  if (out.length > OUTPUT_LIMIT_CHARS) {
    throw new UserError(`${src.what}: ${TOO_LONG}`, { file: src.file, line: src.line })
  }
  return out
}

function templateError(
  src: TemplateSource,
  err: LiquidErrorLike,
  bindings: Record<string, unknown>
): TemplateError {
  const pos = err.token?.getPosition?.()
  // liquidjs appends ", line:L, col:C" (and sometimes a source excerpt) to its messages.
  const reason = (err.message.split('\n')[0] ?? '').replace(/, line:\d+, col:\d+$/, '')
  const line = pos ? src.line + pos[0] - 1 : src.line
  const col = pos ? pos[1] : undefined
  const variable = /^undefined variable: (.+)$/.exec(reason)?.[1]
  const message = Object.hasOwn(LIMITS, reason)
    ? LIMITS[reason]
    : `${reason}; ${hint(reason, variable, bindings)}`
  return new TemplateError(`${src.what}: ${message}`, { file: src.file, line, col }, variable)
}

function hint(
  reason: string,
  variable: string | undefined,
  bindings: Record<string, unknown>
): string {
  if (variable !== undefined) {
    const near = closest(variable, bindingNames(bindings))
    const guess = near === undefined ? '' : `did you mean ${near}? Otherwise `
    return `${guess}use one of issue.*, attempt, run.timestamp, run.handoff_path, trigger.*, profile, or guard it with {% if %} or | default: "..."`
  }
  if (reason.startsWith('undefined filter')) return 'use a standard Liquid filter'
  if (reason.includes('cannot include files')) return 'put the text in the template itself'
  return 'fix the Liquid syntax'
}

/** `issue.title`, `run.handoff_path`, `profile`, ...: each binding and each field of one. */
function bindingNames(bindings: Record<string, unknown>): string[] {
  return Object.entries(bindings).flatMap(([name, value]) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.keys(value).map((field) => `${name}.${field}`)
      : [name]
  )
}

function millions(n: number): string {
  return n % 1_000_000 === 0 ? `${n / 1_000_000} million` : String(n)
}
