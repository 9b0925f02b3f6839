/** A kind of credential recognised by its shape alone, whoever issued it. */
export interface KeyShape {
  /** What it is, for the line that says something was withheld. */
  kind: string
  /** Global, so that every occurrence is found. */
  pattern: RegExp
  /** A further test of the match, where the prefix alone would also fit ordinary words. */
  accept?: (match: string) => boolean
}

/** Random keys mix cases and digits; a slug such as `sk-my-long-branch-name` does not. */
const mixed = (s: string) => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s)

// The examples in AWS's own documentation, quoted by many READMEs: not anyone's key.
const AWS_EXAMPLES = new Set(['AKIAIOSFODNN7EXAMPLE'])

// Published formats; the prefix carries the kind, and lengths are the issuers' minimums, so
// commit hashes, UUIDs and base64 images (no prefix, or no word boundary before one) pass.
export const KEY_SHAPES: readonly KeyShape[] = [
  {
    kind: 'a private key',
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g
  },
  { kind: 'a GitHub token', pattern: /\bgh[opsur]_[A-Za-z0-9]{36,255}\b/g },
  { kind: 'a GitHub token', pattern: /\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g },
  { kind: 'an Anthropic API key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, accept: mixed },
  {
    kind: 'an OpenAI API key',
    // sk-proj-, sk-svcacct-, sk-admin- and the older bare sk- keys; not sk-ant-, above.
    pattern: /\bsk-(?!ant-)(?:[a-z]+-)?[A-Za-z0-9_-]{20,}/g,
    accept: mixed
  },
  { kind: 'a Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  {
    kind: 'an AWS access key',
    pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g,
    accept: (m) => !AWS_EXAMPLES.has(m)
  },
  { kind: 'a Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  {
    kind: 'a Slack webhook',
    pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9_/-]{20,}/g
  },
  { kind: 'a Stripe key', pattern: /\b[rs]k_live_[0-9A-Za-z]{24,}/g },
  { kind: 'an npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  { kind: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'a Hugging Face token', pattern: /\bhf_[A-Za-z0-9]{34,}\b/g, accept: mixed },
  {
    // The runner's own runtime and OIDC tokens are JWTs.
    kind: 'a JSON web token',
    pattern: /\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{16,}/g
  }
]
