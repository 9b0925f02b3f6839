import { UserError } from '../errors.js'

/**
 * A branch name git accepts as it is (no `@{-1}` expansion, no leading dash), by the rules of
 * git-check-ref-format(1) for `refs/heads/<name>`. Names come from issues and pull requests,
 * so they are data: checked here and only ever passed as argv.
 */
export function validateBranchName(name: string): Promise<string> {
  return isBranchName(name)
    ? Promise.resolve(name)
    : Promise.reject(new UserError(`"${name}" is not a valid branch name`))
}

export function isBranchName(name: string): boolean {
  return !(
    name === '' ||
    name === 'HEAD' ||
    name === '@' ||
    name.startsWith('-') ||
    name.endsWith('.') ||
    [...name].some((c) => c <= ' ' || c === '\x7f') ||
    /[~^:?*[\\]|\.\.|@\{/.test(name) ||
    name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock'))
  )
}
