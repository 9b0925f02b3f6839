/**
 * An issue as the pipeline sees it, whatever tracker it came from. Every text field is
 * untrusted: it was written by whoever opened or edited the issue.
 */
export interface Issue {
  /** The tracker's own id: `42` on GitHub, `DEMO-1` for a local issue. */
  id: string
  /** The issue number on GitHub; absent for trackers without numbers. */
  number?: number
  /** How people refer to it: `#42`, `DEMO-1`. */
  identifier: string
  title: string
  description: string
  /** The one state the issue is in (spelled as WORKFLOW.md spells it), or null when none. */
  state: string | null
  labels: string[]
  url: string
  isPullRequest: boolean
  /** GitHub: the issue is closed (itervox treats any closed issue as terminal). */
  closed?: boolean
  createdAt?: string
  updatedAt?: string
}
