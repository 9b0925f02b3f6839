// input_required: a stage asked a question and waits. The job that decided so sends a wake-up
// for it (see automation-wakes.ts); the question is read from the record. The automation's
// profile answers in its deliverable, which the status comment lists next to the question. With
// policy.auto_resume that answer resumes the waiting stage (auto-resume.ts); without it a
// person's reply still does.
import type { AutomationEvent } from '../ports.js'
import type { TriggerRule } from './rule.js'

/** The waiting run's timestamp (`2024-05-01T10-00-00.000Z`) as a time. */
function askedAt(timestamp: string): Date | undefined {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-(\d\d)(\.\d+)?Z$/.exec(timestamp)
  return m ? new Date(`${m[1]}T${m[2]}:${m[3]}:${m[4]}${m[5] ?? ''}Z`) : undefined
}

export const inputRequired: TriggerRule<Extract<AutomationEvent, { type: 'input_required' }>> = {
  type: 'input_required',
  occasion(e, c) {
    const w = c.record.waiting
    if (!w || w.entry !== e.entry || c.record.entry !== e.entry) {
      return { skip: `no stage of entry ${e.entry} waits for input` }
    }
    const at = askedAt(w.timestamp)
    return {
      state: w.state,
      entry: w.entry,
      key: `input-${w.entry}-${w.kind}-${w.attempt}-${w.timestamp.replace(/[^0-9]/g, '')}`,
      about: `The ${w.profile} stage in "${w.state}" asked a question and waits for an answer. Answer it in your deliverable if you can; a person may still reply.`,
      text: { author: w.profile, body: w.question },
      at: at?.toISOString()
    }
  },
  conditions(a, _e, o, c) {
    const f = a.filter
    const out: boolean[] = []
    if (f.inputContextRegex) out.push(f.inputContextRegex.test(o.text?.body ?? ''))
    if (f.maxAgeMinutes !== undefined) {
      const age = o.at ? (c.now.getTime() - Date.parse(o.at)) / 60_000 : Infinity
      out.push(age <= f.maxAgeMinutes)
    }
    return out
  }
}
