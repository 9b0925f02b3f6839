import { UserError } from '../errors.js'
import type { Identity } from '../git/commit.js'

// "Name <email>", as git writes it. Angle brackets and line breaks in either part would change
// what git records (or be refused by it), so they are refused here, in one line.
const NAME_EMAIL = /^([^<>\r\n]*[^<>\s])\s*<([^<>\s@]+@[^<>\s@]+)>$/

/** The identity an input names, or undefined when it is empty. */
export function identityInput(name: string, text: string): Identity | undefined {
  const trimmed = text.trim()
  if (!trimmed) return undefined
  const m = NAME_EMAIL.exec(trimmed)
  if (!m?.[1] || !m[2]) {
    throw new UserError(
      `input ${name} is ${JSON.stringify(trimmed.slice(0, 200))}; use "Name <email>", e.g. "my-app[bot] <123456+my-app[bot]@users.noreply.github.com>"`
    )
  }
  return { name: m[1].trim(), email: m[2] }
}

/**
 * The commit identity of the token in use, as GitHub links commits to accounts: its login and
 * `<id>+<login>@users.noreply.github.com` (an App's `my-app[bot]`, or a person's).
 */
export async function tokenIdentity(api: {
  viewer(): Promise<{ login: string; databaseId: number }>
}): Promise<Identity> {
  const { login, databaseId } = await api.viewer()
  return { name: login, email: `${databaseId}+${login}@users.noreply.github.com` }
}
