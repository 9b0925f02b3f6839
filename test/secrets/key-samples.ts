// Strings shaped like real credentials, for tests. Each is put together at run time, so that no
// secret scanner (GitHub's push protection, say) mistakes this file for a leak.
import { Buffer } from 'node:buffer'

const ALNUM = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zCfLoZ'

/** `n` characters of letters of both cases and digits. */
function body(n: number, seed = 7): string {
  let out = ''
  for (let i = 0; i < n; i++) out += ALNUM[(i * seed + 3) % ALNUM.length]
  return out
}

const upper = (n: number) => body(n).toUpperCase()
const b64url = (s: string) => Buffer.from(s).toString('base64url')

export const keyShaped = {
  githubPersonal: ['gh', 'p_', body(36)].join(''),
  githubServer: ['gh', 's_', body(36, 11)].join(''),
  githubOauth: ['gh', 'o_', body(36, 5)].join(''),
  githubFineGrained: ['github', '_pat_', body(22), '_', body(59, 11)].join(''),
  anthropic: ['sk-', 'ant-', 'api03-', body(93, 13), 'AA'].join(''),
  openaiProject: ['sk-', 'proj-', body(48, 17)].join(''),
  openaiLegacy: ['sk-', body(48, 19)].join(''),
  google: ['AI', 'za', body(35, 23)].join(''),
  aws: ['AK', 'IA', upper(16)].join(''),
  slack: ['xo', 'xb-', '2718281828-', body(24)].join(''),
  stripe: ['sk', '_live_', body(24, 29)].join(''),
  npm: ['np', 'm_', body(36, 31)].join(''),
  gitlab: ['gl', 'pat-', body(20, 37)].join(''),
  huggingFace: ['h', 'f_', body(34, 41)].join(''),
  jwt: [
    b64url('{"alg":"RS256","typ":"JWT"}'),
    b64url('{"sub":"repo:octo-org/demo","aud":"actions"}'),
    body(43, 43)
  ].join('.'),
  privateKey: [
    ['-----BEGIN ', 'RSA PRIVATE KEY-----'].join(''),
    body(64, 47),
    body(64, 53),
    ['-----END ', 'RSA PRIVATE KEY-----'].join('')
  ].join('\n')
}
