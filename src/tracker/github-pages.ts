// Every paginated GitHub listing is read through here: a bounded number of pages, and a `Link`
// header that leads back to a page already read is an error, not another lap (one stage once
// read 54,456 pages of a listing whose links looped).
import { GitHubApiError } from './github-errors.js'

/** The most pages one listing reads: at 100 items a page, 10,000 comments, labels or issues. */
const MAX_PAGES = 100

/** One page of a listing, as Octokit's page iterator gives it. */
interface Page<T> {
  status: number
  url: string
  headers: { link?: string }
  data: T[]
}

/**
 * The pages of a listing, stopping with one line before a request for a page past MAX_PAGES or
 * for a page already read. `what` names the listing: `the comments of #42`.
 */
export async function* boundedPages<T>(
  pages: AsyncIterable<Page<T>>,
  what: string
): AsyncGenerator<Page<T>> {
  const read = new Set<string>()
  for await (const page of pages) {
    read.add(samePage(page.url))
    yield page
    const next = /<([^<>]+)>;\s*rel="next"/.exec(page.headers.link ?? '')?.[1]
    if (next === undefined) return
    if (read.has(samePage(next))) {
      throw new GitHubApiError(
        `GitHub's listing of ${what} loops: its page ${next} links back to a page already read; stopped after ${read.size} ${read.size === 1 ? 'page' : 'pages'}`,
        page.status
      )
    }
    if (read.size >= MAX_PAGES) {
      throw new GitHubApiError(
        `GitHub's listing of ${what} has more than ${MAX_PAGES} pages; stopped there rather than read on`,
        page.status
      )
    }
  }
}

/** All the items of a listing, read through boundedPages. */
export async function allPages<T>(pages: AsyncIterable<Page<T>>, what: string): Promise<T[]> {
  const out: T[] = []
  for await (const page of boundedPages(pages, what)) out.push(...page.data)
  return out
}

/**
 * A page's address with its query in one order, and the first page named as such, so one page
 * linked two ways is seen once.
 */
function samePage(url: string): string {
  const u = new URL(url)
  if (!u.searchParams.has('page')) u.searchParams.set('page', '1')
  u.searchParams.sort()
  u.hash = ''
  return u.toString()
}
