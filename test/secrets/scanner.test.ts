import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import { knownSecrets } from '../../src/secrets/known-secrets.js'
import { inWords, SecretScanner } from '../../src/secrets/scanner.js'
import { keyShaped } from './key-samples.js'

const MODEL_KEY = keyShaped.anthropic
const JOB_TOKEN = keyShaped.githubServer
const scanner = new SecretScanner([
  { name: 'ANTHROPIC_API_KEY', value: MODEL_KEY },
  { name: 'GITHUB_TOKEN', value: JOB_TOKEN },
  { name: 'DEPLOY_PASSWORD', value: 'p@ss/w0rd+key==;x' }
])
// Only the known values: shapes alone are tested below.
const plain = new SecretScanner([{ name: 'MY_SERVICE_KEY', value: 'service-key-0123' }])

describe('SecretScanner: known values', () => {
  it('finds and replaces a known value, naming its variable and never its value', () => {
    const r = plain.redact('before service-key-0123 after service-key-0123.')
    expect(r.text).toBe('before (redacted MY_SERVICE_KEY) after (redacted MY_SERVICE_KEY).')
    expect(r.kinds).toEqual(['the value of MY_SERVICE_KEY'])
  })

  it.each([
    ['base64, aligned', (v: string) => Buffer.from(v).toString('base64')],
    ['base64, one byte in', (v: string) => Buffer.from(`x${v}`).toString('base64')],
    ['base64, two bytes in', (v: string) => Buffer.from(`xy${v}!`).toString('base64')],
    [
      'base64 of a basic auth header',
      (v: string) => `AUTHORIZATION: basic ${Buffer.from(`x-access-token:${v}`).toString('base64')}`
    ],
    ['URL-safe base64', (v: string) => Buffer.from(`??${v}??`).toString('base64url')],
    ['URL-encoded', (v: string) => `https://x.test/?k=${encodeURIComponent(v)}`],
    [
      'URL-encoded, lower-case escapes',
      (v: string) => encodeURIComponent(v).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())
    ],
    ['hex', (v: string) => Buffer.from(v).toString('hex')],
    ['hex, upper case', (v: string) => Buffer.from(v).toString('hex').toUpperCase()],
    ['reversed', (v: string) => [...v].reverse().join('')]
  ])('finds a value written %s', (_how, encode) => {
    const value = 'p@ss/w0rd+key==;x'
    const text = `The config says ${encode(value)} and nothing else.`
    const r = scanner.redact(text)
    expect(r.kinds).toHaveLength(1)
    expect(r.kinds[0]).toMatch(/^the value of DEPLOY_PASSWORD/)
    expect(r.text).toContain('(redacted DEPLOY_PASSWORD')
    expect(r.text).not.toContain(encode(value))
    expect(r.text).toMatch(/^The config says .*and nothing else\.$/)
  })

  it('says which encoding it found', () => {
    const b64 = Buffer.from(`token=${MODEL_KEY}`).toString('base64')
    expect(scanner.find(b64)).toEqual(['the value of ANTHROPIC_API_KEY (base64)'])
    expect(scanner.redact(b64).text).toContain('(redacted ANTHROPIC_API_KEY base64)')
  })

  it('lists every kind once, in the order found', () => {
    const text = `${JOB_TOKEN} ${MODEL_KEY} ${JOB_TOKEN}`
    expect(scanner.find(text)).toEqual([
      'the value of GITHUB_TOKEN',
      'a GitHub token',
      'the value of ANTHROPIC_API_KEY',
      'an Anthropic API key'
    ])
    expect(scanner.redact(text).text).toBe(
      '(redacted GITHUB_TOKEN) (redacted ANTHROPIC_API_KEY) (redacted GITHUB_TOKEN)'
    )
  })

  it('redacts every string inside a value, keys and numbers untouched', () => {
    const r = plain.redactDeep({ a: ['x service-key-0123'], b: { c: 'service-key-0123' }, n: 3 })
    expect(r.value).toEqual({
      a: ['x (redacted MY_SERVICE_KEY)'],
      b: { c: '(redacted MY_SERVICE_KEY)' },
      n: 3
    })
    expect(r.kinds).toEqual(['the value of MY_SERVICE_KEY'])
  })

  it('never leaves a known value behind, whatever surrounds it (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 8, maxLength: 40 }).filter((v) => v.trim() === v),
        fc.string(),
        fc.string(),
        fc.constantFrom('raw', 'base64', 'url', 'hex'),
        (value, before, after, form) => {
          const s = new SecretScanner(knownSecrets({ MY_TOKEN: value }, []))
          const encoded =
            form === 'base64'
              ? Buffer.from(before + value + after).toString('base64')
              : form === 'url'
                ? encodeURIComponent(before + value + after)
                : form === 'hex'
                  ? Buffer.from(value).toString('hex')
                  : before + value + after
          const out = s.redact(encoded).text
          if (form === 'raw') expect(out).not.toContain(value)
          if (form === 'base64') {
            expect(Buffer.from(out, 'base64').toString()).not.toContain(value)
          }
          if (form === 'url') expect(out).not.toContain(encodeURIComponent(value))
          if (form === 'hex') expect(out.toLowerCase()).not.toContain(encoded)
        }
      )
    )
  })
})

