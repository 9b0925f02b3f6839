import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { UsageError } from './args.js'

/** owner/name from `git remote get-url origin`, in any of GitHub's URL forms. */
export async function originRepo(command: string): Promise<string> {
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
