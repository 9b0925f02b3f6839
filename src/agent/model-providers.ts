import type { PresetName } from './types.js'

/** A file the agent's CLI reads from its HOME. */
export interface HomeFile {
  /** Relative to the agent's HOME. */
  path: string
  content: string
}

/** How an agent CLI reaches its model API, and what it may ask of it. */
export interface ModelProvider {
  /**
   * Parent variables that may hold the real key, in the order the CLI itself prefers them,
   * and the header each one travels upstream in (`authorization` takes a Bearer token).
   */
  credentials: ReadonlyArray<{ variable: string; header: string }>
  /** The credential a workflow passes as a repository secret: the one to name when none is set. */
  secret: string
  /**
   * Other ways the CLI logs in that the proxy does not carry: variables that switch it to
   * another provider's auth (Bedrock, Vertex), and the files its own login leaves in a HOME, in
   * the config folder a variable may move. An isolated agent has a HOME of its own, so the
   * files count only for an agent that runs as the user.
   */
  otherLogins: {
    variables: readonly string[]
    home: { variable?: string; folder: string; files: readonly string[] }
    /** Files directly in HOME. */
    homeFiles: readonly string[]
  }
  /** The parent variable that may move the model API, and where it is otherwise. */
  baseUrl: { variable: string; default: string }
  /** Parent variables that would make the CLI ignore what `agent` gives it. */
  conflicting: readonly string[]
  /** The request path below the base URL to forward, or undefined when it is not allowed. */
  route(method: string, path: string): string | undefined
  /** What points the CLI at the proxy: `variable` is the credential variable chosen. */
  agent(
    proxyUrl: string,
    placeholder: string,
    variable: string
  ): { env: Record<string, string>; files: HomeFile[] }
}

// Model names: letters, digits and `.-_`, so no `/`, `..` or escape reaches upstream. OpenAI's
// fine-tuned model ids also hold colons (`ft:gpt-4o:org::id`).
const ID = '[\\w.-]+'
const OPENAI_ID = '[\\w.:-]+'

// The calls the CLI makes to run a turn (generate, count tokens, list models) and nothing else:
// no files, batches, fine-tunes or deletions on the account behind the key.
const anthropic: ModelProvider = {
  // Claude Code's precedence: an auth token, then an API key, then a subscription token.
  credentials: [
    { variable: 'ANTHROPIC_AUTH_TOKEN', header: 'authorization' },
    { variable: 'ANTHROPIC_API_KEY', header: 'x-api-key' },
    { variable: 'CLAUDE_CODE_OAUTH_TOKEN', header: 'authorization' }
  ],
  secret: 'ANTHROPIC_API_KEY',
  otherLogins: {
    variables: ['CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX'],
    // `claude /login` keeps its token in .credentials.json, or in the macOS keychain, with the
    // account in ~/.claude.json.
    home: { variable: 'CLAUDE_CONFIG_DIR', folder: '.claude', files: ['.credentials.json'] },
    homeFiles: ['.claude.json']
  },
  baseUrl: { variable: 'ANTHROPIC_BASE_URL', default: 'https://api.anthropic.com' },
  conflicting: [],
  route: (method, path) =>
    allowed(method, path, [
      ['POST', '/v1/messages'],
      ['POST', '/v1/messages/count_tokens'],
      ['GET', '/v1/models'],
      ['GET', `/v1/models/${ID}`]
    ]),
  agent: (proxyUrl, placeholder, variable) => ({
    env: { ANTHROPIC_BASE_URL: proxyUrl, [variable]: placeholder },
    files: []
  })
}

const openai: ModelProvider = {
  // With only OPENAI_API_KEY set, Codex sends no key at all; the agent always gets CODEX_API_KEY.
  credentials: [
    { variable: 'CODEX_API_KEY', header: 'authorization' },
    { variable: 'OPENAI_API_KEY', header: 'authorization' }
  ],
  secret: 'CODEX_API_KEY',
  otherLogins: {
    variables: [],
    // `codex login`.
    home: { variable: 'CODEX_HOME', folder: '.codex', files: ['auth.json'] },
    homeFiles: []
  },
  baseUrl: { variable: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1' },
  // The config file below is read from $CODEX_HOME, ~/.codex only when it is unset.
  conflicting: ['CODEX_HOME'],
  // The agent's base URL is the proxy's `/v1`, which stands for the whole upstream base URL.
  route: (method, path) => {
    if (!path.startsWith('/v1/')) return undefined
    return allowed(method, path.slice('/v1'.length), [
      ['POST', '/responses'],
      // Codex's remote compaction of a long conversation.
      ['POST', '/responses/compact'],
      ['POST', '/chat/completions'],
      ['GET', '/models'],
      ['GET', `/models/${OPENAI_ID}`]
    ])
  },
  // Codex ignores OPENAI_BASE_URL; only its config file moves the endpoint.
  agent: (proxyUrl, placeholder) => ({
    env: { CODEX_API_KEY: placeholder },
    files: [
      {
        path: '.codex/config.toml',
        content: `openai_base_url = ${JSON.stringify(`${proxyUrl}/v1`)}\n`
      }
    ]
  })
}

const gemini: ModelProvider = {
  credentials: [
    { variable: 'GEMINI_API_KEY', header: 'x-goog-api-key' },
    { variable: 'GOOGLE_API_KEY', header: 'x-goog-api-key' }
  ],
  secret: 'GEMINI_API_KEY',
  otherLogins: {
    variables: [
      'GOOGLE_GENAI_USE_VERTEXAI',
      'GOOGLE_GENAI_USE_GCA',
      'GOOGLE_APPLICATION_CREDENTIALS'
    ],
    // Login with Google.
    home: { folder: '.gemini', files: ['oauth_creds.json'] },
    homeFiles: []
  },
  baseUrl: {
    variable: 'GOOGLE_GEMINI_BASE_URL',
    default: 'https://generativelanguage.googleapis.com'
  },
  conflicting: [],
  route: (method, path) =>
    allowed(method, path, [
      ['POST', `/(v1|v1beta)/models/${ID}:(generateContent|streamGenerateContent|countTokens)`],
      ['GET', '/(v1|v1beta)/models'],
      ['GET', `/(v1|v1beta)/models/${ID}`]
    ]),
  // A base URL alone switches gemini to `gateway` auth, which headless mode refuses (exit 41);
  // the settings file keeps it on the API key.
  agent: (proxyUrl, placeholder) => ({
    env: { GEMINI_API_KEY: placeholder, GOOGLE_GEMINI_BASE_URL: proxyUrl },
    files: [
      {
        path: '.gemini/settings.json',
        content: `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } })}\n`
      }
    ]
  })
}

/** The model API a preset's CLI talks to; none for `generic`, whose API is unknown. */
export function modelProvider(preset: PresetName): ModelProvider | undefined {
  switch (preset) {
    case 'claude':
      return anthropic
    case 'codex':
      return openai
    case 'gemini':
      return gemini
    case 'generic':
      return undefined
  }
}

/** `path` when some [method, path pattern] pair matches it whole. */
function allowed(
  method: string,
  path: string,
  calls: ReadonlyArray<[string, string]>
): string | undefined {
  return calls.some(([m, p]) => m === method && new RegExp(`^${p}$`).test(path)) ? path : undefined
}