describe('SecretScanner: key shapes', () => {
  it.each([
    ['a GitHub token', keyShaped.githubPersonal],
    ['a GitHub token', keyShaped.githubServer],
    ['a GitHub token', keyShaped.githubOauth],
    ['a GitHub token', keyShaped.githubFineGrained],
    ['an Anthropic API key', keyShaped.anthropic],
    ['an OpenAI API key', keyShaped.openaiProject],
    ['an OpenAI API key', keyShaped.openaiLegacy],
    ['a Google API key', keyShaped.google],
    ['an AWS access key', keyShaped.aws],
    ['a Slack token', keyShaped.slack],
    ['a Stripe key', keyShaped.stripe],
    ['an npm token', keyShaped.npm],
    ['a GitLab token', keyShaped.gitlab],
    ['a Hugging Face token', keyShaped.huggingFace],
    ['a JSON web token', keyShaped.jwt],
    ['a private key', keyShaped.privateKey]
  ])('recognises %s nobody told it of', (kind, key) => {
    const r = plain.redact(`Use \`${key}\` here.`)
    expect(r.kinds).toEqual([kind])
    expect(r.text).toBe(`Use \`(redacted ${kind.replace(/^an? /, '')})\` here.`)
  })

  it('redacts a private key block with no end line to the end of the text', () => {
    const cut = keyShaped.privateKey.split('\n').slice(0, 2).join('\n')
    expect(plain.redact(`key:\n${cut}\nmore`).text).toBe('key:\n(redacted private key)')
  })

  it('redacts every line of a private key block when text comes a line at a time', () => {
    const line = plain.lines()
    const out = ['before', ...keyShaped.privateKey.split('\n'), 'after'].map(line)
    expect(out).toEqual([
      'before',
      '(redacted private key)',
      '(redacted private key)',
      '(redacted private key)',
      '(redacted private key)',
      'after'
    ])
    expect(line('service-key-0123')).toBe('(redacted MY_SERVICE_KEY)')
  })

  it('finds nothing in ordinary Markdown: hashes, UUIDs, base64, slugs, examples', () => {
    const text = [
      '# Research: CSV export',
      '',
      'Commit 3f786850e387550fdab836ed7e6dc881de23001b, and the tree',
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 (sha256).',
      'Run id 550e8400-e29b-41d4-a716-446655440000; request 9f1c2b7e-0d4a-4c8e-9b3f-2a6d5e7f8c91.',
      '![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)',
      'Branch `sk-learn-pipeline-refactor-for-csv-export` and `ghp_short`.',
      'Read `process.env.GITHUB_TOKEN` or `${{ secrets.ANTHROPIC_API_KEY }}`; never print them.',
      "AWS's documented example key is AKIAIOSFODNN7EXAMPLE.",
      '-----BEGIN PUBLIC KEY-----',
      'MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE',
      '-----END PUBLIC KEY-----',
      'Colours #ff00aa and #A1B2C3, version 1.2.3-beta.4, https://github.com/octo-org/demo/pull/12.',
      'A header `eyJhbGciOiJIUzI1NiJ9` alone is not a token.',
      '',
      '| Task | Status |',
      '|---|---|',
      '| xoxo hugs | done |'
    ].join('\n')
    expect(plain.find(text)).toEqual([])
    expect(plain.redact(text).text).toBe(text)
  })
})

describe('knownSecrets', () => {
  const env = {
    GITHUB_TOKEN: 'ghs_job_token_value',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc-request-token',
    ANTHROPIC_API_KEY: `  ${MODEL_KEY}\n`,
    GEMINI_API_KEY: 'short',
    NPM_TOKEN: 'npm-secret-value',
    AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
    MY_SERVICE_URL: 'https://internal.example/api',
    PATH: '/usr/bin:/bin',
    HOME: '/home/runner',
    TOKEN_COPY: 'ghs_job_token_value'
  }

  it('takes the runner tokens, the model keys, named variables and credential-like names', () => {
    const found = knownSecrets(
      env,
      ['MY_SERVICE_URL'],
      [{ name: 'github-token', value: 'ghs_input_token' }]
    )
    expect(found).toEqual([
      { name: 'github-token', value: 'ghs_input_token' },
      { name: 'GITHUB_TOKEN', value: 'ghs_job_token_value' },
      { name: 'ACTIONS_ID_TOKEN_REQUEST_TOKEN', value: 'oidc-request-token' },
      { name: 'ANTHROPIC_API_KEY', value: MODEL_KEY },
      { name: 'MY_SERVICE_URL', value: 'https://internal.example/api' },
      { name: 'NPM_TOKEN', value: 'npm-secret-value' },
      { name: 'AWS_SECRET_ACCESS_KEY', value: 'aws-secret-value' }
    ])
  })

  it('leaves out short values, and variables nobody named', () => {
    const names = knownSecrets(env, []).map((s) => s.name)
    expect(names).not.toContain('GEMINI_API_KEY')
    expect(names).not.toContain('PATH')
    expect(names).not.toContain('MY_SERVICE_URL')
    // One entry per value: the copy adds nothing.
    expect(names).not.toContain('TOKEN_COPY')
  })
})

describe('inWords', () => {
  it('joins kinds for one line of a report', () => {
    expect(inWords(['a GitHub token'])).toBe('a GitHub token')
    expect(inWords(['a', 'b', 'c'])).toBe('a, b and c')
  })
})
