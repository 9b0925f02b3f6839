import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { UserError } from '../errors.js'
import { UsageError } from './args.js'

/** owner/name from `git remote get-url origin`, in any of GitHub's URL forms. */
async function originRepo(command: string): Promise<string> {
  let url: string
  try {
    url = (await promisify(execFile)('git', ['remote', 'get-url', 'origin'])).stdout.trim()
  } catch {
    throw new UsageError(
      `${command}: no --repo given and no git remote "origin" here; pass --repo OWNER/NAME`,
      command
    )
  }
  const m = /[:/]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url)
  if (!m) {
    throw new UsageError(
      `${command}: cannot tell the repository from origin's URL ${url.replace(/\/\/[^@/]*@/, '//')}; pass --repo OWNER/NAME`,
      command
    )
  }
  return `${m[1]}/${m[2]}`
}

/** The GitHub repository a CLI command works on, the token it uses and the API it asks. */
export interface GitHubTarget<T extends string | undefined = string> {
  token: T
  owner: string
  name: string
  /** `owner/name`. */
  repo: string
  apiUrl: string
}

/**
 * The repository from `--repo` or git remote origin, the token from GITHUB_TOKEN or GH_TOKEN
 * (one with `access`), and the API root from GITHUB_API_URL (GitHub Enterprise Server).
 */
export async function githubTarget(
  command: string,
  given: string | undefined,
  access: string
): Promise<GitHubTarget> {
  const target = await githubTargetMaybeAnonymous(command, given)
  const { token } = target
  if (!token) {
    throw new UserError(
      `${command}: no token; set GITHUB_TOKEN or GH_TOKEN to one with ${access} on the repository (e.g. GH_TOKEN=$(gh auth token))`
    )
  }
  return { ...target, token }
}

/** As githubTarget, for a command that only reads: without a token it asks as anyone may. */
export async function githubTargetMaybeAnonymous(
  command: string,
  given: string | undefined
): Promise<GitHubTarget<string | undefined>> {
  const token = process.env.GITHUB_TOKEN || process.env.GH_TOKEN || undefined
  const repo = given ?? (await originRepo(command))
  const [owner, name] = repo.split('/')
  if (!owner || !name || !/^[\w.-]+\/[\w.-]+$/.test(repo)) {
    throw new UsageError(`${command}: --repo takes OWNER/NAME, not "${repo}"`, command)
  }
  const apiUrl = process.env.GITHUB_API_URL || 'https://api.github.com'
  return { token, owner, name, repo, apiUrl }
}
