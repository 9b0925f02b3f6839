export const id = 726;
export const ids = [726];
export const modules = {

/***/ 5726:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  mainStep: () => (/* binding */ mainStep)
});

// EXTERNAL MODULE: ./node_modules/@actions/core/lib/core.js + 14 modules
var core = __webpack_require__(6421);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(9243);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./.build/pipeline/untrusted-text.js
var untrusted_text = __webpack_require__(3935);
;// CONCATENATED MODULE: ./.build/git/git-errors.js
// What a failed git command becomes: a GitError whose one line names the command and the last
// thing git said (credentials masked), or a DiskFullError when git could not write for want of
// space, which no retry mends.



/** git failed; carries the command (without the hardening prefix) and what git said. */
class GitError extends Error {
    args;
    code;
    stderr;
    constructor(args, code, stderr, message) {
        const said = lastLine(stderr);
        super(message ?? `${commandLine(args)} failed (exit ${code ?? 'signal'})${said ? `: ${said}` : ''}`);
        this.args = args;
        this.code = code;
        this.stderr = stderr;
        this.name = 'GitError';
    }
}
/** git could not write because the disk is full. */
class DiskFullError extends GitError {
    path;
    constructor(args, code, stderr, 
    /** The repository git ran in. */
    cwd, 
    /** What git could not write, when it said. */
    path) {
        const what = path ?? `in ${cwd} (${lastLine(stderr)})`;
        super(args, code, stderr, `the disk is full: ${commandLine(args)} could not write ${what}; free disk space on the runner`);
        this.path = path;
        this.name = 'DiskFullError';
    }
}
/** Below this much free space, a failed write is taken for a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;
const NO_SPACE = /No space left on device|\bENOSPC\b/;
/**
 * git does not always say why a write failed (a ref's lock file: "couldn't write '…'"); on a
 * disk with next to no room left, that is why.
 */
const WRITE_FAILED = /couldn't write|could not write|unable to write|failed to write|write error|Unable to create|unable to create|cannot create/;
/** The error for a git command that failed in `cwd`. */
function gitFailure(cwd, args, code, stderr) {
    const full = diskFull(stderr, () => freeBytes(cwd));
    if (!full)
        return new GitError(args, code, stderr);
    const named = full.path === undefined ? undefined : external_node_path_.resolve(cwd, full.path);
    return new DiskFullError(args, code, stderr, cwd, named);
}
/**
 * Whether `stderr` tells of a full disk, and the path git could not write when it names one.
 * `free` is asked only when git's words leave it open.
 */
function diskFull(stderr, free) {
    const lines = stderr.split(/\r?\n|\r/).filter((l) => l.trim());
    const line = lines.find((l) => NO_SPACE.test(l)) ??
        (lines.some((l) => WRITE_FAILED.test(l)) && (free() ?? Infinity) < NEARLY_FULL_BYTES
            ? lines.find((l) => WRITE_FAILED.test(l))
            : undefined);
    if (line === undefined)
        return undefined;
    const named = pathIn(line);
    return named === undefined ? {} : { path: named };
}
/** The last path-like word of a git message (`'/r/.git/index.lock'`, `.git/config.lock`). */
function pathIn(line) {
    const words = line.match(/'[^']+'|[^\s']+/g) ?? [];
    const paths = words
        .map((w) => w.replace(/^'|'$/g, '').replace(/[:.,]+$/, ''))
        .filter((w) => w.includes('/') && !w.startsWith('refs/') && !/^[a-z]+:\/\//.test(w));
    return paths.at(-1);
}
function freeBytes(dir) {
    try {
        const s = (0,external_node_fs_.statfsSync)(dir);
        // root may fill the blocks reserved for it; anyone else stops short of them.
        return s.bsize * (process.getuid?.() === 0 ? s.bfree : s.bavail);
    }
    catch {
        return undefined;
    }
}
/** `git <subcommand> <args>`, one line, without the `-c` settings we put first, credentials masked. */
function commandLine(args) {
    let at = 0;
    while (args[at] === '-c' && at + 1 < args.length)
        at += 2;
    return (0,untrusted_text/* clip */.$Q)(`git ${args.slice(at).map(mask).join(' ')}`.replace(/\s+/g, ' '), 160);
}
/** The last thing git said, on one line, credentials masked. */
function lastLine(stderr) {
    const lines = stderr.split(/\r?\n|\r/).map((l) => l.trim());
    return (0,untrusted_text/* clip */.$Q)(mask(lines.filter(Boolean).at(-1) ?? '').replace(/\s+/g, ' '), 300);
}
/** Hides credentials git may echo: a URL's user and password, an auth header, a GitHub token. */
function mask(text) {
    return text
        .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@')
        .replace(/(authorization:\s*(?:basic|bearer|token)\s+)[^\s'"]+/gi, '$1***')
        .replace(/\b(?:gh[opsur]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})/g, '***');
}

;// CONCATENATED MODULE: ./.build/tracker/github-fetch.js
// The fetch every GitHub API request goes through: it gives up on a request GitHub does not
// answer in time (one hung request once held a stage for 309 s), and it turns a request that got
// no HTTP answer into a NoAnswer that says whether the request may have reached GitHub.
/** The request got no HTTP answer: it timed out, or the connection failed. */
class NoAnswer extends Error {
    sent;
    constructor(message, 
    /** False only when the connection was never made, so GitHub cannot have acted on it. */
    sent) {
        super(message);
        this.sent = sent;
        this.name = 'NoAnswer';
    }
}
/** Failures of the connection itself: the request never left this machine. */
const NOT_SENT = new Set([
    'ECONNREFUSED',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENETDOWN',
    'UND_ERR_CONNECT_TIMEOUT'
]);
/** Null-body statuses: a Response made with a body for one of these throws. */
const NO_BODY = new Set([101, 204, 205, 304]);
function timedFetch(base, timeoutMs) {
    return async (input, init) => {
        const timer = new AbortController();
        const timeout = setTimeout(() => timer.abort(), timeoutMs);
        const signal = init?.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal;
        try {
            const res = await base(input, { ...init, signal });
            // The body is read here, under the same timeout: Octokit reads it later and takes a body
            // that broke off halfway for an empty one.
            const body = NO_BODY.has(res.status) ? null : await res.arrayBuffer();
            const copy = new Response(body, {
                status: res.status,
                statusText: res.statusText,
                headers: res.headers
            });
            Object.defineProperty(copy, 'url', { value: res.url });
            return copy;
        }
        catch (e) {
            if (timer.signal.aborted) {
                throw new NoAnswer(`no answer within ${formatSeconds(timeoutMs)}`, true);
            }
            if (init?.signal?.aborted)
                throw e;
            const code = errorCode(e);
            throw new NoAnswer(describe(code, e), code === undefined || !NOT_SENT.has(code));
        }
        finally {
            clearTimeout(timeout);
        }
    };
}
function formatSeconds(ms) {
    return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
/** The system or undici error code of a failed fetch, found under its `cause`s. */
function errorCode(e) {
    for (let at = e, depth = 0; at && depth < 4; depth++) {
        const code = at.code;
        if (typeof code === 'string')
            return code;
        at = at.cause;
    }
    return undefined;
}
function describe(code, e) {
    switch (code) {
        case 'ECONNRESET':
            return 'the connection was reset (ECONNRESET)';
        case 'UND_ERR_SOCKET':
            return 'the connection closed before GitHub answered';
        case 'ECONNREFUSED':
            return 'the connection was refused (ECONNREFUSED)';
        case 'ENOTFOUND':
        case 'EAI_AGAIN':
            return `the host name did not resolve (${code})`;
        // No code, or one with no words of its own: what the error says.
        case undefined:
        default: {
            const cause = e.cause?.message;
            const message = typeof cause === 'string' ? cause : e.message;
            return `the request failed: ${message}${code ? ` (${code})` : ''}`;
        }
    }
}

;// CONCATENATED MODULE: ./.build/tracker/github-errors.js
// What a failed GitHub API call was, and the one-line error it becomes. A wrong token or a
// missing workflow permission is the user's to fix (UserError); GitHub being down, GitHub's rate
// limits outlasting the retries, and a write whose answer was lost each have their own class, so
// callers can tell them apart (`faultKind`); anything else is a plain GitHubApiError.



/** A GitHub API call failed for a reason the user did not cause. */
class GitHubApiError extends Error {
    status;
    kind = 'api';
    constructor(message, 
    /** The HTTP status GitHub answered; 0 when no answer came. */
    status) {
        super(message);
        this.status = status;
        this.name = 'GitHubApiError';
    }
}
/**
 * GitHub did not serve the request: 5xx answers, timeouts or failed connections, for as long as
 * the retries lasted. Nothing was done; trying later is the remedy.
 */
class GitHubUnavailableError extends GitHubApiError {
    kind = 'unavailable';
    constructor(message, status) {
        super(message, status);
        this.name = 'GitHubUnavailableError';
    }
}
/**
 * A write (POST) whose answer was lost: it timed out or its connection broke after it was sent,
 * or GitHub answered 5xx, which it has been seen to do after applying the write. It may have
 * been done; sending it again blindly could do it twice (two comments, two dispatches), so the
 * caller checks first.
 */
class GitHubAnswerLostError extends GitHubUnavailableError {
    kind = 'answer-lost';
    constructor(message, status) {
        super(message, status);
        this.name = 'GitHubAnswerLostError';
    }
}
/** GitHub's rate limits outlasted the retries, or asked for a longer wait than allowed. */
class GitHubRateLimitedError extends GitHubApiError {
    retryAfterSeconds;
    kind = 'rate-limited';
    constructor(message, status, 
    /** How long GitHub asked to wait, when it said. */
    retryAfterSeconds) {
        super(message, status);
        this.retryAfterSeconds = retryAfterSeconds;
        this.name = 'GitHubRateLimitedError';
    }
}
function isHttpFailure(e) {
    return e instanceof Error && typeof e.status === 'number';
}
const SECONDARY_LIMIT = /secondary rate limit|abuse detection mechanism/i;
function classifyFailure(e) {
    const noAnswer = e instanceof NoAnswer ? e : e.cause instanceof NoAnswer ? e.cause : undefined;
    if (noAnswer)
        return { kind: 'no-answer', sent: noAnswer.sent, why: noAnswer.message };
    const headers = e.response?.headers ?? {};
    const header = (name) => {
        const value = headers[name];
        const n = typeof value === 'number' ? value : Number(value);
        return value === undefined || value === '' || !Number.isFinite(n) ? undefined : n;
    };
    const retryAfter = header('retry-after');
    if (e.status === 403 || e.status === 429) {
        // The legacy "abuse detection" 403 is a secondary limit under its old name.
        if (SECONDARY_LIMIT.test(apiMessage(e))) {
            return { kind: 'rate-limit', what: 'secondary rate limit', retryAfter };
        }
        if (header('x-ratelimit-remaining') === 0) {
            const reset = header('x-ratelimit-reset');
            // GitHub's advice: retry only after the reset time, so one second past it.
            const wait = reset === undefined ? undefined : Math.max(reset - Date.now() / 1000, 0) + 1;
            return { kind: 'rate-limit', what: 'rate limit', retryAfter: wait && Math.ceil(wait) };
        }
        if (e.status === 429)
            return { kind: 'rate-limit', what: 'too many requests', retryAfter };
    }
    if (e.status >= 500 && e.status <= 599)
        return { kind: 'server', retryAfter };
    return { kind: 'answered' };
}
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE']);
/**
 * Whether sending the request twice does no more than sending it once: every method but POST,
 * and a POST the caller marked `request: { idempotent: true }`.
 */
function isRepeatable(e) {
    const method = (e.request?.method ?? 'GET').toUpperCase();
    return IDEMPOTENT.has(method) || e.request?.request?.idempotent === true;
}
const attempts = new WeakMap();
/** Records how many times the request was sent before it failed for good. */
function noteAttempts(e, n) {
    if (typeof e === 'object' && e !== null)
        attempts.set(e, n);
}
/** GitHub's own message (without the documentation link Octokit appends), on one line. */
function apiMessage(e) {
    const data = e.response?.data;
    if (typeof data === 'string' && data.trim())
        return shortLine(data.replace(/<[^>]*>/g, ' '));
    const body = typeof data === 'object' ? data : undefined;
    const base = typeof body?.message === 'string' ? body.message : e.message;
    const details = (body?.errors ?? [])
        .map((x) => typeof x === 'string'
        ? x
        : (x.message ?? x.code))
        .filter((x) => typeof x === 'string');
    return shortLine([base, ...details].join(': '));
}
/** One line, short enough to read: an HTML error page must not become the message. */
function shortLine(text) {
    return (0,untrusted_text/* clip */.$Q)(text.replace(/\s+/g, ' ').trim(), 300);
}
/**
 * The error a failed call becomes, in one line.
 * @param doing what was being done, e.g. `create a pull request for itervox/42`
 * @param permission the job permission that allows it, e.g. `pull-requests: write`
 */
function explainFailure(e, doing, permission) {
    if (e instanceof GitHubApiError || e instanceof errors/* UserError */.yo)
        return e;
    if (!isHttpFailure(e))
        return e instanceof Error ? e : new Error(String(e));
    const failure = classifyFailure(e);
    const tries = attempts.get(e) ?? 1;
    const gaveUp = tries > 1 ? ` (gave up after ${tries} attempts)` : '';
    const answer = failure.kind === 'no-answer' ? failure.why : `${e.status} ${apiMessage(e)}`;
    const status = failure.kind === 'no-answer' ? 0 : e.status;
    if (failure.kind === 'rate-limit') {
        const asked = failure.retryAfter === undefined ? '' : `; it asks to wait ${failure.retryAfter} s`;
        return new GitHubRateLimitedError(`GitHub is rate limiting this token: ${doing}: ${answer}${asked}${gaveUp}`, status, failure.retryAfter);
    }
    if (failure.kind === 'server' || failure.kind === 'no-answer') {
        if (!isRepeatable(e) && (failure.kind === 'server' || failure.sent)) {
            const why = failure.kind === 'server' ? 'GitHub can answer so after doing it' : 'the answer was lost';
            return new GitHubAnswerLostError(`GitHub is unavailable: ${doing}: ${answer}; ${why}, so it may have been done`, status);
        }
        return new GitHubUnavailableError(`GitHub is unavailable: ${doing}: ${answer}${gaveUp}`, status);
    }
    const message = apiMessage(e);
    if (e.status === 401) {
        return new errors/* UserError */.yo(`GitHub rejected the token (401 ${message}) when trying to ${doing}; check the github-token input`);
    }
    if (e.status === 403 && /resource not accessible by/i.test(message)) {
        return new errors/* UserError */.yo(`the token may not ${doing} (403 ${message}); give the job \`permissions: ${permission}\``);
    }
    if (e.status === 403 && /not permitted to create or approve pull requests/i.test(message)) {
        return new errors/* UserError */.yo(`GitHub Actions may not ${doing} (403 ${message}); enable "Allow GitHub Actions to create and ` +
            'approve pull requests" in the repository or organization settings, or use an App token');
    }
    return new GitHubApiError(`GitHub API failed to ${doing}: ${answer}`, status);
}
/** What kind of failure `err` is, for callers that act on it (retry later, check, report). */
function faultKind(err) {
    if (err instanceof GitHubApiError)
        return err.kind;
    if (err instanceof errors/* UserError */.yo)
        return 'user';
    if (isHttpFailure(err))
        return faultKind(explainFailure(err, 'call GitHub', 'none'));
    return 'internal';
}

;// CONCATENATED MODULE: ./.build/action/failure-line.js



/**
 * The one line a failed job ends with. A user's mistake says what to change; GitHub being
 * down, rate limits, a full disk or a failing git each say what they are; only a fault of
 * ours is an "internal error", with its stack in the debug log.
 */
function failureLine(err) {
    if (err instanceof errors/* UserError */.yo)
        return { line: err.format(), ours: false };
    // GitError's message names the command and git's last words (DiskFullError: the path).
    if (err instanceof GitError)
        return { line: err.message, ours: false };
    const kind = faultKind(err);
    if (kind !== 'internal' && kind !== 'user') {
        return { line: err.message, ours: false };
    }
    return { line: `internal error: ${err?.message ?? String(err)}`, ours: true };
}

;// CONCATENATED MODULE: ./.build/agent/model-providers.js
// Model names: letters, digits and `.-_`, so no `/`, `..` or escape reaches upstream. OpenAI's
// fine-tuned model ids also hold colons (`ft:gpt-4o:org::id`).
const ID = '[\\w.-]+';
const OPENAI_ID = '[\\w.:-]+';
// The calls the CLI makes to run a turn (generate, count tokens, list models) and nothing else:
// no files, batches, fine-tunes or deletions on the account behind the key.
const anthropic = {
    // Claude Code's precedence: an auth token, then an API key, then a subscription token.
    credentials: [
        { variable: 'ANTHROPIC_AUTH_TOKEN', header: 'authorization' },
        { variable: 'ANTHROPIC_API_KEY', header: 'x-api-key' },
        { variable: 'CLAUDE_CODE_OAUTH_TOKEN', header: 'authorization' }
    ],
    baseUrl: { variable: 'ANTHROPIC_BASE_URL', default: 'https://api.anthropic.com' },
    conflicting: [],
    route: (method, path) => allowed(method, path, [
        ['POST', '/v1/messages'],
        ['POST', '/v1/messages/count_tokens'],
        ['GET', '/v1/models'],
        ['GET', `/v1/models/${ID}`]
    ]),
    agent: (proxyUrl, placeholder, variable) => ({
        env: { ANTHROPIC_BASE_URL: proxyUrl, [variable]: placeholder },
        files: []
    })
};
const openai = {
    // With only OPENAI_API_KEY set, Codex sends no key at all; the agent always gets CODEX_API_KEY.
    credentials: [
        { variable: 'CODEX_API_KEY', header: 'authorization' },
        { variable: 'OPENAI_API_KEY', header: 'authorization' }
    ],
    baseUrl: { variable: 'OPENAI_BASE_URL', default: 'https://api.openai.com/v1' },
    // The config file below is read from $CODEX_HOME, ~/.codex only when it is unset.
    conflicting: ['CODEX_HOME'],
    // The agent's base URL is the proxy's `/v1`, which stands for the whole upstream base URL.
    route: (method, path) => {
        if (!path.startsWith('/v1/'))
            return undefined;
        return allowed(method, path.slice('/v1'.length), [
            ['POST', '/responses'],
            // Codex's remote compaction of a long conversation.
            ['POST', '/responses/compact'],
            ['POST', '/chat/completions'],
            ['GET', '/models'],
            ['GET', `/models/${OPENAI_ID}`]
        ]);
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
};
const gemini = {
    credentials: [
        { variable: 'GEMINI_API_KEY', header: 'x-goog-api-key' },
        { variable: 'GOOGLE_API_KEY', header: 'x-goog-api-key' }
    ],
    baseUrl: {
        variable: 'GOOGLE_GEMINI_BASE_URL',
        default: 'https://generativelanguage.googleapis.com'
    },
    conflicting: [],
    route: (method, path) => allowed(method, path, [
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
};
/** The model API a preset's CLI talks to; none for `generic`, whose API is unknown. */
function modelProvider(preset) {
    switch (preset) {
        case 'claude':
            return anthropic;
        case 'codex':
            return openai;
        case 'gemini':
            return gemini;
        case 'generic':
            return undefined;
    }
}
/** `path` when some [method, path pattern] pair matches it whole. */
function allowed(method, path, calls) {
    return calls.some(([m, p]) => m === method && new RegExp(`^${p}$`).test(path)) ? path : undefined;
}

;// CONCATENATED MODULE: ./.build/secrets/known-secrets.js

const PRESETS = ['claude', 'codex', 'gemini', 'generic'];
// The runner's tokens, whatever the workflow calls its own variables.
const RUNNER_SECRETS = [
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'GH_ENTERPRISE_TOKEN',
    'GITHUB_ENTERPRISE_TOKEN',
    'INPUT_GITHUB-TOKEN',
    'ACTIONS_RUNTIME_TOKEN',
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN'
];
// Any other variable a workflow names like a credential (NPM_TOKEN, AWS_SECRET_ACCESS_KEY, ...).
const SECRET_NAME = /(?:^|[_-])(?:TOKEN|SECRET|PASSWORD|PASSWD|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIALS?|AUTH)(?:[_-]|$)/i;
/**
 * Shorter values are words, numbers or flags (`true`, `1`, `prod`) that occur everywhere;
 * no credential is this short.
 */
const MIN_LENGTH = 8;
/** Every model key variable a preset's CLI reads. */
function modelKeyNames() {
    return PRESETS.flatMap((p) => modelProvider(p)?.credentials.map((c) => c.variable) ?? []);
}
/**
 * The secrets of `env` the action knows of: the runner's tokens, every preset's model keys,
 * whatever `names` lists (the variables the profiles' `env` passes to agents) and any variable
 * named like a credential; then `extra` (the `github-token` input). One entry per value.
 */
function knownSecrets(env, names, extra = []) {
    const wanted = new Set([...RUNNER_SECRETS, ...modelKeyNames(), ...names]);
    const found = [...extra];
    for (const name of wanted) {
        const value = env[name];
        if (value !== undefined)
            found.push({ name, value });
    }
    for (const [name, value] of Object.entries(env)) {
        if (value !== undefined && !wanted.has(name) && SECRET_NAME.test(name)) {
            found.push({ name, value });
        }
    }
    const seen = new Set();
    const out = [];
    for (const s of found) {
        // A value read from a file often ends in a newline that never travels with it.
        const value = s.value.trim();
        if (value.length < MIN_LENGTH || seen.has(value))
            continue;
        seen.add(value);
        out.push({ name: s.name, value });
    }
    return out;
}

// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __webpack_require__(4573);
;// CONCATENATED MODULE: ./.build/secrets/encodings.js

/**
 * The value as it is and in the encodings a leak most often takes: base64 (both alphabets,
 * at each of the three byte alignments, so the value is found inside a longer encoded text
 * such as an `Authorization: Basic` header), URL-encoding, hex and reversed. A determined
 * agent can always encode differently; this catches accidents and the obvious disguises.
 */
function encodedForms(value) {
    const bytes = external_node_buffer_.Buffer.from(value, 'utf8');
    const forms = [{ form: '', needle: value }];
    for (let k = 0; k < 3; k++) {
        const encoded = external_node_buffer_.Buffer.concat([external_node_buffer_.Buffer.alloc(k), bytes]).toString('base64');
        // Only the characters made of the value's own bits, whatever comes before or after it.
        const core = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
        forms.push({ form: 'base64', needle: core });
        forms.push({ form: 'base64', needle: core.replace(/\+/g, '-').replace(/\//g, '_') });
    }
    const url = encodeURIComponent(value);
    forms.push({ form: 'URL-encoded', needle: url });
    forms.push({ form: 'URL-encoded', needle: url.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()) });
    forms.push({ form: 'hex', needle: bytes.toString('hex'), anyCase: true });
    forms.push({ form: 'reversed', needle: [...value].reverse().join('') });
    const seen = new Set();
    return forms.filter((f) => {
        const key = f.anyCase ? f.needle.toLowerCase() : f.needle;
        if (seen.has(key) || f.needle.length === 0)
            return false;
        seen.add(key);
        return true;
    });
}

;// CONCATENATED MODULE: ./.build/secrets/key-shapes.js
/** Random keys mix cases and digits; a slug such as `sk-my-long-branch-name` does not. */
const mixed = (s) => /\d/.test(s) && /[a-z]/.test(s) && /[A-Z]/.test(s);
// The examples in AWS's own documentation, quoted by many READMEs: not anyone's key.
const AWS_EXAMPLES = new Set(['AKIAIOSFODNN7EXAMPLE']);
// Published formats; the prefix carries the kind, and lengths are the issuers' minimums, so
// commit hashes, UUIDs and base64 images (no prefix, or no word boundary before one) pass.
const KEY_SHAPES = [
    {
        kind: 'a private key',
        pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g
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
];

;// CONCATENATED MODULE: ./.build/secrets/scanner.js


/**
 * What stands in for a secret. Deliverables open with YAML front matter the pipeline reads
 * requests from, so the marker is YAML-safe wherever the secret stood in a scalar (plain,
 * quoted, block, flow): it starts with no indicator and holds no `: `, ` #`, `,`, bracket,
 * brace, quote or backslash (a variable's name in WORKFLOW.md could hold any of them).
 */
function marker(what) {
    return `(redacted ${what.replace(/[^A-Za-z0-9_. -]/g, '_')})`;
}
const scanner_escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** One regular expression for many literal needles, the longest tried first. */
function alternation(needles, flags) {
    if (needles.length === 0)
        return null;
    const sorted = [...new Set(needles)].sort((a, b) => b.length - a.length);
    return new RegExp(sorted.map(scanner_escape).join('|'), flags);
}
/**
 * Finds the secrets the job knows (their values, and those values base64-, URL- or
 * hex-encoded or reversed) and credentials recognised by their shape (GitHub, Anthropic,
 * OpenAI, Google, AWS, Slack, ... keys, private key blocks) in text that is about to leave the
 * runner: a commit, a comment, the job summary, the log.
 */
class SecretScanner {
    known;
    knownAnyCase;
    /** Needle (lower case for the any-case ones) to what it is. */
    found = new Map();
    needles = [];
    constructor(secrets) {
        const exact = [];
        const anyCase = [];
        for (const s of secrets) {
            for (const f of encodedForms(s.value)) {
                const key = f.anyCase ? f.needle.toLowerCase() : f.needle;
                if (this.found.has(key))
                    continue;
                this.found.set(key, {
                    kind: `the value of ${s.name}${f.form ? ` (${f.form})` : ''}`,
                    label: marker(`${s.name}${f.form ? ` ${f.form}` : ''}`)
                });
                (f.anyCase ? anyCase : exact).push(f.needle);
                this.needles.push(f.needle);
            }
        }
        this.known = alternation(exact, 'g');
        this.knownAnyCase = alternation(anyCase, 'gi');
    }
    /** Every form of every known value: what a log masker should hide. */
    masks() {
        return [...this.needles];
    }
    /** What `text` holds, in words; empty when nothing. */
    find(text) {
        return this.hits(text).kinds;
    }
    redact(text) {
        const { hits, kinds } = this.hits(text);
        if (hits.length === 0)
            return { text, kinds };
        let out = '';
        let at = 0;
        for (const h of hits) {
            out += text.slice(at, h.start) + h.label;
            at = h.end;
        }
        return { text: out + text.slice(at), kinds };
    }
    /**
     * For text that arrives a line at a time (an agent's output): each line redacted, and every
     * line of a private key block, which no single line shows whole.
     */
    lines() {
        let inKey = false;
        return (line) => {
            if (inKey) {
                if (/-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(line))
                    inKey = false;
                return marker('private key');
            }
            if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(line)) {
                inKey = !/-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----/.test(line);
            }
            return this.redact(line).text;
        };
    }
    /** Every string inside `value` (an object read back as JSON, say) redacted. */
    redactDeep(value) {
        const kinds = [];
        const walk = (v) => {
            if (typeof v === 'string') {
                const r = this.redact(v);
                kinds.push(...r.kinds);
                return r.text;
            }
            if (Array.isArray(v))
                return v.map(walk);
            if (v && typeof v === 'object') {
                return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
            }
            return v;
        };
        return { value: walk(value), kinds: unique(kinds) };
    }
    /** Every hit, in order, overlapping ones merged into one; and the kinds of them all. */
    hits(text) {
        const hits = [];
        for (const re of [this.known, this.knownAnyCase]) {
            if (!re)
                continue;
            for (const m of text.matchAll(re)) {
                const what = this.found.get(re === this.known ? m[0] : m[0].toLowerCase());
                hits.push({ start: m.index, end: m.index + m[0].length, ...what });
            }
        }
        for (const shape of KEY_SHAPES) {
            for (const m of text.matchAll(shape.pattern)) {
                if (shape.accept && !shape.accept(m[0]))
                    continue;
                const label = marker(shape.kind.replace(/^an? /, ''));
                hits.push({ start: m.index, end: m.index + m[0].length, kind: shape.kind, label });
            }
        }
        hits.sort((a, b) => a.start - b.start || b.end - a.end);
        const merged = [];
        for (const h of hits) {
            const last = merged[merged.length - 1];
            if (last && h.start < last.end)
                last.end = Math.max(last.end, h.end);
            else
                merged.push({ ...h });
        }
        return { hits: merged, kinds: unique(hits.map((h) => h.kind)) };
    }
}
function unique(items) {
    return [...new Set(items)];
}
/**
 * `text` with its secrets redacted; a finding is told to `note` in one line naming `where`
 * and the kinds found, never the value.
 */
function redactNoting(secrets, where, text, note) {
    const r = secrets.redact(text);
    if (r.kinds.length > 0)
        note(`${where}: ${inWords(r.kinds)} redacted`);
    return r.text;
}
/** `a GitHub token and the value of ANTHROPIC_API_KEY`, for one line of a report. */
function inWords(kinds) {
    if (kinds.length <= 1)
        return kinds[0] ?? 'nothing';
    return `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1]}`;
}

;// CONCATENATED MODULE: ./.build/secrets/job-secrets.js


/** Every variable any profile's `env` hands its agent: whatever it holds is a secret. */
function secretNamesOf(config) {
    return [...new Set(Object.values(config.agent.profiles).flatMap((p) => p.env))];
}
/** The scanner for one job: the secrets of `env` (see knownSecrets), `names`, and `extra`. */
function jobSecrets(names, env, extra = []) {
    return new SecretScanner(knownSecrets(env, names, extra));
}

;// CONCATENATED MODULE: ./.build/action/masked-secrets.js


/**
 * The job's secrets (the runner's environment, the variables `names` lists (the profiles' `env`),
 * the token input), each form of each registered with the runner, which masks them wherever
 * they would be printed from now on. The scanner also catches what the runner cannot: keys
 * recognised by their shape.
 */
function maskedSecrets(names, token) {
    const secrets = jobSecrets(names, process.env, token ? [{ name: 'github-token', value: token }] : []);
    for (const value of secrets.masks())
        core/* setSecret */.Pq(value);
    return secrets;
}

// EXTERNAL MODULE: external "node:child_process"
var external_node_child_process_ = __webpack_require__(1421);
;// CONCATENATED MODULE: ./.build/isolation/privilege.js



// System programs are taken from these directories only, never from PATH: `~/.local/bin`
// comes first on hosted runners' PATH.
const SYSTEM_DIRS = ['/usr/sbin', '/usr/bin', '/sbin', '/bin'];
/** The absolute path of a system program, or undefined when none is installed. */
function systemProgram(name) {
    for (const dir of SYSTEM_DIRS) {
        const candidate = external_node_path_.join(dir, name);
        try {
            (0,external_node_fs_.accessSync)(candidate, external_node_fs_.constants.X_OK);
            return candidate;
        }
        catch {
            // not here
        }
    }
    return undefined;
}
/** Root, passwordless sudo, or null when neither is available. */
function findPrivilege() {
    if (process.getuid?.() === 0)
        return { kind: 'root' };
    const sudo = systemProgram('sudo');
    if (!sudo)
        return null;
    const probe = (0,external_node_child_process_.spawnSync)(sudo, ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 });
    return probe.status === 0 ? { kind: 'sudo', sudo } : null;
}
/** The command line that runs `argv` as root. */
function asRoot(p, argv) {
    return p.kind === 'root' ? argv : [p.sudo, '-n', '--', ...argv];
}
/**
 * The whole environment of what the action runs as root or as the agent user: nothing of the
 * action's own (its tokens, the model key) is ever in it.
 */
function systemEnv() {
    return { PATH: SYSTEM_DIRS.join(':'), LC_ALL: 'C' };
}
/** Runs a system command (no shell) and collects its output; never rejects. */
function run(argv, o = {}) {
    return new Promise((resolve) => {
        const [file = '', ...args] = argv;
        const child = (0,external_node_child_process_.execFile)(file, args, { encoding: 'utf8', env: o.env ?? systemEnv() }, (err, stdout, stderr) => {
            const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
            resolve({ code, stdout, stderr: stderr || (err && !stderr ? err.message : '') });
        });
        child.stdin?.on('error', () => { });
        child.stdin?.end(o.input);
    });
}
/** Runs `argv` as root; a failure becomes an Error whose message is git-free and one line. */
async function runAsRoot(p, argv, what) {
    const r = await run(asRoot(p, argv));
    if (r.code !== 0) {
        const detail = r.stderr.trim().split('\n').pop() ?? `exit code ${r.code}`;
        throw new Error(`could not ${what}: ${detail}`);
    }
    return r.stdout;
}

;// CONCATENATED MODULE: ./.build/isolation/agent-user.js



const DEFAULT_AGENT_USER = 'itervox-agent';
// Membership in any of these would give the agent back what isolation takes away.
const PRIVILEGED_GROUPS = new Set([
    'root',
    'sudo',
    'admin',
    'wheel',
    'docker',
    'adm',
    'lxd',
    'disk'
]);
const NAME = /^[a-z_][a-z0-9_-]{0,31}$/;
/**
 * The agent user, created the first time (`useradd --system`, its own group, a home, no
 * login shell) and checked every time: never root, never the runner's own user, in no
 * group that grants power (sudo, docker, adm...) and sharing no group with the runner, so
 * that the runner's files are "other" to it.
 */
async function ensureAgentUser(name, p) {
    if (!NAME.test(name)) {
        throw new errors/* UserError */.yo(`agent-user "${name}" is not a valid user name; use lower-case letters, digits, - and _`);
    }
    let user = lookUser(name);
    if (!user) {
        const useradd = systemProgram('useradd');
        if (!useradd) {
            throw new errors/* UserError */.yo('isolation: user needs useradd to create the agent user and this runner has none; install it (passwd package) or set isolation: none');
        }
        await runAsRoot(p, [useradd, '--system', '--user-group', '--create-home', '--shell', '/usr/sbin/nologin', name], `create the agent user ${name}`);
        user = lookUser(name);
        if (!user)
            throw new Error(`the agent user ${name} was created but cannot be found`);
    }
    const problem = privilegeOf(user);
    if (problem) {
        throw new errors/* UserError */.yo(`agent-user ${name} ${problem}; give the action an unprivileged user of its own (agent-user input) or remove it so the action creates one`);
    }
    return user;
}
function privilegeOf(user) {
    if (user.uid === 0 || user.gid === 0)
        return 'is root';
    if (user.uid === process.getuid?.())
        return "is the runner's own user";
    const groups = groupsOf(user);
    const strong = groups.find((g) => PRIVILEGED_GROUPS.has(g.name));
    if (strong)
        return `is in the ${strong.name} group`;
    const ours = new Set([process.getgid?.(), ...(process.getgroups?.() ?? [])]);
    const shared = groups.find((g) => ours.has(g.gid));
    if (shared)
        return `shares the group ${shared.name} with the runner's user`;
    return null;
}
function lookUser(name) {
    for (const line of readLines('/etc/passwd')) {
        const [n, , uid, gid, , home] = line.split(':');
        if (n === name && uid && gid && home)
            return { name, uid: +uid, gid: +gid, home };
    }
    return null;
}
function groupsOf(user) {
    const found = [];
    for (const line of readLines('/etc/group')) {
        const [n = '', , gid = '', members = ''] = line.split(':');
        if (+gid === user.gid || members.split(',').includes(user.name))
            found.push({ name: n, gid: +gid });
    }
    return found;
}
function readLines(file) {
    try {
        return (0,external_node_fs_.readFileSync)(file, 'utf8').split('\n');
    }
    catch {
        return [];
    }
}

;// CONCATENATED MODULE: ./.build/action/inputs.js



function readSettings(env = process.env) {
    const token = core/* getInput */.V4('github-token');
    if (!token) {
        throw new errors/* UserError */.yo('input github-token is empty; leave it unset to use ${{ github.token }}');
    }
    // Masks the token and the form git sends it in, wherever either would be printed.
    core/* setSecret */.Pq(token);
    core/* setSecret */.Pq(Buffer.from(`x-access-token:${token}`).toString('base64'));
    const chain = core/* getInput */.V4('chain') || 'dispatch';
    if (chain !== 'dispatch' && chain !== 'label' && chain !== 'none') {
        throw new errors/* UserError */.yo(`input chain is "${chain}"; use dispatch, label or none`);
    }
    const dryRun = booleanInput('dry-run');
    const showAgentOutput = booleanInput('show-agent-output');
    const isolation = core/* getInput */.V4('isolation') || 'user';
    if (isolation !== 'user' && isolation !== 'none') {
        throw new errors/* UserError */.yo(`input isolation is "${isolation}"; use user or none`);
    }
    const repository = required(env, 'GITHUB_REPOSITORY');
    const [owner, repo, ...rest] = repository.split('/');
    if (!owner || !repo || rest.length > 0) {
        throw new errors/* UserError */.yo(`GITHUB_REPOSITORY is "${repository}"; expected owner/name`);
    }
    const serverUrl = env.GITHUB_SERVER_URL || 'https://github.com';
    const runId = env.GITHUB_RUN_ID || '0';
    return {
        token,
        workflowFile: core/* getInput */.V4('workflow-file') || 'WORKFLOW.md',
        issue: core/* getInput */.V4('issue') || undefined,
        state: core/* getInput */.V4('state') || undefined,
        chain,
        dryRun,
        showAgentOutput,
        isolation,
        agentUser: core/* getInput */.V4('agent-user') || DEFAULT_AGENT_USER,
        repository: { owner, repo },
        eventName: required(env, 'GITHUB_EVENT_NAME'),
        eventPath: required(env, 'GITHUB_EVENT_PATH'),
        workspace: env.GITHUB_WORKSPACE || process.cwd(),
        apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
        serverUrl,
        runId,
        runAttempt: env.GITHUB_RUN_ATTEMPT || '1',
        runUrl: `${serverUrl}/${owner}/${repo}/actions/runs/${runId}`,
        runnerTemp: env.RUNNER_TEMP || env.TMPDIR || '/tmp',
        actor: env.GITHUB_ACTOR || ''
    };
}
function booleanInput(name) {
    const text = (core/* getInput */.V4(name) || 'false').toLowerCase();
    if (text !== 'true' && text !== 'false') {
        throw new errors/* UserError */.yo(`input ${name} is "${text}"; use true or false`);
    }
    return text === 'true';
}
function required(env, name) {
    const v = env[name];
    if (!v)
        throw new errors/* UserError */.yo(`${name} is not set; run this action inside a GitHub Actions job`);
    return v;
}

;// CONCATENATED MODULE: ./.build/pipeline/agent-figures.js
/**
 * What an agent's CLI reported in its last event, in words, the same for every CLI: turns and
 * a cost only where the CLI gives them (Claude Code), tokens for all. Empty when it gave none.
 */
function agentFigures(s) {
    if (!s)
        return '';
    return [
        s.turns !== undefined ? `${s.turns} turns` : '',
        s.inputTokens !== undefined ? `${s.inputTokens} input tokens` : '',
        s.outputTokens !== undefined ? `${s.outputTokens} output tokens` : '',
        s.costUsd !== undefined ? `$${s.costUsd.toFixed(4)}` : ''
    ]
        .filter(Boolean)
        .join(', ');
}

;// CONCATENATED MODULE: ./.build/pipeline/duration.js
/**
 * A duration for people: `45s`, `3m 7s`, `2h 5m`; '' for anything that is not one (a record's
 * figure may have been edited). With `tenths`, under a minute reads `4.2s`, so a live clock
 * visibly moves.
 */
function formatDuration(ms, o = {}) {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0)
        return '';
    if (o.tenths && ms < 60_000)
        return `${(ms / 1000).toFixed(1)}s`;
    const s = Math.round(ms / 1000);
    if (s < 60)
        return `${s}s`;
    const m = Math.floor(s / 60);
    return m < 60 ? `${m}m ${s % 60}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

;// CONCATENATED MODULE: ./.build/action/report.js



// The job summary holds at most 1 MiB a step.
const MAX_PROMPT_IN_SUMMARY = 512 * 1024;
/** One cell of a Markdown table, from untrusted text. */
const cell = (text) => (0,untrusted_text/* cellText */.Ie)(text, 500);
function renderSummary(r) {
    const rows = [];
    const add = (k, v) => {
        if (v)
            rows.push([k, v]);
    };
    add('Issue', r.issue && (r.issueUrl ? `[#${cell(r.issue)}](${r.issueUrl})` : cell(r.issue)));
    add('State', r.state && cell(r.state));
    add('Profile', r.profile && cell(r.profile));
    add('Outcome', `**${r.outcome}**${r.reason ? ` — ${cell(r.reason)}` : ''}`);
    add('Duration', r.durationMs !== undefined ? formatDuration(r.durationMs) : undefined);
    add('Branch', r.branch && `\`${cell(r.branch)}\``);
    add('Deliverable', r.handoffPath &&
        (r.handoffUrl ? `[${cell(r.handoffPath)}](${r.handoffUrl})` : cell(r.handoffPath)));
    add('Commit', r.commit && `\`${r.commit.slice(0, 12)}\``);
    add('Pull request', r.pullRequest && `[#${r.pullRequest.number}](${r.pullRequest.url})`);
    add('Next state', r.nextState && cell(r.nextState));
    add('Next', r.next && cell(r.next));
    if (r.figures) {
        const f = r.figures;
        add('Prompt', `${f.bytes} bytes; ${f.included.length} prior handoff${f.included.length === 1 ? '' : 's'} included, ${f.dropped} dropped for the budget (block ${f.blockBytes} bytes)` +
            (f.truncatedFile ? `; ${cell(f.truncatedFile)} cut to fit` : ''));
    }
    add('Agent', agentFigures(r.agentStats));
    add('Run', r.runUrl && `[logs](${r.runUrl})`);
    let md = `## itervox handoff: ${r.outcome}\n\n| | |\n|---|---|\n`;
    md += rows.map(([k, v]) => `| ${k} | ${v} |`).join('\n') + '\n';
    if (r.failure)
        md += `\n**The pipeline needs a person:** ${cell(r.failure)}\n`;
    if (r.status)
        md += `\n${r.status}\n`;
    if (r.refused.length > 0) {
        md += `\n### Refused\n\n${r.refused.map((x) => `- ${cell(x)}`).join('\n')}\n`;
    }
    if (r.withheld.length > 0) {
        md += `\n### Secrets withheld\n\nFound in what this stage would have published, and kept out of it (values are never shown). Rotate any that are real.\n\n${r.withheld.map((x) => `- ${cell(x)}`).join('\n')}\n`;
    }
    if (r.warnings.length > 0) {
        md += `\n### Warnings\n\n${r.warnings.map((x) => `- ${cell(x)}`).join('\n')}\n`;
    }
    if (r.unsaved) {
        md += `\n<details open><summary>Unsaved deliverable ${cell(r.unsaved.path)}</summary>\n\n${(0,untrusted_text/* fenced */.OF)(r.unsaved.text.slice(0, MAX_PROMPT_IN_SUMMARY), '`', 'markdown')}\n\n</details>\n`;
    }
    if (r.prompt !== undefined) {
        const shown = r.prompt.length > MAX_PROMPT_IN_SUMMARY ? r.prompt.slice(0, MAX_PROMPT_IN_SUMMARY) : r.prompt;
        md += `\n<details><summary>Prompt (dry run)</summary>\n\n${(0,untrusted_text/* fenced */.OF)(shown, '`', 'markdown')}\n\n</details>\n`;
    }
    return md;
}

;// CONCATENATED MODULE: ./.build/action/outputs.js


/** Sets every output DESIGN.md names (empty when it does not apply) and writes the summary. */
async function publishReport(r) {
    const outputs = {
        issue: r.issue ?? '',
        state: r.state ?? '',
        profile: r.profile ?? '',
        outcome: r.outcome,
        'handoff-path': r.handoffPath ?? '',
        branch: r.branch ?? '',
        commit: r.commit ?? '',
        'pull-request': r.pullRequest ? String(r.pullRequest.number) : '',
        'next-state': r.nextState ?? ''
    };
    for (const [name, value] of Object.entries(outputs))
        core/* setOutput */.uH(name, value);
    await core/* summary */.z.addRaw(renderSummary(r)).write();
}

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(8816);
;// CONCATENATED MODULE: ./.build/agent/types.js
/** Every way one agent run can end. */
const AGENT_OUTCOMES = [
    'succeeded',
    'failed',
    'stalled',
    'timed_out',
    'cancelled',
    'input_required',
    'rate_limited'
];

;// CONCATENATED MODULE: ./.build/pipeline/outcome.js


/** How a stage ended (DESIGN.md's `outcome` output): as its agent run did, or before one. */
const stageOutcomeSchema = schemas/* enum */.k5n([...AGENT_OUTCOMES, 'skipped', 'denied']);
/**
 * Ends in which the agent did not do its work: the run's deliverable becomes `.partial.md`,
 * and the job fails so a person sees it (input_required is a pause, not an end).
 */
const UNFINISHED = new Set([
    'failed',
    'stalled',
    'timed_out',
    'cancelled',
    'rate_limited'
]);
function isUnfinished(outcome) {
    return UNFINISHED.has(outcome);
}

// EXTERNAL MODULE: ./.build/files/read-capped.js
var read_capped = __webpack_require__(2528);
;// CONCATENATED MODULE: ./.build/config/daemon-keys.js
/**
 * Keys the itervox daemon reads but a CI runner has no use for: they load with a warning, so
 * one WORKFLOW.md can serve both.
 */
const DAEMON_ONLY_KEYS = {
    root: ['server', 'polling', 'hooks', 'dependencies', 'schedules'],
    tracker: ['endpoint', 'working_state', 'backlog_states', 'outbox', 'comment_commands'],
    workspace: ['clone_url', 'root', 'worktree', 'auto_clear'],
    agent: [
        'max_concurrent_agents',
        'max_concurrent_agents_by_state',
        'backend',
        'read_timeout_ms',
        'max_retry_backoff_ms',
        'max_automation_queue_length',
        'reviewer_profiles',
        'review_quorum',
        'reviewer_prompt',
        'inline_input',
        'pr_footer',
        'pause_dispatch_when_any_in_state',
        'merge_strategy',
        'merge_block_labels',
        'allow_unchecked_merge',
        'transport_error_patterns',
        'rate_limit_error_patterns',
        'rate_limit_error_patterns_mode',
        'backend_fallback',
        'max_switches_per_issue_per_window',
        'switch_window_hours',
        'switch_revert_hours',
        'ssh_hosts',
        'ssh_strict_host_checking',
        'dispatch_strategy',
        'deps_analyzer_profile',
        'available_models',
        'base_branch'
    ],
    profile: ['backend', 'create_issue_state', 'permission_mode', 'require_evidence'],
    automation: ['filter'],
    handoff: []
};
const REMOVED_IN_2 = 'is not allowed in itervox_schema_version 2; remove it';
/** Keys schema 2 rejects outright, with what to do instead. */
const SCHEMA_1_KEYS = {
    agent: { agent_mode: REMOVED_IN_2, enable_agent_teams: REMOVED_IN_2 },
    profile: {
        prompt: 'inline prompts are not allowed in itervox_schema_version 2; move the text into the file named by instructions_file'
    }
};
/** itervox trigger types other than issue_entered_state: such automations load but never run here. */
const DAEMON_TRIGGER_TYPES = [
    'cron',
    'input_required',
    'tracker_comment_added',
    'issue_moved_to_backlog',
    'run_failed',
    'pr_opened',
    'pr_merged',
    'rate_limited',
    'blockers_resolved'
];

;// CONCATENATED MODULE: ./.build/config/command.js
// The command is run without a shell, so shell syntax would silently mean something else.
const SHELL_CHARS = /[;|&`$()<>]/;
const QUOTES = /["'\\]/;
/** Why a profile command cannot be run as written, or undefined when it can. */
function commandProblem(command) {
    if (SHELL_CHARS.test(command)) {
        return 'must not contain any of ;|&`$()>< (it runs without a shell); put the pipeline in a wrapper script and name the script here';
    }
    if (QUOTES.test(command)) {
        return 'must not contain quotes or backslashes (it is split on whitespace, without a shell); put the arguments in a wrapper script and name the script here';
    }
    if (command.trim() === '')
        return 'must not be empty; name the agent CLI, e.g. claude';
    return undefined;
}
/** A checked command as argv, split on whitespace. */
function commandArgv(command) {
    return command.trim().split(/\s+/);
}

;// CONCATENATED MODULE: ./.build/config/interpolate.js
const interpolate_NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const BRACED = /\{([A-Za-z_][A-Za-z0-9_]*)\}/y;
/**
 * Replaces `$VAR` and `${VAR}` with their environment values; `$$` is a literal `$`, and so
 * is a `$` followed by anything that cannot start a name.
 */
function interpolate(text, env) {
    const result = { value: '', missing: [], usedEnv: false, malformed: false };
    let i = 0;
    for (let dollar = text.indexOf('$'); dollar !== -1; dollar = text.indexOf('$', i)) {
        result.value += text.slice(i, dollar);
        const next = text[dollar + 1];
        let name;
        if (next === '$') {
            result.value += '$';
            i = dollar + 2;
            continue;
        }
        if (next === '{') {
            BRACED.lastIndex = dollar + 1;
            const braced = BRACED.exec(text);
            if (!braced) {
                result.malformed = true;
                result.value += '$';
                i = dollar + 1;
                continue;
            }
            name = braced[1] ?? '';
            i = BRACED.lastIndex;
        }
        else {
            interpolate_NAME.lastIndex = dollar + 1;
            const bare = interpolate_NAME.exec(text);
            if (!bare) {
                result.value += '$';
                i = dollar + 1;
                continue;
            }
            name = bare[0];
            i = interpolate_NAME.lastIndex;
        }
        // Own properties only: `$constructor` must not find Object.prototype.constructor.
        const value = Object.hasOwn(env, name) ? env[name] : undefined;
        if (typeof value === 'string' && value !== '') {
            result.value += value;
            result.usedEnv = true;
        }
        else if (!result.missing.includes(name)) {
            result.missing.push(name);
        }
    }
    result.value += text.slice(i);
    return result;
}
/**
 * What to write instead of a `$` that names no variable. `$$` is a literal `$`, except where
 * no `$` may stay at all (a command, which runs without a shell: command.ts), so the advice
 * never leads into that rule.
 */
function literalDollarAdvice(dollarAllowed) {
    return dollarAllowed ? 'write $$ for a literal $' : 'a command may not hold a literal $';
}

;// CONCATENATED MODULE: ./.build/config/section-input.js


/**
 * A section ready for its schema: daemon-only keys dropped with a warning, schema-1 keys
 * dropped with an error, and `$VAR` / `${VAR}` replaced in every string value.
 */
function sectionInput(raw, path, section, problems, options) {
    if (!isMap(raw))
        return raw;
    const out = Object.create(null);
    for (const [key, value] of Object.entries(raw)) {
        const keyPath = [...path, key];
        const rejected = SCHEMA_1_KEYS[section]?.[key];
        if (DAEMON_ONLY_KEYS[section].includes(key)) {
            problems.warnAtKey(keyPath, 'used only by the itervox daemon; this CI runner ignores it');
        }
        else if (rejected !== undefined) {
            problems.errorAtKey(keyPath, rejected);
        }
        else {
            out[key] =
                options.env === undefined || options.verbatim?.includes(key)
                    ? value
                    : interpolateTree(value, keyPath, problems, options.env);
        }
    }
    return out;
}
function interpolateTree(value, path, problems, env) {
    if (typeof value === 'string')
        return interpolateValue(value, path, problems, env);
    if (Array.isArray(value)) {
        return value.map((item, i) => interpolateTree(item, [...path, i], problems, env));
    }
    if (isMap(value)) {
        const out = Object.create(null);
        for (const [key, item] of Object.entries(value)) {
            out[key] = interpolateTree(item, [...path, key], problems, env);
        }
        return out;
    }
    return value;
}
function interpolateValue(text, path, problems, env) {
    const result = interpolate(text, env);
    // agent.command and a profile's command.
    const command = path.at(-1) === 'command';
    for (const name of result.missing) {
        problems.errorAt(path, command
            ? `environment variable ${name} is not set or is empty; set it, or leave it out (${literalDollarAdvice(false)})`
            : `environment variable ${name} is not set or is empty; set it, or ${literalDollarAdvice(true)}`);
    }
    if (result.malformed) {
        problems.errorAt(path, command
            ? `a "\${" must be followed by a variable name and "}", as in \${NAME} (${literalDollarAdvice(false)})`
            : `a "\${" must be followed by a variable name and "}", as in \${NAME}; ${literalDollarAdvice(true)}`);
    }
    if (result.missing.length > 0 || result.malformed) {
        problems.markBroken(path);
        return text;
    }
    if (result.usedEnv)
        problems.markFromEnv(path);
    return result.value;
}
/** A YAML map as the tree reader makes it. */
function isMap(value) {
    if (typeof value !== 'object' || value === null)
        return false;
    const proto = Object.getPrototypeOf(value);
    return proto === null || proto === Object.prototype;
}

;// CONCATENATED MODULE: ./.build/config/schema.js



// Each section is checked on its own (see load.ts), so one bad section hides nothing else.
// Messages here never quote the value: it may have come from the environment.
const schema_text = schemas/* string */.YjP().trim().min(1);
/** Empty, `~` and '' all mean "not set", as in itervox. */
const optionalText = schemas/* string */.YjP()
    .nullish()
    .transform((v) => v?.trim() || undefined);
function withDefault(schema, fallback) {
    return schema.nullish().transform((v) => v ?? fallback());
}
const positiveInt = schemas/* int */.Whr().positive();
const command = schemas/* string */.YjP()
    .superRefine((value, ctx) => {
    const problem = commandProblem(value);
    if (problem)
        ctx.addIssue({ code: 'custom', message: problem });
})
    .transform((v) => v.trim());
const DEFAULT_ACTIVE_STATES = ['Todo', 'In Progress'];
const DEFAULT_TERMINAL_STATES = ['Closed', 'Cancelled', 'Canceled', 'Duplicate', 'Done'];
const LOCAL_PREFIX = /^[A-Za-z][A-Za-z0-9_]*$/;
const GITHUB_REPO = /^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/;
const trackerSchema = schemas/* strictObject */.rej({
    kind: schemas/* enum */.k5n(['github', 'local', 'linear']),
    api_key: optionalText,
    project_slug: optionalText,
    active_states: withDefault(schemas/* array */.YOg(schema_text), () => [...DEFAULT_ACTIVE_STATES]),
    terminal_states: withDefault(schemas/* array */.YOg(schema_text), () => [...DEFAULT_TERMINAL_STATES]),
    completion_state: optionalText,
    failed_state: optionalText,
    allowed_bots: withDefault(schemas/* array */.YOg(schema_text), () => [])
})
    .superRefine((t, ctx) => {
    if (t.kind === 'linear' && !t.api_key) {
        ctx.addIssue({
            code: 'custom',
            path: ['api_key'],
            message: 'tracker kind linear needs an API key; add api_key: $LINEAR_API_KEY'
        });
    }
    const slug = t.project_slug;
    if (t.kind === 'local' && slug && !LOCAL_PREFIX.test(slug)) {
        ctx.addIssue({
            code: 'custom',
            path: ['project_slug'],
            message: 'for the local tracker this is the issue prefix: a letter, then letters, digits or _ (e.g. ENG)'
        });
    }
    if (t.kind === 'github' && slug && !GITHUB_REPO.test(slug)) {
        ctx.addIssue({
            code: 'custom',
            path: ['project_slug'],
            message: 'for the github tracker this is owner/repo; inside the action it can be left out'
        });
    }
});
const BRANCH = /^(?![-/])(?!.*\.\.)(?!.*\/\/)(?!.*[/.]$)(?!.*\.lock$)[A-Za-z0-9._/-]+$/;
const workspaceSchema = schemas/* strictObject */.rej({
    base_branch: optionalText.refine((b) => b === undefined || BRANCH.test(b), {
        message: 'must be a branch name such as main (letters, digits, ".", "_", "-", "/"); leave it out for the default branch'
    })
});
const agentSchema = schemas/* strictObject */.rej({
    command: withDefault(command, () => 'claude'),
    max_turns: withDefault(positiveInt, () => 20),
    // itervox's daemon retries 5 times; here every retry is a CI job.
    max_retries: withDefault(schemas/* int */.Whr().nonnegative(), () => 2),
    stall_timeout_ms: withDefault(positiveInt, () => 300_000),
    turn_timeout_ms: withDefault(positiveInt, () => 3_600_000),
    reviewer_profile: optionalText,
    auto_review: withDefault(schemas/* boolean */.zMY(), () => false),
    // Each review round is two paid agent runs (the work, then its review).
    max_review_rounds: withDefault(positiveInt, () => 3),
    // Each profile is checked on its own.
    profiles: schemas/* custom */.IeY((v) => v == null || isMap(v), {
        message: 'must be a map from each profile name to its settings'
    })
        .optional()
});
const repoGlob = schema_text.refine((g) => !g.startsWith('/') &&
    !g.includes('\\') &&
    !/(^|\/)\.\.(\/|$)/.test(g) &&
    !/^\.git(\/|$)/.test(g), {
    message: 'must be a glob relative to the repository root, with "/" between folders, no ".." and nothing under .git'
});
const heading = schema_text.refine((h) => !/[\r\n]/.test(h), {
    message: 'must be one line: a section heading such as "## Findings"'
});
const profileSchema = schemas/* strictObject */.rej({
    command: command.nullish(),
    soul_file: schema_text,
    instructions_file: schema_text,
    // Names are checked in profiles.ts, which can point at each one.
    allowed_actions: withDefault(schemas/* array */.YOg(schemas/* string */.YjP()), () => []),
    // States are checked in references.ts, which knows the tracker's.
    allowed_states: withDefault(schemas/* array */.YOg(schema_text), () => []),
    enabled: withDefault(schemas/* boolean */.zMY(), () => true),
    commit_paths: withDefault(schemas/* array */.YOg(repoGlob), () => []),
    required_sections: withDefault(schemas/* array */.YOg(heading), () => []),
    // Names are checked in profiles.ts, which can quote each one.
    env: withDefault(schemas/* array */.YOg(schemas/* string */.YjP()), () => [])
});
const triggerSchema = schemas/* strictObject */.rej({
    type: schemas/* literal */.euz('issue_entered_state'),
    state: schema_text.nullish(),
    states: schemas/* array */.YOg(schema_text).min(1).nullish()
})
    .superRefine((t, ctx) => {
    if (t.state && t.states) {
        ctx.addIssue({
            code: 'custom',
            path: ['states'],
            message: 'use either state or states, not both'
        });
    }
    else if (!t.state && !t.states) {
        ctx.addIssue({
            code: 'custom',
            message: 'needs the state that starts the automation; add state: <name> or states: [<names>]'
        });
    }
});
const automationSchema = schemas/* strictObject */.rej({
    id: schema_text,
    enabled: withDefault(schemas/* boolean */.zMY(), () => true),
    trigger: triggerSchema,
    profile: schema_text,
    instructions: schemas/* string */.YjP().nullish(),
    policy: schemas/* strictObject */.rej({ move_to_state: optionalText }).nullish()
});
const handoffSchema = schemas/* strictObject */.rej({
    budget_bytes: withDefault(positiveInt, () => 30_720),
    max_file_bytes: withDefault(positiveInt, () => 1_048_576),
    max_files: withDefault(positiveInt, () => 1000)
});
/** Only the top-level keys; the sections are checked by the schemas above. */
const rootSchema = schemas/* strictObject */.rej({
    itervox_schema_version: schemas/* unknown */.L5J().optional(),
    tracker: schemas/* unknown */.L5J().optional(),
    workspace: schemas/* unknown */.L5J().optional(),
    agent: schemas/* unknown */.L5J().optional(),
    automations: schemas/* array */.YOg(schemas/* unknown */.L5J()).nullish(),
    handoff: schemas/* unknown */.L5J().optional()
});

;// CONCATENATED MODULE: ./.build/config/source-map.js
const START = { line: 1, col: 1 };
/** Where each key and value of the front matter sits in the file. */
class SourceMap {
    rootPos;
    entries = new Map();
    constructor(rootPos = START) {
        this.rootPos = rootPos;
    }
    set(path, entry) {
        this.entries.set(pathKey(path), entry);
    }
    has(path) {
        return this.entries.has(pathKey(path));
    }
    isBlock(path) {
        return this.entries.get(pathKey(path))?.block ?? false;
    }
    /** The value's position; for an empty or absent value, its key's or the nearest parent's. */
    value(path) {
        const entry = this.entries.get(pathKey(path));
        if (entry && !entry.empty)
            return entry.value;
        return this.key(path);
    }
    /** The key's position (the value's for a list item); else the nearest parent's. */
    key(path) {
        for (let end = path.length; end > 0; end--) {
            const entry = this.entries.get(pathKey(path.slice(0, end)));
            if (entry)
                return entry.key ?? entry.value;
        }
        return this.rootPos;
    }
}
function pathKey(path) {
    return JSON.stringify(path);
}
/**
 * `agent.profiles.researcher.allowed_actions[1]`: how messages name a key. A key that is not
 * a plain word is quoted, as in `agent.profiles["story writer"]`.
 */
function pathLabel(path) {
    let out = '';
    for (const part of path) {
        if (typeof part === 'number')
            out += `[${part}]`;
        else if (!/^[\w-]+$/.test(part))
            out += `[${source_map_quoted(part)}]`;
        else
            out += out ? `.${part}` : part;
    }
    return out;
}
/** User text in a message: quoted, with newlines and control characters escaped. */
function source_map_quoted(text) {
    return JSON.stringify(text);
}
/** `tracker.kind: message`, or just the message at the top level. */
function labelled(path, message) {
    const label = pathLabel(path);
    return label ? `${label}: ${message}` : message;
}

;// CONCATENATED MODULE: ./.build/config/did-you-mean.js

/**
 * Edit distance with adjacent transpositions (optimal string alignment), so `trackr` is one
 * edit from `tracker` and `mvoe_state` one from `move_state`.
 */
function editDistance(a, b) {
    // Every row holds b.length + 1 distances, so each index below is in range.
    let prevPrev = [];
    let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const row = [i];
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let best = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
                best = Math.min(best, prevPrev[j - 2] + 1);
            }
            row.push(best);
        }
        prevPrev = prev;
        prev = row;
    }
    return prev[b.length];
}
/** The candidate closest to `input` (ignoring case), if it is close enough to be a typo. */
function closest(input, candidates) {
    const wanted = input.toLowerCase();
    const limit = wanted.length <= 3 ? 1 : wanted.length <= 6 ? 2 : 3;
    let best;
    let bestDistance = limit + 1;
    for (const candidate of candidates) {
        const other = candidate.toLowerCase();
        if (Math.abs(other.length - wanted.length) >= bestDistance)
            continue;
        const distance = editDistance(wanted, other);
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}
/** `; did you mean "x"?` when a candidate is close, else ''. */
function did_you_mean_didYouMean(input, candidates) {
    const match = closest(input, candidates);
    return match === undefined ? '' : `; did you mean ${source_map_quoted(match)}?`;
}

;// CONCATENATED MODULE: ./.build/config/schema-issues.js




/**
 * Checks one section against its schema. Each zod issue becomes one error at the key or value
 * it is about, saying what to write instead; returns undefined when there was any.
 */
function parseSection(schema, input, path, section, problems) {
    const result = schema.safeParse(input, { reportInput: true });
    if (result.success)
        return result.data;
    // Unknown keys first: a misspelt key then explains a missing one.
    const issues = [...result.error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
    for (const issue of issues)
        report(issue, schema, path, section, problems);
    return undefined;
}
function report(issue, schema, base, section, problems) {
    const rel = issue.path.filter((p) => typeof p !== 'symbol');
    const path = [...base, ...rel];
    const missing = issue.input === undefined && !problems.map.has(path);
    if (missing && problems.isTypoTarget(path))
        return;
    if (missing && path.length > 0) {
        const key = String(path[path.length - 1]);
        const values = issue.code === 'invalid_value' ? ` (${oneOf(issue.values)})` : '';
        problems.error(problems.map.key(path), labelled(path.slice(0, -1), `missing required key "${key}"${values}; add it`));
        return;
    }
    switch (issue.code) {
        case 'unrecognized_keys': {
            const known = keysAt(schema, rel);
            // A daemon-only key is a fine guess too; it then loads with a warning.
            const guesses = [...known, ...(rel.length === 0 ? DAEMON_ONLY_KEYS[section] : [])];
            for (const key of issue.keys) {
                const meant = closest(key, guesses);
                if (meant !== undefined)
                    problems.markTypoOf([...path, meant]);
                problems.error(problems.map.key([...path, key]), labelled(path, unknownKey(key, meant, known)));
            }
            return;
        }
        case 'invalid_type':
            problems.errorAt(path, issue.input === null
                ? `is empty; write ${expected(issue.expected)}`
                : `must be ${expected(issue.expected)}, not ${schema_issues_describe(issue.input)}`);
            return;
        case 'invalid_value': {
            const options = issue.values.map(String);
            const hint = typeof issue.input === 'string' && !problems.isFromEnv(path)
                ? did_you_mean_didYouMean(issue.input, options)
                : '';
            problems.errorAt(path, `must be ${oneOf(issue.values)}${hint}`);
            return;
        }
        case 'too_small':
            problems.errorAt(path, tooSmall(issue));
            return;
        case 'too_big':
            problems.errorAt(path, `must be at most ${String(issue.maximum)}`);
            return;
        // Shapes WORKFLOW.md's schema has no better words for.
        case 'custom':
        case 'invalid_element':
        case 'invalid_format':
        case 'invalid_key':
        case 'invalid_union':
        case 'not_multiple_of':
            problems.errorAt(path, issue.message);
    }
}
function unknownKey(key, meant, known) {
    const hint = meant === undefined
        ? `; remove it, or use one of: ${known.join(', ')}`
        : `; did you mean ${source_map_quoted(meant)}?`;
    return `unknown key ${source_map_quoted(key)}${hint}`;
}
function tooSmall(issue) {
    if (issue.origin === 'string')
        return 'must not be empty';
    if (issue.origin === 'array')
        return `must list at least ${String(issue.minimum)}`;
    return issue.inclusive
        ? `must be at least ${String(issue.minimum)}`
        : `must be greater than ${String(issue.minimum)}`;
}
function oneOf(values) {
    return values.length === 1 ? String(values[0]) : `one of ${values.map(String).join(', ')}`;
}
function expected(type) {
    switch (type) {
        case 'string':
            return 'text';
        case 'number': // every number in the schema is a whole one
        case 'int':
            return 'a whole number';
        case 'boolean':
            return 'true or false';
        case 'array':
            return 'a list';
        case 'object':
            return 'a map of keys to values';
        default:
            return type;
    }
}
// Numbers and booleans cannot come from the environment, so showing them leaks nothing.
function schema_issues_describe(value) {
    if (typeof value === 'string')
        return 'text';
    if (typeof value === 'number' || typeof value === 'boolean')
        return String(value);
    if (Array.isArray(value))
        return 'a list';
    return 'a map';
}
/** The keys the object schema at `path` (inside `schema`) accepts. */
function keysAt(schema, path) {
    let current = schema;
    let i = 0;
    for (;;) {
        if (current instanceof schemas/* ZodPipe */.utH)
            current = current.in;
        else if (current instanceof schemas/* ZodOptional */.IiU || current instanceof schemas/* ZodNullable */.l1C) {
            current = current.unwrap();
        }
        else if (i === path.length) {
            return current instanceof schemas/* ZodObject */.bvH ? Object.keys(current.shape) : [];
        }
        else if (current instanceof schemas/* ZodObject */.bvH) {
            current = current.shape[String(path[i++])];
        }
        else if (current instanceof schemas/* ZodArray */.naA) {
            current = current.element;
            i++;
        }
        else {
            return [];
        }
    }
}

;// CONCATENATED MODULE: ./.build/config/automations.js




/**
 * One `automations[i]` entry. Trigger types other than issue_entered_state only run in the
 * itervox daemon: they load with a warning and give undefined, as do broken entries.
 */
function readAutomation(raw, index, problems, env) {
    const path = ['automations', index];
    const type = isMap(raw) && isMap(raw.trigger) ? raw.trigger.type : undefined;
    if (typeof type === 'string' && DAEMON_TRIGGER_TYPES.includes(type)) {
        problems.warnAt([...path, 'trigger', 'type'], `${type} automations run only in the itervox daemon; this CI runner ignores this one`);
        return undefined;
    }
    // instructions are a Liquid template: `$` there is the template's business.
    const input = sectionInput(raw, path, 'automation', problems, { env, verbatim: ['instructions'] });
    const parsed = parseSection(automationSchema, input, path, 'automation', problems);
    if (!parsed)
        return undefined;
    const trigger = parsed.trigger;
    const states = trigger.states ?? (trigger.state ? [trigger.state] : []);
    const statePaths = trigger.states
        ? trigger.states.map((_, i) => [...path, 'trigger', 'states', i])
        : [[...path, 'trigger', 'state']];
    const config = {
        id: parsed.id,
        enabled: parsed.enabled,
        states,
        profile: parsed.profile
    };
    if (parsed.instructions) {
        const instructionsPath = [...path, 'instructions'];
        config.instructions = parsed.instructions;
        // A `|` or `>` block's text starts on the line after the indicator.
        config.instructionsLine =
            problems.map.value(instructionsPath).line + (problems.map.isBlock(instructionsPath) ? 1 : 0);
    }
    if (parsed.policy?.move_to_state)
        config.moveToState = parsed.policy.move_to_state;
    return { config, index, statePaths };
}

;// CONCATENATED MODULE: ./.build/config/disk-files.js



/** The nearest folder at or above `dir` that holds `.git`; `dir` itself when there is none. */
function disk_files_repoRootOf(dir) {
    for (let current = dir;; current = dirname(current)) {
        if (existsSync(join(current, '.git')))
            return current;
        if (dirname(current) === current)
            return dir;
    }
}
// Profile files (SOUL.md, INSTRUCTIONS.md) become prompt text: a few KiB each.
const REPO_FILE_MAX_BYTES = (/* unused pure expression or super */ null && (1024 * 1024));
/**
 * A repository-relative file's text, or null when it is missing or (through a symlink)
 * outside the repository. A FileRefused when it is there but not a regular file, or too large.
 */
function disk_files_readRepoFile(root, repoPath) {
    let real;
    try {
        real = realpathSync(join(root, repoPath));
        const inside = relative(realpathSync(root), real);
        if (inside.startsWith('..') || inside === '')
            return null;
    }
    catch {
        return null;
    }
    try {
        return readCappedText(real, REPO_FILE_MAX_BYTES, repoPath);
    }
    catch (e) {
        if (e instanceof FileRefused && e.reason === 'missing')
            return null;
        throw e;
    }
}
/** `dir` relative to `root`, with `/` separators; `.` for the root itself. */
function disk_files_repoRelativeDir(root, dir) {
    return relative(root, dir).split(sep).join('/') || '.';
}

;// CONCATENATED MODULE: ./.build/config/front-matter.js
const FENCE = '---';
/**
 * The index of the line that closes the front matter of a file's LF-split lines; -1 when line 1
 * (byte-order mark aside) is not exactly `---`, `lines.length` when no later line is.
 */
function frontMatterEnd(lines) {
    if (lines[0]?.replace(/^\uFEFF/, '') !== FENCE)
        return -1;
    const close = lines.indexOf(FENCE, 1);
    return close === -1 ? lines.length : close;
}
/**
 * CRLF becomes LF first. Front matter exists only when line 1 is exactly `---` and runs to
 * the next line that is exactly `---`; with no closing line it is all front matter. A
 * leading byte-order mark is dropped (itervox would not see the fence behind one).
 */
function splitFrontMatter(text) {
    const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    const lines = normalised.split('\n');
    const close = frontMatterEnd(lines);
    if (close === -1) {
        return { frontMatter: null, frontMatterLine: 1, unclosed: false, ...trimBody(normalised, 1) };
    }
    const frontMatter = lines.slice(1, close).join('\n');
    if (close === lines.length) {
        return { frontMatter, frontMatterLine: 2, unclosed: true, body: '', bodyLine: close + 1 };
    }
    return {
        frontMatter,
        frontMatterLine: 2,
        unclosed: false,
        ...trimBody(lines.slice(close + 1).join('\n'), close + 2)
    };
}
function trimBody(raw, firstLine) {
    const body = raw.trim();
    const skipped = raw.slice(0, raw.length - raw.trimStart().length);
    return { body, bodyLine: firstLine + (skipped.match(/\n/g)?.length ?? 0) };
}

;// CONCATENATED MODULE: ./.build/config/problems.js


/** Every mistake and warning found while loading WORKFLOW.md, each tied to a file position. */
class Problems {
    file;
    map;
    errors = [];
    found = [];
    /** Keys some unknown key was taken for a typo of: their absence is not reported again. */
    typoTargets = new Set();
    broken = new Set();
    /** Paths whose value took text from the environment: such values are never echoed. */
    fromEnv = new Set();
    constructor(file, map) {
        this.file = file;
        this.map = map;
    }
    error(pos, message) {
        this.errors.push({ at: this.location(pos), message });
    }
    warn(pos, message) {
        this.found.push({ message, location: this.location(pos) });
    }
    /** An error about the value at `path` (or its key when the value is empty or absent). */
    errorAt(path, message) {
        if (!this.isBroken(path))
            this.error(this.map.value(path), labelled(path, message));
    }
    /** An error about the key at `path` itself. */
    errorAtKey(path, message) {
        if (!this.isBroken(path))
            this.error(this.map.key(path), labelled(path, message));
    }
    /** The value at `path` already has an error; whatever follows from it is not reported. */
    markBroken(path) {
        this.broken.add(JSON.stringify(path));
    }
    isBroken(path) {
        return this.broken.has(JSON.stringify(path));
    }
    warnAt(path, message) {
        this.warn(this.map.value(path), labelled(path, message));
    }
    warnAtKey(path, message) {
        this.warn(this.map.key(path), labelled(path, message));
    }
    markTypoOf(path) {
        this.typoTargets.add(JSON.stringify(path));
    }
    isTypoTarget(path) {
        return this.typoTargets.has(JSON.stringify(path));
    }
    markFromEnv(path) {
        this.fromEnv.add(JSON.stringify(path));
    }
    isFromEnv(path) {
        return this.fromEnv.has(JSON.stringify(path));
    }
    /** `"Todo"`, or a stand-in when the text came from the environment. */
    quote(path, value) {
        return this.isFromEnv(path) ? '(a value from the environment)' : source_map_quoted(value);
    }
    /** The warnings, sorted by position. */
    get warnings() {
        return [...this.found].sort((a, b) => byPosition(a.location, b.location));
    }
    get failed() {
        return this.errors.length > 0;
    }
    /** Throws all errors found so far, sorted by position, if there are any. */
    throwIfAny() {
        if (this.failed)
            this.fail();
    }
    /** Throws all errors found so far, sorted by position. */
    fail() {
        const sorted = [...this.errors].sort((a, b) => byPosition(a.at, b.at));
        const unique = new Map();
        for (const e of sorted) {
            const error = new errors/* UserError */.yo(e.message, e.at);
            if (!unique.has(error.format()))
                unique.set(error.format(), error);
        }
        throw new errors/* UserErrors */.tQ([...unique.values()]);
    }
    location(pos) {
        return { file: this.file, line: pos.line, col: pos.col };
    }
}
function byPosition(a, b) {
    return (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
}

;// CONCATENATED MODULE: ./.build/agent/environment.js
// The runner's tokens and the files through which a step talks to the runner. An agent that
// held these could push, mint OIDC tokens, poison the cache, or forge the action's outputs
// and post-step state (security.md rules 3 and 8).
const RUNNER_NAMES = new Set([
    'GITHUB_TOKEN',
    'GH_TOKEN',
    'GH_ENTERPRISE_TOKEN',
    'GITHUB_ENTERPRISE_TOKEN',
    'GITHUB_ENV',
    'GITHUB_OUTPUT',
    'GITHUB_STATE',
    'GITHUB_PATH',
    'GITHUB_STEP_SUMMARY'
]);
// ACTIONS_* holds the runtime, cache, results and OIDC tokens and URLs; INPUT_* holds every
// action input, `github-token` included.
const RUNNER_PREFIXES = ['ACTIONS_', 'INPUT_'];
/** True for a variable the agent must never see. Names are compared case-insensitively. */
function isRunnerVariable(name) {
    const upper = name.toUpperCase();
    return RUNNER_NAMES.has(upper) || RUNNER_PREFIXES.some((p) => upper.startsWith(p));
}
/** The parent's USER, LOGNAME, TMPDIR and SHELL, for an agent that runs as the same user. */
function parentIdentity(parent) {
    return { user: parent.USER, logname: parent.LOGNAME, tmpdir: parent.TMPDIR, shell: parent.SHELL };
}
// Not secrets, and what programs need to run at all, speak the user's language and reach the
// network through the runner's proxy.
const BASE_NAMES = new Set([
    'PATH',
    'LANG',
    'LANGUAGE',
    'TZ',
    'TERM',
    'CI',
    ...['HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'ALL_PROXY'].flatMap((n) => [n, n.toLowerCase()])
]);
function isBaseName(name) {
    return BASE_NAMES.has(name) || name.startsWith('LC_') || name.startsWith('ITERVOX_');
}
/**
 * The agent's environment, from an allow-list: of the parent's variables only PATH, the locale
 * (LANG, LANGUAGE, LC_*, TZ), the proxy settings, TERM, CI, ITERVOX_* and the `allowed` names
 * pass, never a runner variable; HOME and the other identity variables are the caller's; the
 * agent contract variables are set over anything inherited. Everything else the job holds (a
 * cloud key, an npm token, the runner's context) stays out unless a profile names it.
 */
function agentEnvironment(parent, contract, opts) {
    const allowed = new Set(opts.allowed);
    const env = {};
    for (const [name, value] of Object.entries(parent)) {
        if (value === undefined || isRunnerVariable(name))
            continue;
        if (isBaseName(name) || allowed.has(name))
            env[name] = value;
    }
    const identity = {
        HOME: opts.home,
        USER: opts.user,
        LOGNAME: opts.logname,
        TMPDIR: opts.tmpdir,
        SHELL: opts.shell
    };
    for (const [name, value] of Object.entries(identity))
        if (value !== undefined)
            env[name] = value;
    env.ITERVOX_HANDOFF_PATH = contract.handoffPath;
    env.ITERVOX_RUN_TIMESTAMP = contract.runTimestamp;
    env.ITERVOX_PROFILE = contract.profile;
    env.ITERVOX_ISSUE = contract.issue;
    env.ITERVOX_PROMPT_FILE = contract.promptFile;
    env.ITERVOX_AGENT = '1';
    return env;
}

;// CONCATENATED MODULE: ./.build/config/repo-path.js

/**
 * `value` (a path relative to WORKFLOW.md's folder `baseDir`) as a normalised
 * repository-relative path, or why it cannot be one: it must stay inside the repository.
 */
function repoPath(baseDir, value) {
    if (/[\u0000-\u001f]/.test(value))
        return { problem: 'must not contain control characters' };
    if (value.includes('\\'))
        return { problem: 'must use "/" between folders, not "\\"' };
    if (external_node_path_.posix.isAbsolute(value) || /^[A-Za-z]:/.test(value)) {
        return { problem: "must be relative to WORKFLOW.md's folder, not an absolute path" };
    }
    const path = external_node_path_.posix.normalize(external_node_path_.posix.join(baseDir, value));
    if (path === '..' || path.startsWith('../')) {
        return { problem: 'must stay inside the repository; remove the ".." that leads out of it' };
    }
    if (path === '.' || path.endsWith('/'))
        return { problem: 'must name a file, not a folder' };
    return { path };
}

;// CONCATENATED MODULE: ./.build/config/profiles.js









/** The daemon actions a profile may allow. */
const ACTIONS = [
    'comment',
    'comment_pr',
    'create_issue',
    'move_state',
    'provide_input',
    'merge_pr'
];
// What a shell accepts as a variable name.
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Profile names become part of handoff file names.
const PROFILE_NAME = /^[A-Za-z0-9._-]+$/;
/** One `agent.profiles.<name>` entry, with its SOUL.md and INSTRUCTIONS.md read. */
function readProfile(name, raw, ctx) {
    const { problems } = ctx;
    const path = ['agent', 'profiles', name];
    if (!PROFILE_NAME.test(name)) {
        const fixed = name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '');
        problems.error(problems.map.key(path), `agent.profiles: profile name ${source_map_quoted(name)} may only use letters, digits, ".", "_" and "-"; rename it` +
            (fixed ? `, e.g. ${source_map_quoted(fixed)}` : ''));
    }
    const input = sectionInput(raw ?? Object.create(null), path, 'profile', problems, {
        env: ctx.env
    });
    const parsed = parseSection(profileSchema, input, path, 'profile', problems);
    if (!parsed)
        return undefined;
    const soul = readProfileFile(parsed.soul_file, [...path, 'soul_file'], ctx);
    const instructions = readProfileFile(parsed.instructions_file, [...path, 'instructions_file'], ctx);
    const allowedActions = actionNames(parsed.allowed_actions, [...path, 'allowed_actions'], problems);
    const env = envNames(parsed.env, [...path, 'env'], problems);
    if (!soul || !instructions)
        return undefined;
    const command = parsed.command ?? ctx.defaultCommand;
    return {
        name,
        command,
        argv: commandArgv(command),
        commandAt: commandAt(path, parsed.command !== undefined, problems),
        soulFile: soul.file,
        soulText: soul.text,
        soulLine: problems.map.key([...path, 'soul_file']).line,
        instructionsFile: instructions.file,
        instructionsText: instructions.text,
        allowedActions,
        allowedStates: parsed.allowed_states,
        enabled: parsed.enabled,
        commitPaths: parsed.commit_paths,
        requiredSections: parsed.required_sections,
        env
    };
}
/** Which key sets the profile's command, and its line (the profile's own, when neither is written). */
function commandAt(path, own, problems) {
    const key = own || !problems.map.has(['agent', 'command']) ? [...path, 'command'] : ['agent', 'command'];
    return { line: problems.map.key(key).line, key: key.join('.') };
}
function readProfileFile(value, path, ctx) {
    const where = repoPath(ctx.baseDir, value);
    if ('problem' in where) {
        ctx.problems.errorAtKey(path, where.problem);
        return undefined;
    }
    let text;
    try {
        text = ctx.readFile(where.path);
    }
    catch (e) {
        if (!(e instanceof errors/* UserError */.yo))
            throw e;
        ctx.problems.errorAtKey(path, e.format());
        return undefined;
    }
    if (text === null) {
        const what = ctx.problems.isFromEnv(path) ? 'the file it names' : where.path;
        ctx.problems.errorAtKey(path, `${what} does not exist in the repository; create it or fix the path`);
        return undefined;
    }
    return { file: where.path, text: profileText(text) };
}
/** What of a profile file's text the profile keeps. */
function profileText(text) {
    return text.trim();
}
/**
 * The profiles, as readProfile makes them, with their files' texts from `read`: for a parse that
 * stood in empty texts while it learnt which files the profiles name (the texts decide no check).
 */
function withProfileTexts(profiles, read) {
    // No prototype, as parseWorkflow makes it: a profile is looked up by a name from outside.
    const out = Object.create(null);
    for (const [name, profile] of Object.entries(profiles)) {
        out[name] = {
            ...profile,
            soulText: profileText(read(profile.soulFile)),
            instructionsText: profileText(read(profile.instructionsFile))
        };
    }
    return out;
}
/** Lower-cased, de-duplicated and sorted, as itervox keeps them; unknown names are errors. */
function actionNames(names, path, problems) {
    const known = ACTIONS;
    const out = new Set();
    names.forEach((raw, i) => {
        const name = raw.trim().toLowerCase();
        if (known.includes(name)) {
            out.add(name);
            return;
        }
        const itemPath = [...path, i];
        const hint = problems.isFromEnv(itemPath) ? '' : did_you_mean_didYouMean(name, known);
        problems.errorAt(itemPath, `unknown action ${problems.quote(itemPath, raw)}${hint || `; use one of: ${known.join(', ')}`}`);
    });
    return [...out].sort();
}
/**
 * The variables the agent may take from the job's environment, each once. The runner's own
 * (its tokens, the action's inputs, the step's command files) are refused: the agent never
 * gets them, named or not.
 */
function envNames(names, path, problems) {
    const out = new Set();
    names.forEach((name, i) => {
        const itemPath = [...path, i];
        const shown = problems.quote(itemPath, name);
        if (isRunnerVariable(name)) {
            problems.errorAt(itemPath, `${shown} is a runner variable (a token, an action input or a step file), which the agent never gets; remove it: the action pushes and comments itself after the agent exits`);
        }
        else if (!ENV_NAME.test(name)) {
            problems.errorAt(itemPath, `${shown} is not an environment variable name; use letters, digits and "_", not starting with a digit`);
        }
        else {
            out.add(name);
        }
    });
    return [...out];
}

;// CONCATENATED MODULE: ./.build/config/lookup.js



/** States match case-insensitively, as GitHub labels do: equal states have equal keys. */
function stateKey(state) {
    return state.toLowerCase();
}
function sameState(a, b) {
    return stateKey(a) === stateKey(b);
}
/** Active, terminal, completion and failed states, each once (first spelling wins). */
function statesOf(tracker) {
    const all = [
        ...tracker.activeStates,
        ...tracker.terminalStates,
        ...(tracker.completionState ? [tracker.completionState] : []),
        ...(tracker.failedState ? [tracker.failedState] : [])
    ];
    return all.filter((state, i) => all.findIndex((other) => sameState(other, state)) === i);
}
function knownStates(config) {
    return statesOf(config.tracker);
}
/** The enabled automation that entering `state` starts, if any. */
function findAutomation(config, state) {
    return config.automations.find((a) => a.enabled && a.states.some((s) => sameState(s, state)));
}
/**
 * The automation a run of `profile` belongs to: the one `state` starts when it runs this
 * profile, else the profile's first enabled automation.
 */
function automationForProfile(config, profile, state) {
    const byState = state ? findAutomation(config, state) : undefined;
    if (byState?.profile === profile)
        return byState;
    return config.automations.find((a) => a.enabled && a.profile === profile);
}
/** The error for a profile name given outside WORKFLOW.md (e.g. `--profile`) that it lacks. */
function unknownProfileError(config, name, where) {
    const names = Object.keys(config.agent.profiles);
    const hint = didYouMean(name, names) ||
        (names.length > 0 ? `; it has: ${names.join(', ')}` : '; it defines no profiles');
    return new UserError(`${where}: ${config.file} has no profile named ${quoted(name)}${hint}`);
}

;// CONCATENATED MODULE: ./.build/config/references.js



/** Checks that every profile and state named anywhere exists, and that ids are unique. */
function checkReferences(refs, problems) {
    checkReviewer(refs, problems);
    if (refs.tracker)
        checkAllowedStates(refs, statesOf(refs.tracker), problems);
    const ids = new Map();
    const starters = new Map();
    for (const read of refs.automations) {
        const { config, index } = read;
        const path = ['automations', index];
        const first = ids.get(config.id.toLowerCase());
        if (first === undefined)
            ids.set(config.id.toLowerCase(), index);
        else {
            problems.errorAt([...path, 'id'], `id ${problems.quote([...path, 'id'], config.id)} is already used by automations[${first}] (ids ignore case); rename one`);
        }
        if (checkProfile(config.profile, [...path, 'profile'], refs, problems)) {
            const profile = refs.profiles[config.profile];
            if (config.enabled && profile && !profile.enabled) {
                problems.warnAt([...path, 'profile'], `profile ${source_map_quoted(config.profile)} is disabled, so this automation will be skipped`);
            }
        }
        if (refs.tracker) {
            const known = statesOf(refs.tracker);
            config.states.forEach((state, i) => {
                // One path per state; the automation's own is the fallback.
                const at = read.statePaths[i] ?? path;
                checkState(state, at, known, problems);
                if (!config.enabled)
                    return;
                const other = starters.get(stateKey(state));
                if (other) {
                    problems.errorAt(at, `state ${problems.quote(at, state)} already starts automations[${other.index}] (${source_map_quoted(other.config.id)}); a state may start only one enabled automation`);
                }
                else
                    starters.set(stateKey(state), read);
            });
            if (config.moveToState) {
                checkState(config.moveToState, [...path, 'policy', 'move_to_state'], known, problems);
            }
        }
    }
    if (refs.tracker) {
        checkEndStates(refs.tracker, starters, problems);
        checkEndStateSpelling(refs, problems);
    }
}
/**
 * An end state may be a state of its own, a label nothing starts (the seed's "Won't Do"), so
 * it is known by being written. One that is not a state of the pipeline but one edit from one
 * is taken for a misspelling of it.
 */
function checkEndStateSpelling(refs, problems) {
    const tracker = refs.tracker;
    const declared = [
        ...tracker.activeStates,
        ...tracker.terminalStates,
        ...refs.automations.flatMap((a) => [...a.config.states, a.config.moveToState ?? '']),
        ...Object.values(refs.profiles).flatMap((p) => p.allowedStates)
    ].filter(Boolean);
    const ends = [
        ['completion_state', tracker.completionState],
        ['failed_state', tracker.failedState]
    ];
    for (const [key, state] of ends) {
        const path = ['tracker', key];
        if (!state || problems.isFromEnv(path) || declared.some((k) => sameState(k, state)))
            continue;
        // One letter off only: "Blocked" is a state of its own, not a misspelt "Closed".
        const near = declared.find((k) => editDistance(stateKey(k), stateKey(state)) <= 1);
        if (near === undefined)
            continue;
        problems.errorAt(path, `unknown state ${problems.quote(path, state)}; did you mean ${source_map_quoted(near)}? If ${source_map_quoted(state)} is meant, list it in tracker.terminal_states`);
    }
}
/** Where the pipeline ends must not start it again. */
function checkEndStates(tracker, starters, problems) {
    const starts = (state) => (state ? starters.get(stateKey(state)) : undefined);
    const failed = starts(tracker.failedState);
    if (failed) {
        problems.errorAt(['tracker', 'failed_state'], `${source_map_quoted(tracker.failedState ?? '')} starts automations[${failed.index}] (${source_map_quoted(failed.config.id)}), so an escalated issue would run again; name a state no automation starts, e.g. "Blocked"`);
    }
    const done = starts(tracker.completionState);
    if (done) {
        problems.warnAt(['tracker', 'completion_state'], `${source_map_quoted(tracker.completionState ?? '')} starts automations[${done.index}] (${source_map_quoted(done.config.id)}), so the pipeline does not end there`);
    }
}
function checkAllowedStates(refs, known, problems) {
    for (const profile of Object.values(refs.profiles)) {
        const path = ['agent', 'profiles', profile.name, 'allowed_states'];
        profile.allowedStates.forEach((state, i) => checkState(state, [...path, i], known, problems));
        if (profile.allowedStates.length > 0 && !profile.allowedActions.includes('move_state')) {
            problems.warnAtKey(path, `has no effect: profile ${source_map_quoted(profile.name)} may not move the issue; add move_state to its allowed_actions`);
        }
    }
}
function checkReviewer(refs, problems) {
    const name = refs.reviewerProfile;
    if (refs.autoReview && !name) {
        problems.errorAt(['agent', 'auto_review'], 'needs agent.reviewer_profile; name the profile that reviews, or set auto_review: false');
    }
    if (!name || !checkProfile(name, ['agent', 'reviewer_profile'], refs, problems))
        return;
    if (refs.profiles[name]?.enabled === false) {
        problems.errorAt(['agent', 'reviewer_profile'], `profile ${source_map_quoted(name)} is disabled; enable it or name another profile`);
    }
}
function checkProfile(name, path, refs, problems) {
    if (refs.profileNames.includes(name))
        return true;
    const hint = problems.isFromEnv(path) ? '' : did_you_mean_didYouMean(name, refs.profileNames);
    const fallback = refs.profileNames.length > 0
        ? `; use one of: ${refs.profileNames.join(', ')}`
        : '; define it under agent.profiles';
    problems.errorAt(path, `no profile named ${problems.quote(path, name)}${hint || fallback}`);
    return false;
}
function checkState(state, path, known, problems) {
    if (known.some((k) => sameState(k, state)))
        return;
    const hint = problems.isFromEnv(path) ? '' : did_you_mean_didYouMean(state, known);
    problems.errorAt(path, `unknown state ${problems.quote(path, state)}${hint || '; add it to tracker.active_states or tracker.terminal_states'}`);
}

;// CONCATENATED MODULE: ./.build/config/schema-version.js
const SCHEMA_VERSION = 2;
/**
 * itervox_schema_version must be exactly 2. Anything else decides how the rest would be read,
 * so the caller stops at this error.
 */
function checkSchemaVersion(root, problems) {
    const version = root.itervox_schema_version;
    const at = problems.map.value(['itervox_schema_version']);
    if (version === undefined || version === null || version === 0) {
        problems.error(at, 'missing itervox_schema_version; add "itervox_schema_version: 2" as the first line of the front matter');
    }
    else if (version === 1) {
        problems.error(at, 'itervox_schema_version 1 is the legacy inline profile-prompt schema; move each profile prompt into the files named by soul_file and instructions_file (itervox-handoff init writes an example of each) and set itervox_schema_version: 2');
    }
    else if (typeof version === 'number' &&
        Number.isSafeInteger(version) &&
        version > SCHEMA_VERSION) {
        problems.error(at, `unsupported itervox_schema_version ${version}: this itervox-handoff reads version ${SCHEMA_VERSION}; write itervox_schema_version: ${SCHEMA_VERSION}, or use a newer itervox-handoff`);
    }
    else if (version !== SCHEMA_VERSION) {
        problems.error(at, 'itervox_schema_version must be the number 2; write itervox_schema_version: 2');
    }
}

// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
;// CONCATENATED MODULE: ./.build/config/yaml-tree.js


// A WORKFLOW.md has a few hundred nodes; these stop alias bombs and runaway nesting.
const MAX_DEPTH = 64;
const MAX_NODES = 100_000;
const TOO_DEEP = `YAML: nested more than ${MAX_DEPTH} levels deep; flatten it`;
class TooLarge extends Error {
    pos;
    constructor(message, pos) {
        super(message);
        this.pos = pos;
    }
}
/** Parses YAML that starts on file line `firstLine`, keeping every key's and value's position. */
function readYamlTree(text, firstLine) {
    const lineCounter = new dist/* LineCounter */.HN();
    const toPos = (offset) => {
        const { line, col } = lineCounter.linePos(offset);
        return { line: line + firstLine - 1, col };
    };
    const map = new SourceMap({ line: firstLine, col: 1 });
    const tree = { root: undefined, map, errors: [], warnings: [] };
    // yaml composes recursively, and deep recursion there can even abort the process (a regular
    // expression compiled near the stack limit), so the depth is checked on the flat CST first.
    const tokens = Array.from(new dist/* Parser */.iX(lineCounter.addNewLine).parse(text));
    const tooDeep = deepestCollection(tokens, MAX_DEPTH);
    if (tooDeep !== undefined) {
        tree.errors.push({ pos: toPos(tooDeep), message: TOO_DEEP });
        return tree;
    }
    // forceDoc: even empty text composes to one document.
    const [doc, extra] = Array.from(new dist/* Composer */.Dk({ uniqueKeys: false }).compose(tokens, true, text.length));
    if (!doc)
        return tree;
    if (extra) {
        tree.errors.push({
            pos: toPos(extra.range[0]),
            message: 'YAML: the front matter holds more than one document; remove the "..." line'
        });
    }
    for (const e of placedErrors(text, doc.errors)) {
        tree.errors.push({ pos: toPos(e.pos[0]), message: e.message });
    }
    for (const w of doc.warnings)
        tree.warnings.push({ pos: toPos(w.pos[0]), message: yamlMessage(w) });
    if (tree.errors.length > 0 || doc.contents === null)
        return tree;
    const converter = new Converter(doc, toPos, map, tree.errors);
    try {
        tree.root = converter.convert(doc.contents, [], undefined, 0);
    }
    catch (e) {
        if (!(e instanceof TooLarge))
            throw e;
        tree.errors.push({ pos: e.pos, message: e.message });
    }
    return tree;
}
const DEEPER = 'YAML: indented deeper than the key above, which already has a value; line it up with that key';
/**
 * yaml's errors, each where the user has to look. yaml puts a badly indented key at the start
 * of the blank and comment lines before it, and a key indented deeper than a key with a value
 * at that value, a line early (twice: as a nested and as a multi-line key).
 */
function placedErrors(text, errors) {
    const spansLine = (e) => text.slice(e.pos[0], e.pos[1]).includes('\n');
    const deeper = errors.filter((e) => e.code === 'MULTILINE_IMPLICIT_KEY' && spansLine(e));
    const out = [];
    for (const e of errors) {
        if (deeper.includes(e)) {
            const offset = contentAfter(text, text.indexOf('\n', e.pos[0]));
            out.push({ ...e, pos: [offset, offset], message: DEEPER });
        }
        else if (!(e.code === 'BLOCK_AS_IMPLICIT_KEY' && deeper.some((d) => d.pos[0] === e.pos[0]))) {
            const offset = e.code === 'BAD_INDENT' ? contentAfter(text, e.pos[0]) : e.pos[0];
            out.push({ ...e, pos: [offset, e.pos[1]], message: yamlMessage(e) });
        }
    }
    return out;
}
/** The offset of the first character at or after `from` that is not blank or a comment. */
function contentAfter(text, from) {
    const content = /[ \t\r\n]*(?:#[^\n]*[ \t\r\n]*)*/y;
    content.lastIndex = from;
    content.exec(text);
    return Math.min(content.lastIndex, text.length);
}
function yamlMessage(e) {
    return `YAML: ${e.message.replace(/\s+/g, ' ').trim()}`;
}
class Converter {
    doc;
    toPos;
    map;
    errors;
    nodes = 0;
    // Nodes being converted right now: an alias back to one of them is a cycle.
    active = new Set();
    // yaml's resolve() walks the document each time; an alias inside a repeated anchor is met
    // once per repetition.
    targets = new Map();
    constructor(doc, toPos, map, errors) {
        this.doc = doc;
        this.toPos = toPos;
        this.map = map;
        this.errors = errors;
    }
    convert(node, path, keyPos, depth) {
        const range = hasRange(node) ? node.range : undefined;
        const pos = range ? this.toPos(range[0]) : (keyPos ?? this.map.key(path));
        if (++this.nodes > MAX_NODES) {
            throw new TooLarge(`YAML: more than ${MAX_NODES} values (through aliases?); simplify it`, pos);
        }
        if (depth > MAX_DEPTH)
            throw new TooLarge(TOO_DEEP, pos);
        const empty = node == null || ((0,dist/* isScalar */.jn)(node) && node.value === null && range?.[0] === range?.[1]);
        const block = (0,dist/* isScalar */.jn)(node) && (node.type === dist/* Scalar */.X5.BLOCK_LITERAL || node.type === dist/* Scalar */.X5.BLOCK_FOLDED);
        this.map.set(path, { key: keyPos, value: pos, empty, block });
        if ((0,dist/* isAlias */.Vj)(node)) {
            const target = this.resolve(node);
            if (!target || this.active.has(target)) {
                this.errors.push({
                    pos,
                    message: `YAML: alias *${node.source} refers to itself or to nothing`
                });
                return null;
            }
            this.active.add(target);
            const value = this.convert(target, path, keyPos, depth + 1);
            this.active.delete(target);
            this.map.set(path, { key: keyPos, value: pos, empty: false, block: false });
            return value;
        }
        if ((0,dist/* isScalar */.jn)(node))
            return node.value;
        if ((0,dist/* isSeq */.oP)(node)) {
            this.active.add(node);
            const items = node.items.map((item, i) => this.convert(item, [...path, i], undefined, depth + 1));
            this.active.delete(node);
            return items;
        }
        if ((0,dist/* isMap */.jh)(node)) {
            this.active.add(node);
            const out = this.convertMap(node.items, path, pos, depth);
            this.active.delete(node);
            return out;
        }
        return null;
    }
    resolve(alias) {
        if (!this.targets.has(alias))
            this.targets.set(alias, alias.resolve(this.doc));
        return this.targets.get(alias);
    }
    convertMap(pairs, path, mapPos, depth) {
        const out = Object.create(null);
        for (const pair of pairs) {
            const key = pair.key;
            const keyPos = hasRange(key) ? this.toPos(key.range[0]) : mapPos;
            if (!(0,dist/* isScalar */.jn)(key)) {
                this.errors.push({
                    pos: keyPos,
                    message: 'YAML: keys must be plain text, not lists, maps or aliases'
                });
                continue;
            }
            const name = keyText(key);
            if (name === '') {
                this.errors.push({ pos: keyPos, message: 'YAML: a key is empty; write the key before ":"' });
                continue;
            }
            if (name === '<<' && key.type === dist/* Scalar */.X5.PLAIN) {
                this.errors.push({
                    pos: keyPos,
                    message: 'YAML merge keys ("<<") are not supported; write the keys out'
                });
                continue;
            }
            if (Object.hasOwn(out, name)) {
                this.errors.push({ pos: keyPos, message: `duplicate key ${source_map_quoted(name)}; keep only one` });
                continue;
            }
            out[name] = this.convert(pair.value, [...path, name], keyPos, depth + 1);
        }
        return out;
    }
}
/** The offset of a collection nested more than `limit` deep, found without recursion. */
function deepestCollection(tokens, limit) {
    const stack = tokens.map((token) => ({ token, depth: 0 }));
    for (let next = stack.pop(); next; next = stack.pop()) {
        const { token, depth } = next;
        if ('items' in token) {
            if (depth + 1 > limit)
                return token.offset;
            for (const item of token.items) {
                for (const child of [item.key, item.value]) {
                    if (child)
                        stack.push({ token: child, depth: depth + 1 });
                }
            }
        }
        else if (token.type === 'document' && token.value) {
            stack.push({ token: token.value, depth });
        }
    }
    return undefined;
}
// Keys are names: `1.0:` is the name "1.0", not the number 1.
function keyText(key) {
    if (typeof key.value === 'string')
        return key.value;
    if (key.value === null || key.value === undefined)
        return '';
    return key.source ?? String(key.value);
}
function hasRange(node) {
    return (typeof node === 'object' && node !== null && Array.isArray(node.range));
}

;// CONCATENATED MODULE: ./.build/config/load.js















const NO_FRONT_MATTER = 'missing itervox_schema_version: the file has no front matter (line 1 is not exactly "---"); ' +
    'start the file with a "---" line, "itervox_schema_version: 2" and the settings, then a closing "---"';
// itervox reads an unclosed front matter to the end of the file; when that fails, the prompt
// template was taken for settings, and yaml's errors would point into it.
const UNCLOSED = 'the front matter that starts here is never closed; add a "---" line after the last setting, before the prompt template';
/**
 * Reads WORKFLOW.md: front matter with positions, `$VAR` interpolation, schema checks, the
 * profile files. Every problem found is thrown at once as UserErrors, one line each.
 */
function parseWorkflow(text, opts) {
    const parts = splitFrontMatter(text);
    if (parts.frontMatter === null) {
        throw new errors/* UserErrors */.tQ([new errors/* UserError */.yo(NO_FRONT_MATTER, { file: opts.file, line: 1, col: 1 })]);
    }
    const tree = readYamlTree(parts.frontMatter, parts.frontMatterLine);
    if (parts.unclosed && tree.errors.length > 0) {
        throw new errors/* UserErrors */.tQ([new errors/* UserError */.yo(UNCLOSED, { file: opts.file, line: 1, col: 1 })]);
    }
    const problems = new Problems(opts.file, tree.map);
    for (const w of tree.warnings)
        problems.warn(w.pos, w.message);
    for (const e of tree.errors)
        problems.error(e.pos, e.message);
    problems.throwIfAny();
    const root = tree.root ?? Object.create(null);
    if (!isMap(root)) {
        problems.error(tree.map.value([]), 'the front matter must be "key: value" settings, starting with itervox_schema_version: 2');
        return problems.fail();
    }
    checkSchemaVersion(root, problems);
    problems.throwIfAny();
    const { env } = opts;
    parseSection(rootSchema, sectionInput(root, [], 'root', problems, {}), [], 'root', problems);
    const section = (name, schema, raw, verbatim) => {
        const input = sectionInput(raw, [name], name, problems, { env, verbatim });
        return parseSection(schema, input, [name], name, problems);
    };
    const tracker = section('tracker', trackerSchema, root.tracker);
    const workspace = section('workspace', workspaceSchema, root.workspace ?? {});
    // Profiles are checked one by one below.
    const agent = section('agent', agentSchema, root.agent ?? {}, ['profiles']);
    const handoff = section('handoff', handoffSchema, root.handoff ?? {});
    const rawProfiles = isMap(root.agent) && isMap(root.agent.profiles) ? root.agent.profiles : {};
    const profiles = Object.create(null);
    const profileContext = {
        problems,
        env,
        baseDir: opts.baseDir ?? external_node_path_.posix.dirname(opts.file.replace(/\\/g, '/')),
        readFile: opts.readFile,
        defaultCommand: agent?.command ?? 'claude'
    };
    for (const [name, raw] of Object.entries(rawProfiles)) {
        const profile = readProfile(name, raw, profileContext);
        if (profile)
            profiles[name] = profile;
    }
    const automations = [];
    if (Array.isArray(root.automations)) {
        root.automations.forEach((raw, i) => {
            const read = readAutomation(raw, i, problems, env);
            if (read)
                automations.push(read);
        });
    }
    const trackerConfig = tracker && {
        kind: tracker.kind,
        apiKey: tracker.api_key,
        projectSlug: tracker.project_slug,
        activeStates: tracker.active_states,
        terminalStates: tracker.terminal_states,
        completionState: tracker.completion_state,
        failedState: tracker.failed_state,
        allowedBots: tracker.allowed_bots
    };
    checkReferences({
        tracker: trackerConfig,
        reviewerProfile: agent?.reviewer_profile,
        autoReview: agent?.auto_review ?? false,
        profileNames: Object.keys(rawProfiles),
        profiles,
        automations
    }, problems);
    if (problems.failed || !trackerConfig || !workspace || !agent || !handoff)
        return problems.fail();
    const config = {
        file: opts.file,
        tracker: trackerConfig,
        workspace: { baseBranch: workspace.base_branch },
        agent: {
            command: agent.command,
            maxTurns: agent.max_turns,
            maxRetries: agent.max_retries,
            stallTimeoutMs: agent.stall_timeout_ms,
            turnTimeoutMs: agent.turn_timeout_ms,
            reviewerProfile: agent.reviewer_profile,
            autoReview: agent.auto_review,
            maxReviewRounds: agent.max_review_rounds,
            profiles
        },
        automations: automations.map((a) => a.config),
        handoff: {
            budgetBytes: handoff.budget_bytes,
            maxFileBytes: handoff.max_file_bytes,
            maxFiles: handoff.max_files
        },
        body: parts.body,
        bodyLine: parts.bodyLine
    };
    return { config, warnings: problems.warnings };
}
// A WORKFLOW.md is a few KiB; the cap keeps a runaway file from filling memory.
const WORKFLOW_MAX_BYTES = (/* unused pure expression or super */ null && (1024 * 1024));
/** WORKFLOW.md's text from disk: a regular file of at most 1 MiB, or a UserError saying why not. */
function readWorkflowText(path) {
    try {
        return readCappedText(path, WORKFLOW_MAX_BYTES);
    }
    catch (e) {
        if (e instanceof FileRefused && (e.reason === 'missing' || e.reason === 'unreadable')) {
            throw new UserError(`cannot read the workflow file (${e.code}); check the path`, {
                file: path
            });
        }
        throw e;
    }
}
/** Reads WORKFLOW.md from disk; profile files are found relative to its folder. */
function loadWorkflowFile(path, env = process.env) {
    const text = readWorkflowText(path);
    const dir = dirname(resolve(path));
    const root = repoRootOf(dir);
    return parseWorkflow(text, {
        file: path,
        env,
        baseDir: repoRelativeDir(root, dir),
        readFile: (relPath) => readRepoFile(root, relPath)
    });
}
/** `file:line:col: warning: message`. */
function formatWarning(w) {
    return `${formatLocation(w.location)}: warning: ${w.message}`;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
;// CONCATENATED MODULE: ./.build/git/git.js





/**
 * The one place that runs git. Every call is hardened against what an agent may plant: hooks,
 * fsmonitor, the ssh command, the credential helper and the `ext::` transport are overridden on
 * the command line (which outranks every config file), system and global config and the
 * environment's GIT_* variables are not read, and replace refs are ignored. What only the
 * repository's own config could still do (`url.*.insteadOf`, filters, URL-specific helpers) is
 * undone by restoring `.git/config` (guard.ts) before anything is committed or pushed.
 */
const HARDENING = [
    '-c',
    'core.hooksPath=/dev/null',
    '-c',
    'core.fsmonitor=false',
    '-c',
    'core.sshCommand=ssh',
    '-c',
    'credential.helper=',
    '-c',
    'protocol.ext.allow=never',
    // Bare origins in tests and local use are plain paths.
    '-c',
    'protocol.file.allow=always',
    // The default attributes file lives in the agent's home and could pick merge drivers.
    '-c',
    'core.attributesFile=/dev/null'
];
/** The base64 credential checkout uses; callers mask it (and the token) in logs. */
function basicCredential(token) {
    return Buffer.from(`x-access-token:${token}`, 'utf8').toString('base64');
}
/** Runs git in `cwd`; stdout as UTF-8 text. */
async function git_git(cwd, args, opts = {}) {
    const r = await gitBytes(cwd, args, opts);
    return { stdout: r.stdout.toString('utf8'), stderr: r.stderr, code: r.code };
}
/** Runs git in `cwd`; stdout as bytes (raw tree objects, file contents). */
function gitBytes(cwd, args, opts = {}) {
    const { file, args: prefix, env } = gitInvocation(cwd, opts);
    const ok = opts.okCodes ?? [];
    return new Promise((resolve, reject) => {
        const child = (0,external_node_child_process_.execFile)(file, [...prefix, ...args], {
            cwd,
            env,
            encoding: 'buffer',
            maxBuffer: 512 * 1024 * 1024,
            windowsHide: true
        }, (err, stdout, stderrBytes) => {
            const stderr = stderrBytes.toString('utf8');
            if (!err)
                return resolve({ stdout, stderr, code: 0 });
            const code = typeof err.code === 'number' ? err.code : null;
            if (code !== null && ok.includes(code))
                return resolve({ stdout, stderr, code });
            reject(gitFailure(cwd, args, code, stderr || `could not run ${file} in ${cwd}: ${err.message}`));
        });
        child.stdin?.on('error', () => {
            // git may exit before reading all of stdin; its exit status tells what happened.
        });
        child.stdin?.end(opts.input);
    });
}
/**
 * The executable, options and environment every git we start gets, whether run once (`git`,
 * `gitBytes`) or kept running (objects.ts). Callers add their own options after `args`.
 */
function gitInvocation(cwd, opts = {}) {
    const { file, pathEnv } = gitExecutable();
    return {
        file,
        // The workspace we were given is ours even when another user owns it (container jobs,
        // where checkout's own exception lives in a global config we do not read).
        args: [...HARDENING, '-c', `safe.directory=${cwd}`],
        env: gitEnv(pathEnv, opts)
    };
}
function gitEnv(pathEnv, opts) {
    const env = {};
    // GIT_DIR, GIT_INDEX_FILE, GIT_CONFIG_PARAMETERS, GIT_SSH_COMMAND... would redirect us.
    for (const [k, v] of Object.entries(process.env))
        if (!k.startsWith('GIT_'))
            env[k] = v;
    Object.assign(env, {
        PATH: pathEnv,
        GIT_CONFIG_NOSYSTEM: '1',
        // Always empty and not writable by an agent running as our user.
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_TERMINAL_PROMPT: '0',
        GIT_NO_REPLACE_OBJECTS: '1',
        // Messages are parsed (push rejections), so they must not be translated.
        LC_ALL: 'C'
    });
    if (opts.auth)
        Object.assign(env, authEnv(opts.auth));
    Object.assign(env, opts.env);
    return env;
}
/**
 * The header travels in command-scope config from the environment, so it is in no file and
 * in no argv (nor in a GitError). The empty value first drops any header checkout persisted
 * for the same server, which would otherwise be sent too.
 */
function authEnv(auth) {
    const key = `http.${new URL(auth.serverUrl).origin}/.extraheader`;
    return {
        GIT_CONFIG_COUNT: '2',
        GIT_CONFIG_KEY_0: key,
        GIT_CONFIG_VALUE_0: '',
        GIT_CONFIG_KEY_1: key,
        GIT_CONFIG_VALUE_1: `AUTHORIZATION: basic ${basicCredential(auth.token)}`
    };
}
let resolved;
/** Which git to run, fixed for the life of the process (see chooseGit). */
function gitExecutable() {
    resolved ??= chooseGit(process.env.PATH ?? '', writable);
    return resolved;
}
/**
 * PATH directories we can write to are passed over when another has git, and left out of the
 * PATH git's own children see, because an agent running as our user could plant a `git` (or an
 * `ssh`) there: `~/.local/bin` precedes `/usr/bin` on hosted runners. As root nothing is out of
 * the agent's reach, so PATH is used as it is.
 */
function chooseGit(pathEnv, canWrite) {
    const dirs = pathEnv.split(external_node_path_.delimiter).filter((d) => external_node_path_.isAbsolute(d));
    const locked = dirs.filter((d) => !canWrite(d));
    const safe = findGit(locked);
    return safe
        ? { file: safe, pathEnv: locked.join(external_node_path_.delimiter) }
        : { file: findGit(dirs) ?? 'git', pathEnv };
}
function writable(p) {
    try {
        (0,external_node_fs_.accessSync)(p, external_node_fs_.constants.W_OK);
        return true;
    }
    catch {
        return false;
    }
}
function findGit(dirs) {
    for (const d of dirs) {
        const candidate = external_node_path_.join(d, 'git');
        try {
            if (!(0,external_node_fs_.statSync)(candidate).isFile())
                continue;
            (0,external_node_fs_.accessSync)(candidate, external_node_fs_.constants.X_OK);
            return candidate;
        }
        catch {
            // not in this directory
        }
    }
    return undefined;
}
/** Below this, git lacks the fixes for CVE-2025-48384 and its siblings (as shipped by distros). */
const SAFE_GIT_VERSION = '2.39.5';
/** `git merge-tree --write-tree`, which the push retry rebuilds commits with, arrived in 2.38. */
const PUSH_GIT_VERSION = '2.38.0';
function parseGitVersion(text) {
    const m = /git version (\d+)\.(\d+)(?:\.(\d+))?/.exec(text);
    if (!m)
        throw new GitError(['--version'], 0, `unrecognised version: ${text.trim()}`);
    const [, major = '', minor = '', patch = '0'] = m;
    return { major: +major, minor: +minor, patch: +patch, text: `${major}.${minor}.${patch}` };
}
function versionAtLeast(v, min) {
    const [a = 0, b = 0, c = 0] = min.split('.').map(Number);
    return v.major !== a ? v.major > a : v.minor !== b ? v.minor > b : v.patch >= c;
}
let version;
function gitVersion() {
    version ??= git_git('/', ['--version']).then((r) => parseGitVersion(r.stdout));
    return version;
}
/** The installed git's version, and a warning to show when it is older than the safe minimum. */
async function minimumVersion() {
    const v = await gitVersion();
    const warning = versionWarning(v);
    return warning ? { version: v, warning } : { version: v };
}
function versionWarning(v) {
    if (versionAtLeast(v, SAFE_GIT_VERSION))
        return undefined;
    return `git ${v.text} is older than ${SAFE_GIT_VERSION} and may lack the fixes for CVE-2025-48384 and related flaws; update git on this runner`;
}

;// CONCATENATED MODULE: ./.build/git/lstat.js

/** lstat that answers null when nothing is there (or a parent is not a directory). */
async function lstatOrNull(p) {
    try {
        return await (0,promises_.lstat)(p);
    }
    catch (e) {
        const code = e.code;
        if (code === 'ENOENT' || code === 'ENOTDIR')
            return null;
        throw e;
    }
}

;// CONCATENATED MODULE: ./.build/git/repo.js




/** The top of the git checkout that holds `dir`; a user error outside one. */
async function repoRoot(dir) {
    const r = await git(dir, ['rev-parse', '--show-toplevel'], { okCodes: [128] });
    if (r.code !== 0) {
        throw new UserError(`${dir} is not inside a git repository; run this in your project's checkout`);
    }
    return r.stdout.trim();
}
/** The commit a revision names, or null when it names none (e.g. HEAD of a new repository). */
async function resolveCommit(repo, rev) {
    const r = await git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`], {
        okCodes: [1, 128]
    });
    return r.code === 0 ? r.stdout.trim() : null;
}
/** Whether the clone is shallow: git keeps the shallow commits in `.git/shallow`, so that says. */
async function isShallow(repo) {
    const gitDir = await lstatOrNull(external_node_path_.join(repo, '.git'));
    if (gitDir?.isDirectory()) {
        return ((await lstatOrNull(external_node_path_.join(repo, '.git', 'shallow')))?.size ?? 0) > 0;
    }
    const r = await git_git(repo, ['rev-parse', '--is-shallow-repository']);
    return r.stdout.trim() === 'true';
}

;// CONCATENATED MODULE: ./.build/git/fork-point.js
// Where an issue branch left its base branch. Handoffs committed there were on the base branch
// already (earlier issues' trails, merged with their pull requests), so they are not this
// issue's; only what the branch added since is.



// Commits added per round before giving up on small steps and fetching all of history.
const DEEPEN_STEPS = [250, 2500];
/**
 * The merge-base of `head` and `base`. A shallow clone is deepened until git finds it (all of
 * history at worst); a branch that truly shares no history with its base is an error, since
 * every handoff on it might then be another issue's.
 */
async function forkPoint(o) {
    let found = await mergeBase(o.repo, o.head, o.base);
    if (found)
        return found;
    if (o.deepen) {
        const { remote, refspecs, auth } = o.deepen;
        const fetch = (how) => git_git(o.repo, ['fetch', '--no-tags', '--recurse-submodules=no', how, remote, ...refspecs], {
            ...(auth ? { auth } : {})
        });
        for (const step of DEEPEN_STEPS) {
            if (!(await isShallow(o.repo)))
                break;
            await fetch(`--deepen=${step}`);
            found = await mergeBase(o.repo, o.head, o.base);
            if (found)
                return found;
        }
        if (await isShallow(o.repo)) {
            await fetch('--unshallow');
            found = await mergeBase(o.repo, o.head, o.base);
            if (found)
                return found;
        }
    }
    else if (await isShallow(o.repo)) {
        throw new errors/* UserError */.yo(`cannot tell which handoffs are ${o.branch}'s own: this clone is shallow and does not reach where it left ${o.baseBranch}; run git fetch --unshallow`);
    }
    throw new errors/* UserError */.yo(`cannot tell which handoffs are ${o.branch}'s own: it shares no history with ${o.baseBranch}, so any of them may be another issue's; rebase it onto ${o.baseBranch}`);
}
async function mergeBase(repo, a, b) {
    const r = await git_git(repo, ['merge-base', a, b], { okCodes: [1] });
    return r.code === 0 ? r.stdout.trim() : null;
}

;// CONCATENATED MODULE: ./.build/git/raw-tree.js
class RawTree {
    data;
    oidBytes;
    /** Entry i is `data[start[i], nul[i])` (`<mode> <name>`), then its oid. */
    start;
    space;
    nul;
    count;
    constructor(data, oidBytes) {
        this.data = data;
        this.oidBytes = oidBytes;
        // A byte loop: most names are short, and calling indexOf twice an entry costs more.
        const start = [];
        const space = [];
        const nul = [];
        const n = data.length;
        let i = 0;
        while (i < n) {
            let sp = i;
            while (sp < n && data[sp] !== 0x20)
                sp++;
            let end = sp + 1;
            while (end < n && data[end] !== 0)
                end++;
            if (end >= n || end + 1 + oidBytes > n)
                throw new Error('malformed git tree object');
            start.push(i);
            space.push(sp);
            nul.push(end);
            i = end + 1 + oidBytes;
        }
        this.start = Int32Array.from(start);
        this.space = Int32Array.from(space);
        this.nul = Int32Array.from(nul);
        this.count = start.length;
    }
    /** The name, decoded as UTF-8 (bytes that are not UTF-8 come out as U+FFFD). */
    name(i) {
        return this.data.toString('utf8', this.space[i] + 1, this.nul[i]);
    }
    /** Six digits, as `git ls-tree` shows them. */
    mode(i) {
        return this.data.toString('latin1', this.start[i], this.space[i]).padStart(6, '0');
    }
    oid(i) {
        const at = this.nul[i] + 1;
        return this.data.toString('hex', at, at + this.oidBytes);
    }
    entry(i) {
        const mode = this.mode(i);
        return {
            mode,
            type: mode === '040000' ? 'tree' : mode === '160000' ? 'commit' : 'blob',
            oid: this.oid(i),
            size: null,
            name: this.name(i)
        };
    }
    entries() {
        return Array.from({ length: this.count }, (_, i) => this.entry(i));
    }
    /** Byte order of entry i's name against entry j's of `other` (negative: i's is first). */
    compareNames(i, other, j) {
        // A byte loop: neighbouring names differ early, and a native call per pair costs more.
        const a = this.data;
        const b = other.data;
        let x = this.space[i] + 1;
        let y = other.space[j] + 1;
        const xEnd = this.nul[i];
        const yEnd = other.nul[j];
        for (; x < xEnd && y < yEnd; x++, y++) {
            if (a[x] !== b[y])
                return a[x] - b[y];
        }
        return xEnd - x - (yEnd - y);
    }
    /** Where entry i's name starts in `data`; it ends at `nameEnd(i)`. */
    nameStart(i) {
        return this.space[i] + 1;
    }
    nameEnd(i) {
        return this.nul[i];
    }
    /** True when entry i's mode is exactly `100644`, a plain file. */
    isPlainFile(i) {
        const d = this.data;
        const m = this.start[i];
        return (this.space[i] - m === 6 &&
            d[m] === 0x31 &&
            d[m + 1] === 0x30 &&
            d[m + 2] === 0x30 &&
            d[m + 3] === 0x36 &&
            d[m + 4] === 0x34 &&
            d[m + 5] === 0x34);
    }
    sameOid(i, other, j) {
        const a = this.nul[i] + 1;
        const b = other.nul[j] + 1;
        return this.data.compare(other.data, b, b + other.oidBytes, a, a + this.oidBytes) === 0;
    }
    /**
     * True when the names rise strictly in byte order from entry `from` on. Git sorts a subdirectory as if its name
     * ended in `/`, so a valid tree can fail this (`a` a directory beside `a.md`); so can a
     * hand-made, unsorted one.
     */
    namesAscend(from = 0) {
        for (let i = from + 1; i < this.count; i++)
            if (this.compareNames(i - 1, this, i) >= 0)
                return false;
        return true;
    }
    /** How many leading entries are byte for byte the same in `other`. */
    commonLeadingEntries(other) {
        if (this.oidBytes !== other.oidBytes)
            return 0;
        // Identical bytes from the start index the same entries, so a binary search over this
        // tree's entry ends finds the longest shared run of whole entries.
        const endOf = (i) => this.nul[i - 1] + 1 + this.oidBytes;
        let lo = 0;
        let hi = Math.min(this.count, other.count);
        while (lo < hi) {
            const mid = Math.ceil((lo + hi) / 2);
            const end = endOf(mid);
            const same = end <= other.data.length && this.data.compare(other.data, 0, end, 0, end) === 0;
            if (same)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }
}

;// CONCATENATED MODULE: ./.build/git/objects.js
// Reads trees and blobs straight from git's object store, so committed files are never read
// through the file system (a committed symlink is only ever a blob holding its target). This is
// the only place the handoff engine runs git: one long-lived `git cat-file --batch-command`
// (git 2.36+), started with an argv array, never a shell, through git.ts's `gitInvocation` (the
// same executable, hardening and environment as every other git we run), and with nothing from
// the repository's config or the environment able to run a program, reach the network or swap
// an object. Trees are read as raw objects, so listing a directory costs one object however many
// files it holds; blob sizes are asked only for the blobs that may be read.





// Added to git.ts's hardening. No transport at all, so a partial clone cannot fetch a missing
// object behind our back: `protocol.file.allow=always` there would outrank `protocol.allow`.
const GIT_OPTIONS = [
    '-c',
    'protocol.allow=never',
    '-c',
    'protocol.file.allow=never',
    '--no-replace-objects'
];
const OID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const MAX_STDERR = 4096;
// 16 MiB of tree is some 250,000 entries: far beyond any handoff directory, and a bound on
// what one listing can cost.
const MAX_TREE_BYTES = 16 * 1024 * 1024;
// One reader per repository for the whole stage (see sharedObjects): every git object a stage
// reads goes through it, so a stage starts one `cat-file` however many readers it has.
const shared = new Map();
/** The stage's object reader of `repo`, started on first use; `closeSharedObjects` ends it. */
function sharedObjects(repo) {
    const dir = external_node_path_.resolve(repo);
    let objects = shared.get(dir);
    if (!objects)
        shared.set(dir, (objects = new GitObjects(dir)));
    return objects;
}
/** Ends every shared reader: at the end of a stage. */
async function closeSharedObjects() {
    const all = [...shared.values()];
    shared.clear();
    await Promise.all(all.map((o) => o.close()));
}
class GitObjects {
    repoDir;
    batch;
    batchExit;
    batchError;
    waiting = [];
    chunks = [];
    buffered = 0;
    stderr = '';
    maxTreeBytes;
    constructor(repoDir, opts = {}) {
        this.repoDir = repoDir;
        this.maxTreeBytes = opts.maxTreeBytes ?? MAX_TREE_BYTES;
    }
    /**
     * Lists the directory `dir` (repo-relative, forward slashes) at `commitish`. A `dir` that is
     * a symlink, a gitlink or a file, or sits under one, is `other` and nothing of it is listed.
     */
    async listTree(commitish, dir) {
        const found = await this.findTree(commitish, dir);
        if (found.kind !== 'tree')
            return { ...found, entries: [] };
        return { kind: 'tree', entries: (await this.readRawTree(found)).entries() };
    }
    /** Where `dir` is at `commitish`, without reading its entries (see `listTree`). */
    async findTree(commitish, dir) {
        if (commitish === '' || /[\0\n\r]/.test(commitish)) {
            throw new Error(`not a commit: ${JSON.stringify(commitish)}`);
        }
        const parts = checkDir(dir);
        const [root] = await this.request('info', [`${commitish}^{tree}`]);
        if (!root)
            throw new Error(`git has no commit or tree ${JSON.stringify(commitish)}`);
        const [self] = parts.length ? await this.request('info', [`${root.oid}:${dir}`]) : [root];
        const what = `${dir} at ${commitish}`;
        if (self?.type === 'tree') {
            this.checkTreeSize(self.size, what);
            return { kind: 'tree', oid: self.oid, size: self.size, what };
        }
        // Missing, or not a directory: walk down from the root to say which.
        let tree = root;
        for (let i = 0; i < parts.length; i++) {
            const here = parts.slice(0, i).join('/') || '/';
            const raw = await this.readRawTree({ ...tree, what: `${here} at ${commitish}` });
            const entry = raw.entries().find((e) => e.name === parts[i]);
            if (!entry)
                return { kind: 'missing' };
            const path = parts.slice(0, i + 1).join('/');
            if (entry.type !== 'tree')
                return { kind: 'other', mode: entry.mode, path };
            tree = { oid: entry.oid };
        }
        return { kind: 'missing' };
    }
    /** A tree's entries, indexed but not yet parsed (`findTree` says where it is). */
    async readRawTree(tree) {
        const { what } = tree;
        const [info] = tree.size === undefined ? await this.request('info', [tree.oid]) : [tree];
        if (info?.size === undefined)
            throw new Error(`${what}: tree ${tree.oid} is missing`);
        this.checkTreeSize(info.size, what);
        const [found] = await this.request('contents', [tree.oid]);
        if (found?.type !== 'tree' || !found.data)
            throw new Error(`${what}: ${tree.oid} is not a tree`);
        return new RawTree(found.data, tree.oid.length / 2);
    }
    /** The object id `rev` names (`refs/remotes/origin/main^{commit}`), or null when none. */
    async resolve(rev) {
        if (rev === '' || /[\0\n\r]/.test(rev))
            throw new Error(`not a revision: ${JSON.stringify(rev)}`);
        const [found] = await this.request('info', [rev]);
        return found?.oid ?? null;
    }
    /** The raw bytes of a commit or a tree, as git stores them (to be hashed, or parsed). */
    async readObject(oid, type) {
        const [id] = checkOids([oid]);
        const [found] = await this.request('contents', [id]);
        if (!found?.data)
            throw new Error(`git object ${oid} is missing`);
        if (found.type !== type)
            throw new Error(`git object ${oid} is a ${found.type}, not a ${type}`);
        return found.data;
    }
    /** The sizes of blobs, without reading them. */
    async blobSizes(oids) {
        const unique = checkOids(oids);
        const found = await this.request('info', unique);
        const sizes = new Map();
        unique.forEach((oid, i) => sizes.set(oid, blob(oid, found[i] ?? null).size));
        return sizes;
    }
    /** The contents of blobs. */
    async readBlobs(oids) {
        const unique = checkOids(oids);
        const found = await this.request('contents', unique);
        const blobs = new Map();
        unique.forEach((oid, i) => blobs.set(oid, blob(oid, found[i] ?? null).data));
        return blobs;
    }
    async close() {
        if (!this.batch)
            return;
        // Held open until git has exited, which an idle reader would not wait for.
        this.batch.ref();
        this.batch.stdin.end();
        await this.batchExit;
        this.batch = undefined;
    }
    checkTreeSize(size, what) {
        if (size > this.maxTreeBytes) {
            throw new errors/* UserError */.yo(`${what} is a ${size}-byte directory, over the ${this.maxTreeBytes}-byte limit; remove old files from it`);
        }
    }
    request(kind, names) {
        if (names.length === 0)
            return Promise.resolve([]);
        const proc = this.startBatch();
        const replies = names.map((name) => new Promise((resolve, reject) => {
            if (this.batchError)
                return reject(this.batchError);
            this.waiting.push({ kind, name, resolve, reject });
        }));
        proc.stdin.write(names.map((n) => `${kind} ${n}\n`).join(''));
        proc.stdout.ref();
        return Promise.all(replies);
    }
    startBatch() {
        if (this.batch)
            return this.batch;
        // The same git, hardening and environment as every other git we run (git.ts).
        const { file, args, env } = gitInvocation(this.repoDir, { env: { GIT_NO_LAZY_FETCH: '1' } });
        const child = (0,external_node_child_process_.spawn)(file, [...args, ...GIT_OPTIONS, 'cat-file', '--batch-command'], {
            cwd: this.repoDir,
            env,
            stdio: ['pipe', 'pipe', 'pipe']
        });
        this.batch = child;
        this.batchError = undefined;
        this.chunks = [];
        this.buffered = 0;
        this.stderr = '';
        // An idle reader never keeps the process alive (only a pending reply does), so a stage's
        // shared reader that nothing closed cannot hold a finished step open.
        child.unref();
        for (const stream of [child.stdin, child.stdout, child.stderr])
            stream.unref();
        child.stdout.on('data', (d) => this.onData(d));
        child.stderr.on('data', (d) => {
            if (this.stderr.length < MAX_STDERR)
                this.stderr += d.toString('utf8');
        });
        // A write after git died fails with EPIPE; the exit below reports why.
        child.stdin.on('error', () => undefined);
        this.batchExit = new Promise((resolve) => {
            const fail = (why) => {
                const old = /batch-command/.test(this.stderr) ? ' (git 2.36 or later is needed)' : '';
                this.batchError = new Error(`git cat-file ${why}: ${firstLine(this.stderr)}${old}`);
                for (const p of this.waiting.splice(0))
                    p.reject(this.batchError);
                this.batch = undefined;
                resolve();
            };
            child.on('error', (e) => fail(`could not start (${e.message})`));
            child.on('close', (code) => fail(`exited (${code})`));
        });
        return child;
    }
    // Replies come in request order: `<oid> <type> <size>\n`, then for `contents` the bytes and
    // `\n`; or `<name> missing\n` (also `ambiguous`).
    onData(chunk) {
        this.chunks.push(chunk);
        this.buffered += chunk.length;
        for (let p = this.waiting[0]; p; p = this.waiting[0]) {
            if (!p.header) {
                const nl = this.findNewline();
                if (nl < 0)
                    return;
                const line = this.take(nl + 1).toString('utf8', 0, nl);
                const m = /^([0-9a-f]+) (\S+) (\d+)$/.exec(line);
                if (!m) {
                    this.waiting.shift();
                    if (line.endsWith(' missing'))
                        p.resolve(null);
                    else
                        p.reject(new Error(`git cat-file: ${p.name}: ${line}`));
                    continue;
                }
                const [, oid = '', type = '', size = ''] = m;
                p.header = { oid, type, size: Number(size) };
                if (p.kind === 'info') {
                    this.waiting.shift();
                    p.resolve(p.header);
                    continue;
                }
            }
            if (this.buffered < p.header.size + 1)
                return;
            const data = this.take(p.header.size);
            this.take(1);
            this.waiting.shift();
            p.resolve({ ...p.header, data });
        }
        if (this.waiting.length === 0)
            this.batch?.stdout?.unref();
    }
    findNewline() {
        let offset = 0;
        for (const c of this.chunks) {
            const i = c.indexOf(0x0a);
            if (i >= 0)
                return offset + i;
            offset += c.length;
        }
        return -1;
    }
    take(n) {
        const parts = [];
        let need = n;
        while (need > 0) {
            const c = this.chunks[0];
            // Callers take only what `buffered` says has arrived.
            if (!c)
                throw new Error(`git cat-file: ${n} bytes asked for, ${n - need} buffered`);
            if (c.length <= need) {
                parts.push(c);
                this.chunks.shift();
                need -= c.length;
            }
            else {
                parts.push(c.subarray(0, need));
                this.chunks[0] = c.subarray(need);
                need = 0;
            }
        }
        this.buffered -= n;
        return parts.length === 1 ? parts[0] : Buffer.concat(parts, n);
    }
}
function blob(oid, found) {
    if (!found)
        throw new Error(`git object ${oid} is missing`);
    if (found.type !== 'blob')
        throw new Error(`git object ${oid} is a ${found.type}, not a blob`);
    return found;
}
function checkOids(oids) {
    const unique = [...new Set(oids)];
    for (const oid of unique)
        if (!OID.test(oid))
            throw new Error(`not an object id: ${oid}`);
    return unique;
}
/** The parts of a repo-relative directory; none for `''`, the root. */
function checkDir(dir) {
    if (dir === '')
        return [];
    const parts = dir.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || /[\0\n\r]/.test(p))) {
        throw new Error(`not a repository-relative directory: ${JSON.stringify(dir)}`);
    }
    return parts;
}
function firstLine(text) {
    return text.trim().split('\n')[0] || 'no message';
}

;// CONCATENATED MODULE: ./.build/git/branch.js








const DEFAULT_DEPTH = 100;
/**
 * Lists `branches` on the remote with one `ls-remote` and fetches those it has with one
 * `fetch` (shallow when the workspace is), making the repository first when there is none.
 */
async function fetchHeads(o) {
    const remote = o.remote ?? 'origin';
    const repo = external_node_path_.resolve(o.repo);
    const asked = [...new Set(o.branches)];
    for (const name of asked)
        await validateBranchName(name);
    validateRemoteName(remote);
    const fresh = await ensureRepository(repo, remote, o.remoteUrl);
    await removeStaleLocks(repo);
    const listed = await remoteHeads(repo, remote, asked, o.auth);
    const present = asked.filter((name) => listed.has(name));
    const heads = new Map();
    if (present.length === 0)
        return { remote, asked, heads };
    const depth = o.depth ?? DEFAULT_DEPTH;
    const shallow = fresh || (await isShallow(repo));
    await git_git(repo, [
        'fetch',
        '--no-tags',
        '--recurse-submodules=no',
        ...(shallow && depth > 0 ? [`--depth=${depth}`] : []),
        remote,
        ...present.map((name) => refspec(remote, name))
    ], { auth: o.auth });
    const objects = sharedObjects(repo);
    for (const name of present) {
        const sha = await objects.resolve(`${tracking(remote, name)}^{commit}`);
        if (!sha)
            throw new Error(`fetching ${name} left no ${tracking(remote, name)}`);
        heads.set(name, sha);
    }
    return { remote, asked, heads };
}
const tracking = (remote, name) => `refs/remotes/${remote}/${name}`;
const refspec = (remote, name) => `+refs/heads/${name}:${tracking(remote, name)}`;
/**
 * Checks out the issue branch: fetched from the remote when it exists there, otherwise made from
 * the remote's base branch. Works after `actions/checkout` (any depth, detached or not), in a
 * dirty reused workspace, and in an empty directory. What `fetched` already says of both
 * branches is not asked of the remote again.
 */
async function prepareIssueBranch(o) {
    const remote = o.remote ?? 'origin';
    const repo = external_node_path_.resolve(o.repo);
    const known = o.fetched?.remote === remote &&
        o.fetched.asked.includes(o.branch) &&
        o.fetched.asked.includes(o.base);
    const { heads } = known && o.fetched ? o.fetched : await fetchHeads({ ...o, branches: [o.branch, o.base] });
    // An existing branch needs its base too, to tell its own handoffs from earlier issues'.
    const baseHead = heads.get(o.base);
    if (!baseHead)
        throw new errors/* UserError */.yo(`the base branch "${o.base}" does not exist on ${remote}`);
    const head = heads.get(o.branch);
    const created = head === undefined;
    const baseSha = head ?? baseHead;
    const refspecs = created
        ? [refspec(remote, o.base)]
        : [o.branch, o.base].map((n) => refspec(remote, n));
    const forkSha = created
        ? baseSha
        : await forkPoint({
            repo,
            head: baseSha,
            base: tracking(remote, o.base),
            branch: o.branch,
            baseBranch: o.base,
            deepen: { remote, refspecs, ...(o.auth ? { auth: o.auth } : {}) }
        });
    // --force: a reused workspace may hold changes or untracked files in the way.
    await git_git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', o.branch, baseSha]);
    return { branch: o.branch, baseSha, forkSha, created };
}
/**
 * A branch name git accepts as it is (no `@{-1}` expansion, no leading dash), by the rules of
 * git-check-ref-format(1) for `refs/heads/<name>`. Names come from issues and pull requests,
 * so they are data: checked here and only ever passed as argv.
 */
function validateBranchName(name) {
    return badBranchName(name)
        ? Promise.reject(new errors/* UserError */.yo(`"${name}" is not a valid branch name`))
        : Promise.resolve(name);
}
function badBranchName(name) {
    return (name === '' ||
        name === 'HEAD' ||
        name === '@' ||
        name.startsWith('-') ||
        name.endsWith('.') ||
        [...name].some((c) => c <= ' ' || c === '\x7f') ||
        /[~^:?*[\\]|\.\.|@\{/.test(name) ||
        name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock')));
}
function validateRemoteName(name) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
        throw new errors/* UserError */.yo(`"${name}" is not a valid remote name`);
    }
}
/**
 * Points `branch` at `sha`, makes it HEAD and resets the index and worktree to it, in one git.
 * The hardened config switches off any hook a repository declares.
 */
async function resetBranchTo(repo, branch, sha) {
    await git_git(repo, ['checkout', '--quiet', '--force', '--no-track', '-B', branch, sha]);
}
/** True when a new repository had to be made (nothing to reuse). */
async function ensureRepository(repo, remote, url) {
    const fresh = !(await lstatOrNull(external_node_path_.join(repo, '.git')));
    if (fresh) {
        await (0,promises_.mkdir)(repo, { recursive: true });
        await git_git(repo, ['init', '--quiet']);
    }
    const has = await git_git(repo, ['config', '--get', `remote.${remote}.url`], { okCodes: [1] });
    if (has.code === 1) {
        if (!url) {
            throw new errors/* UserError */.yo(`${repo} has no remote "${remote}"; check the repository out first or give its URL`);
        }
        await git_git(repo, ['remote', 'add', remote, url]);
    }
    return fresh;
}
/** A cancelled run can leave these behind in a reused workspace; git would refuse to start. */
async function removeStaleLocks(repo) {
    for (const lock of ['index.lock', 'shallow.lock']) {
        await (0,promises_.rm)(external_node_path_.join(repo, '.git', lock), { force: true });
    }
}
async function remoteHeads(repo, remote, names, auth) {
    const refs = names.map((n) => `refs/heads/${n}`);
    const r = await git_git(repo, ['ls-remote', '--heads', remote, ...refs], { auth });
    const heads = new Map();
    for (const line of r.stdout.split('\n')) {
        const [sha, ref] = line.split('\t');
        // ls-remote matches patterns by suffix; keep exact names only.
        if (sha && ref && refs.includes(ref))
            heads.set(ref.slice('refs/heads/'.length), sha);
    }
    return heads;
}

;// CONCATENATED MODULE: ./.build/git/committed-file.js

/** A committed regular file within `maxBytes`, as text; null when there is none. */
async function readCommittedFile(repo, commit, path, maxBytes) {
    const objects = sharedObjects(repo);
    const slash = path.lastIndexOf('/');
    const listing = await objects.listTree(commit, slash < 0 ? '' : path.slice(0, slash));
    const entry = listing.entries.find((e) => e.name === path.slice(slash + 1));
    if (!entry || (entry.mode !== '100644' && entry.mode !== '100755'))
        return null;
    const size = (await objects.blobSizes([entry.oid])).get(entry.oid);
    if (size === undefined || size > maxBytes)
        return null;
    const blob = (await objects.readBlobs([entry.oid])).get(entry.oid);
    return blob ? blob.toString('utf8') : null;
}

// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./.build/git/remote-failure.js
// Whether a failed push or fetch was refused by the remote (its policy: permissions, protected
// branches, rulesets, hooks), which no retry changes, or failed on the way (GitHub's 5xx, a
// dropped or stalled connection), which a retry may get past. Judged by git's and GitHub's exact
// words (git 2.39 with curl over smart HTTP, as on hosted runners); LC_ALL=C keeps them English.

/** The HTTP status in curl's words: `The requested URL returned error: 502`, `RPC failed; HTTP 502`. */
const HTTP_STATUS = /(?:The requested URL returned error:|RPC failed; HTTP) (\d{3})\b/;
/** Words of a refusal, whatever the transport said around them. */
const REFUSED = [
    /Permission to \S+ denied|Permission denied|access denied/i,
    /not allowed/,
    /Write access to repository not granted/,
    /Authentication failed for/,
    /\bGH0\d\d\b/,
    /protected branch/i,
    /pre-receive hook declined/
];
/** A connection that broke, stalled or never came up, and GitHub's own transient failures. */
const TRANSIENT = [
    /RPC failed; curl \d+/,
    /the remote end hung up unexpectedly/,
    /unexpected disconnect while reading sideband packet/,
    /Empty reply from server/,
    /Operation too slow/,
    /Operation timed out|Connection timed out/,
    /Connection reset by peer|Recv failure|Send failure/,
    /Failed to connect to|Could not resolve host/,
    /transfer closed with outstanding read data remaining|early EOF/,
    /HTTP\/2 stream \d+ was not closed cleanly/,
    /^remote: Internal Server Error/m,
    /^remote: fatal error in commit_refs/m
];
/**
 * A push or fetch that failed before any ref was reported on: refused, transient, or undefined
 * when git's words are neither (a local problem, reported as it is).
 */
function remoteFailure(stderr) {
    const why = remoteWords(stderr);
    const status = Number(HTTP_STATUS.exec(stderr)?.[1]);
    // 408 and 429 are the server asking for another try, like a 5xx.
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        return { kind: 'refused', why };
    }
    if (REFUSED.some((r) => r.test(stderr)))
        return { kind: 'refused', why };
    if (status >= 500 || status === 408 || status === 429)
        return { kind: 'transient', why };
    if (TRANSIENT.some((r) => r.test(stderr)))
        return { kind: 'transient', why };
    return undefined;
}
/**
 * A ref the remote did not update, by the reason git reports for it (porcelain
 * `[remote rejected] (<reason>)`): GitHub's own failures are transient, any other reason is the
 * remote's refusal (a hook, a rule, a protected branch), even when a hook's words sound transient.
 */
function refRejection(summary, remoteSays) {
    const why = remoteSays ? `${summary}: ${remoteSays}` : summary;
    const transient = summary === '[remote rejected] (Internal Server Error)' ||
        summary === '[remote failure] (remote failed to report status)' ||
        (summary === '[remote rejected] (failure)' && /fatal error in commit_refs/.test(remoteSays));
    return { kind: transient ? 'transient' : 'refused', why };
}
/**
 * git's first error (the cause: `error: RPC failed; HTTP 403 …` comes before `fatal: the remote
 * end hung up unexpectedly`), then what the remote said (`remote:` lines); one line.
 */
function remoteWords(stderr) {
    const lines = stderr.split(/\r?\n|\r/).map((l) => l.trim());
    const remote = lines.filter((l) => l.startsWith('remote: ')).map((l) => l.slice(8).trim());
    const own = lines.filter((l) => l && !l.startsWith('remote: '));
    const cause = own.find((l) => /^(error|fatal): /.test(l)) ?? own.at(-1) ?? '';
    return mask([cause, ...remote].filter(Boolean).join(': '));
}

;// CONCATENATED MODULE: ./.build/git/push.js








/** The push cannot be done; the message says why in one line. Never retried by the caller. */
class PushError extends errors/* UserError */.yo {
    kind;
    attempts;
    paths;
    constructor(kind, message, attempts, paths = []) {
        super(message);
        this.kind = kind;
        this.attempts = attempts;
        this.paths = paths;
        this.name = 'PushError';
    }
}
/**
 * Pushes the stage's commit to the branch as a compare-and-swap: the remote must still be where
 * the stage began (`--force-with-lease` with that exact value; the commit descends from it, so
 * nothing is ever overwritten). If others pushed meanwhile, the commit is re-created on top of
 * theirs with `merge-tree` and `commit-tree` (no worktree, no hook) and the push retried, a few
 * times. A push or fetch that fails on the way (GitHub's 5xx, a dropped or stalled connection)
 * is retried with backoff; a push that landed although its answer was lost is then found by the
 * lease, not pushed twice. A branch deleted or rewritten meanwhile, a conflict, a refusal by the
 * remote's policy, or a remote that stays unavailable ends with a PushError.
 */
async function pushWithRetry(o) {
    const repo = external_node_path_.resolve(o.repo);
    const remote = o.remote ?? 'origin';
    const attempts = Math.max(1, o.attempts ?? 4);
    const retries = Math.max(0, o.retries ?? 5);
    const backoffMs = o.backoffMs ?? 1000;
    const net = {
        repo,
        remote,
        branch: o.branch,
        auth: o.auth,
        stall: ['-c', 'http.lowSpeedLimit=1', '-c', `http.lowSpeedTime=${o.stallSeconds ?? 60}`]
    };
    await validateBranchName(o.branch);
    const v = await gitVersion();
    if (!versionAtLeast(v, PUSH_GIT_VERSION)) {
        throw new errors/* UserError */.yo(`git ${v.text} is too old to push stages; install git ${PUSH_GIT_VERSION} or newer`);
    }
    const commit = await readCommit(repo, o.sha);
    if (commit.parents.length !== 1 || commit.parents[0] !== o.baseSha) {
        throw new Error(`commit ${o.sha} is not a single commit on top of ${o.baseSha}`);
    }
    const pause = (n) => (0,external_node_timers_promises_.setTimeout)(backoffMs * 2 ** (n - 1) * (0.5 + Math.random() / 2));
    let pushes = 0;
    let spent = 0;
    /** Waits out a failure on the way, or gives up when the retries are spent. */
    const retryLater = async (doing, why) => {
        if (spent >= retries) {
            throw new PushError('unavailable', `${remote} is unavailable: gave up ${doing} ${o.branch} after ${retries} ${retries === 1 ? 'retry' : 'retries'}: ${why}`, pushes);
        }
        await pause(++spent);
    };
    const fetchHead = async () => {
        for (;;) {
            const head = await fetchBranch(net);
            if (typeof head === 'string' || head === null)
                return head;
            if (head.kind === 'refused') {
                throw new PushError('rejected', `${remote} refused the fetch of ${o.branch}: ${head.why}`, pushes);
            }
            await retryLater('fetching', head.why);
        }
    };
    let sha = o.sha;
    let parent = o.baseSha;
    let expected = o.created ? null : o.baseSha;
    for (let attempt = 1;;) {
        const verdict = await pushOnce(net, sha, expected);
        pushes++;
        if (verdict.kind === 'ok') {
            if (sha !== o.sha)
                await resetBranchTo(repo, o.branch, sha);
            return { sha, attempts: pushes, rebased: sha !== o.sha };
        }
        if (verdict.kind === 'refused') {
            throw new PushError('rejected', `${remote} refused the push to ${o.branch}: ${verdict.why}`, pushes);
        }
        if (verdict.kind === 'transient') {
            // Sent again as it was: if it landed, the lease now fails and the fetch below finds it.
            await retryLater('pushing', verdict.why);
            continue;
        }
        await pause(attempt);
        const head = await fetchHead();
        if (head === null && expected !== null) {
            throw new PushError('deleted', `${o.branch} was deleted on ${remote} while this stage ran; not re-creating it from stale state`, pushes);
        }
        if (head !== null && (await isAncestor(repo, sha, head))) {
            if (sha !== o.sha)
                await resetBranchTo(repo, o.branch, sha);
            return { sha, attempts: pushes, rebased: sha !== o.sha };
        }
        if (head !== null && !(await isAncestor(repo, parent, head))) {
            throw new PushError('rewritten', `${o.branch} was rewritten (force-pushed) on ${remote} while this stage ran; not pushing on top of history the stage did not start from`, pushes);
        }
        if (attempt >= attempts) {
            throw new PushError('exhausted', `${o.branch} kept moving on ${remote}; gave up after ${pushes} push attempt${pushes === 1 ? '' : 's'}`, pushes);
        }
        attempt++;
        if (head !== null) {
            sha = await replayOnto(repo, commit, sha, head, pushes, o.branch);
            parent = head;
            expected = head;
        }
    }
}
/** The remote moved under us (worth a fetch and retry), as opposed to a refusal. */
const MOVED = /^\[rejected\] \((stale info|fetch first|non-fast-forward)\)/;
const RACED = /cannot lock ref|failed to update ref|failed to lock|incorrect old value/;
/** A refusal the token's permissions explain. */
const NO_PERMISSION = /Permission to \S+ denied|Write access to repository not granted|\b403\b/;
async function pushOnce(net, sha, expected) {
    const ref = `refs/heads/${net.branch}`;
    const args = [
        'push',
        '--porcelain',
        '--no-verify',
        '--recurse-submodules=no',
        `--force-with-lease=${ref}:${expected ?? ''}`,
        net.remote,
        `${sha}:${ref}`
    ];
    const r = await git_git(net.repo, [...net.stall, ...args], { auth: net.auth, okCodes: [1, 128] });
    const status = r.stdout.split('\n').find((l) => l.split('\t')[1]?.endsWith(`:${ref}`));
    if (!status) {
        const failure = remoteFailure(r.stderr);
        if (!failure)
            throw gitFailure(net.repo, args, r.code, r.stderr);
        if (failure.kind === 'refused' && NO_PERMISSION.test(r.stderr)) {
            return {
                ...failure,
                why: `${failure.why}; the token needs write access to the repository (\`permissions: contents: write\`)`
            };
        }
        return failure;
    }
    const [flag, , summary = ''] = status.split('\t');
    if (flag !== '!')
        return { kind: 'ok' };
    if (MOVED.test(summary) || (summary.startsWith('[remote rejected]') && RACED.test(summary))) {
        return { kind: 'moved' };
    }
    const remoteSays = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('remote: '))
        .map((l) => l.slice(8).trim())
        .filter(Boolean)
        .join(' ')
        .slice(0, 400);
    return refRejection(summary, remoteSays);
}
/**
 * The branch's head on the remote, fetched; null when the remote has no such branch; how the
 * remote failed otherwise.
 */
async function fetchBranch(net) {
    const tracking = `refs/remotes/${net.remote}/${net.branch}`;
    const args = [
        'fetch',
        '--no-tags',
        '--recurse-submodules=no',
        net.remote,
        `+refs/heads/${net.branch}:${tracking}`
    ];
    const r = await git_git(net.repo, [...net.stall, ...args], { auth: net.auth, okCodes: [128] });
    if (r.code === 128) {
        if (/couldn't find remote ref/i.test(r.stderr))
            return null;
        const failure = remoteFailure(r.stderr);
        if (failure)
            return failure;
        throw gitFailure(net.repo, args, r.code, r.stderr);
    }
    const head = await sharedObjects(net.repo).resolve(`${tracking}^{commit}`);
    if (!head)
        throw new Error(`fetching ${net.branch} left no ${tracking}`);
    return head;
}
async function isAncestor(repo, a, b) {
    const r = await git_git(repo, ['merge-base', '--is-ancestor', a, b], { okCodes: [1] });
    return r.code === 0;
}
/**
 * Our change again, on top of `head`. The merge base is our parent: it is an ancestor of
 * `head` (checked) and the only parent of our commit, so merge-tree finds it unaided.
 */
async function replayOnto(repo, commit, sha, head, attempt, branch) {
    const merge = await git_git(repo, ['merge-tree', '--write-tree', '--no-messages', '--name-only', '-z', head, sha], { okCodes: [1] });
    const [tree = '', ...rest] = merge.stdout.split('\0');
    if (merge.code === 1) {
        const paths = [...new Set(rest.filter(Boolean))].sort();
        throw new PushError('conflict', `the branch ${branch} moved and conflicts with this stage's commit in ${paths.join(', ')}`, attempt, paths);
    }
    const r = await git_git(repo, ['commit-tree', '--no-gpg-sign', tree.trim(), '-p', head, '-F', '-'], {
        env: {
            GIT_AUTHOR_NAME: commit.author.name,
            GIT_AUTHOR_EMAIL: commit.author.email,
            GIT_AUTHOR_DATE: commit.author.date,
            GIT_COMMITTER_NAME: commit.committer.name,
            GIT_COMMITTER_EMAIL: commit.committer.email
        },
        input: commit.message
    });
    return r.stdout.trim();
}
async function readCommit(repo, sha) {
    const raw = await sharedObjects(repo).readObject(sha, 'commit');
    const split = raw.indexOf('\n\n');
    const headers = raw
        .subarray(0, split < 0 ? raw.length : split)
        .toString('utf8')
        .split('\n');
    const ident = (key) => {
        const line = headers.find((h) => h.startsWith(`${key} `)) ?? '';
        const m = /^\S+ (.*) <([^>]*)> (\d+ [+-]\d{4})$/.exec(line);
        if (!m)
            throw new Error(`commit ${sha} has no readable ${key}`);
        const [, name = '', email = '', seconds = ''] = m;
        return { name, email, date: `@${seconds}` };
    };
    return {
        parents: headers.filter((h) => h.startsWith('parent ')).map((h) => h.slice(7)),
        author: ident('author'),
        committer: ident('committer'),
        message: split < 0 ? Buffer.alloc(0) : raw.subarray(split + 2)
    };
}

;// CONCATENATED MODULE: ./.build/pipeline/record.js


// The record is read back from places anyone with write access can edit (a comment, a file),
// so its shape is defined once, as a schema, and the types are what the schema accepts.
const count = schemas/* int */.Whr().min(0);
/** What kind of run a stage was: the state's own work, or a review of it. */
const stageKindSchema = schemas/* enum */.k5n(['work', 'review']);
/** What the agent's CLI reported in its last event, under the same names for every CLI. */
const agentStatsSchema = schemas/* object */.Ikc({
    turns: count.optional(),
    inputTokens: count.optional(),
    outputTokens: count.optional(),
    costUsd: schemas/* number */.aig().min(0).optional()
});
/** One stage run, as the issue's record keeps it. */
const stageRecordSchema = schemas/* object */.Ikc({
    /** Which entry into `state` this run belongs to (see IssueRecord.entry). */
    entry: count,
    state: schemas/* string */.YjP(),
    profile: schemas/* string */.YjP(),
    kind: stageKindSchema,
    /** 0 for the first run of the stage in this entry, then 1, 2, ... */
    attempt: count,
    /** The review round the run belongs to (0 before any failed review). */
    round: count.default(0),
    outcome: stageOutcomeSchema,
    reason: schemas/* string */.YjP(),
    /** `<run id>/<run attempt>` of the job (or `local-…` for the CLI). */
    run: schemas/* string */.YjP(),
    runUrl: schemas/* string */.YjP().optional(),
    startedAt: schemas/* string */.YjP(),
    durationMs: schemas/* number */.aig().min(0),
    /** The committed deliverable or partial. */
    handoffPath: schemas/* string */.YjP().optional(),
    /** The commit holding it, where it landed. */
    commit: schemas/* string */.YjP().optional(),
    /** Set when the issue branch refused the push and the work went to this ref instead. */
    rescuedTo: schemas/* string */.YjP().optional(),
    agent: agentStatsSchema.optional(),
    /** The agent's requests that were not carried out, one line each saying what to change. */
    refused: schemas/* array */.YOg(schemas/* string */.YjP()).max(10).optional(),
    /** Secrets kept out of what the stage left: where, and which kind (never the value). */
    withheld: schemas/* array */.YOg(schemas/* string */.YjP()).optional()
});
/** A stage paused for a person's answer. */
const waitingSchema = schemas/* object */.Ikc({
    entry: count,
    state: schemas/* string */.YjP(),
    profile: schemas/* string */.YjP(),
    kind: stageKindSchema,
    attempt: count,
    /** The paused run's timestamp: the resumed run writes to the same handoff path. */
    timestamp: schemas/* string */.YjP(),
    question: schemas/* string */.YjP()
});
/**
 * The same-state step the pipeline asked for next (a retry, a review, a rework). A wake-up
 * (repository_dispatch, or the next local `run`) names only the issue and the entry; what runs
 * comes from here, never from the wake-up's payload.
 */
const continuationSchema = schemas/* object */.Ikc({
    state: schemas/* string */.YjP(),
    entry: count,
    kind: stageKindSchema,
    profile: schemas/* string */.YjP(),
    attempt: count,
    round: count,
    /** Why the previous attempt's deliverable was refused, written by our own checks. */
    recheck: schemas/* string */.YjP().optional(),
    /** A review's subject. */
    reviewed: schemas/* string */.YjP().optional(),
    /** Names this step's wake-up, so a duplicate of it runs nothing (it carries no instruction). */
    step: schemas/* string */.YjP().optional()
});
/** One effect of a decision on the tracker; each is idempotent and safe to carry out again. */
const effectSchema = schemas/* discriminatedUnion */.gMt('kind', [
    /** A comment, written at most once per key. */
    schemas/* object */.Ikc({ kind: schemas/* literal */.euz('comment'), key: schemas/* string */.YjP(), body: schemas/* string */.YjP() }),
    /** A comment the agent asked for, read again from its committed deliverable. */
    schemas/* object */.Ikc({
        kind: schemas/* literal */.euz('agent-comment'),
        key: schemas/* string */.YjP(),
        profile: schemas/* string */.YjP(),
        commit: schemas/* string */.YjP(),
        path: schemas/* string */.YjP(),
        /** Absent: on the issue. */
        pullRequest: count.optional()
    }),
    /** A compare-and-set state move: done when the issue is in `to`, void when it left `from`. */
    schemas/* object */.Ikc({ kind: schemas/* literal */.euz('move'), from: schemas/* string */.YjP(), to: schemas/* string */.YjP() }),
    schemas/* object */.Ikc({
        kind: schemas/* literal */.euz('flag'),
        flag: schemas/* enum */.k5n(['needs-attention', 'needs-input']),
        on: schemas/* boolean */.zMY()
    }),
    /** Start the stage for `entry` of `state` (a repository_dispatch on GitHub). */
    schemas/* object */.Ikc({
        kind: schemas/* literal */.euz('wake'),
        state: schemas/* string */.YjP(),
        entry: count,
        step: schemas/* string */.YjP().optional()
    })
]);
/** What a decision still owes the tracker: written before any effect, finished by any later run. */
const owedSchema = schemas/* object */.Ikc({
    /** The run that decided it. */
    run: schemas/* string */.YjP(),
    effects: schemas/* array */.YOg(effectSchema)
});
/**
 * Everything the pipeline remembers about one issue between jobs. It lives in the issue's
 * status comment (GitHub) or beside the issue file (local), written only by this tool.
 */
const issueRecordSchema = schemas/* object */.Ikc({
    v: schemas/* literal */.euz(1),
    /** The state this record last saw the issue enter. */
    state: schemas/* string */.YjP().nullable(),
    /** Counts entries into a state; a stage runs at most once (plus retries) per entry. */
    entry: count,
    /** State moves made so far, for the loop budget. */
    transitions: count,
    /**
     * Review rounds spent since a person last moved the issue: each time the work goes back to a
     * state it was in (a FAIL review, a move to an earlier state). Written only by this tool, so
     * neither the agent nor the issue's author can reset it; a person's move does.
     */
    round: count,
    /** The states entered since then, in WORKFLOW.md's spelling: a move back to one is a round. */
    visited: schemas/* array */.YOg(schemas/* string */.YjP()).max(100).optional(),
    /** The entry the work was sent back into, and the profile whose deliverable says why. */
    sentBack: schemas/* object */.Ikc({ entry: count, by: schemas/* string */.YjP() }).optional(),
    /** A move decided before a review, applied when the review passes. */
    pendingMove: schemas/* string */.YjP().optional(),
    stages: schemas/* array */.YOg(stageRecordSchema),
    waiting: waitingSchema.optional(),
    continuation: continuationSchema.optional(),
    owed: owedSchema.optional(),
    /** Set when the pipeline stopped on purpose (budget, escalation) or could not go on. */
    halted: schemas/* string */.YjP().optional(),
    /** The issue's pull request, once known: saves a lookup. */
    pullRequest: count.optional()
});
/** The record in `value`, or null when it is not shaped like one. Never throws. */
function parseRecord(value) {
    const parsed = issueRecordSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
}
function emptyRecord() {
    return { v: 1, state: null, entry: 0, transitions: 0, round: 0, stages: [] };
}
/** Most stage records kept; older ones stay in the branch's commit trailers. */
const MAX_STAGE_RECORDS = 50;
/** The record once a job has decided to run a stage for `state`. */
function recordStart(record, state, plan) {
    const next = { ...record };
    if (plan.newEntry) {
        // Nothing of ours moved the issue here: a person did, and the review rounds start again.
        Object.assign(next, { state, entry: plan.entry, round: 0, visited: [state] });
        delete next.sentBack;
        delete next.pendingMove;
        delete next.halted;
        delete next.waiting;
        delete next.continuation;
    }
    if (plan.reply)
        delete next.waiting;
    return next;
}
/** Adds a finished stage, keeping only the newest MAX_STAGE_RECORDS. */
function recordStage(record, stage) {
    return { ...record, stages: [...record.stages, stage].slice(-MAX_STAGE_RECORDS) };
}

;// CONCATENATED MODULE: ./.build/git/trailers.js




/** The trailers a stage commit carries: who made it, for which stage, and how it ended. */
const TRAILER_KEYS = {
    profile: 'Itervox-Profile',
    run: 'Itervox-Run',
    outcome: 'Itervox-Outcome',
    issue: 'Itervox-Issue',
    state: 'Itervox-State',
    stage: 'Itervox-Stage',
    handoff: 'Itervox-Handoff',
    reason: 'Itervox-Reason'
};
const trailers_count = schemas/* int */.Whr().min(0);
/** One stage of one issue: the pipeline runs each at most once (see findLandedStage). */
const stageKeySchema = schemas/* object */.Ikc({
    issue: schemas/* string */.YjP(),
    state: schemas/* string */.YjP(),
    entry: trailers_count,
    kind: stageKindSchema,
    profile: schemas/* string */.YjP(),
    attempt: trailers_count,
    round: trailers_count,
    /** Runs of this same step before (a stage resumed by a reply runs again). */
    resume: trailers_count
});
function stageTrailers(t) {
    const out = [
        [TRAILER_KEYS.profile, t.profile],
        [TRAILER_KEYS.run, t.run],
        [TRAILER_KEYS.outcome, t.outcome]
    ];
    if (t.key) {
        out.push([TRAILER_KEYS.issue, flat(t.key.issue, 100)], [TRAILER_KEYS.state, stateValue(t.key.state)], [TRAILER_KEYS.stage, stageValue(t.key)]);
    }
    if (t.handoff)
        out.push([TRAILER_KEYS.handoff, flat(t.handoff, 300)]);
    const reason = t.reason ? flat(t.reason, 300) : '';
    if (reason)
        out.push([TRAILER_KEYS.reason, reason]);
    return out;
}
// Trailer values are one line; a state name is data and may hold anything.
function flat(v, max) {
    return v
        .replace(/[\s\0]+/g, ' ')
        .trim()
        .slice(0, max);
}
function stateValue(state) {
    return flat(state, 200) || '-';
}
function stageValue(k) {
    return `${k.entry}/${k.kind}/${k.attempt}/${k.round}${k.resume ? `/${k.resume}` : ''}`;
}
/** The message, a blank line, then one `Key: value` line per trailer. */
function formatMessage(message, trailers) {
    const body = message.replace(/\0/g, '').trimEnd() || 'handoff-action stage';
    if (trailers.length === 0)
        return `${body}\n`;
    const lines = trailers.map(([key, value]) => {
        if (!/^[A-Za-z0-9][A-Za-z0-9-]*$/.test(key))
            throw new Error(`bad trailer key: ${key}`);
        if (/[\r\n\0]/.test(value) || !value.trim())
            throw new Error(`bad trailer value for ${key}`);
        return `${key}: ${value.trim()}`;
    });
    return `${body}\n\n${lines.join('\n')}\n`;
}
/**
 * The commit at or below `head` that a run of this exact stage made, so a stage whose push
 * landed is never run again (a job killed after its push, a record that could not be written).
 * Looks at the newest `maxCount` commits.
 */
async function findLandedStage(repo, head, key, maxCount = 200) {
    if (!/^[0-9a-f]{40,64}$/.test(head))
        await validateBranchName(head);
    const r = await git_git(repo, [
        'log',
        `--max-count=${maxCount}`,
        '--format=%H%x1f%(trailers:only,unfold)%x1e',
        head,
        '--'
    ]);
    const want = (k) => k.toLowerCase();
    for (const entry of r.stdout.split('\x1e')) {
        const [sha, block = ''] = entry.trim().split('\x1f');
        if (!sha)
            continue;
        const trailers = new Map();
        for (const line of block.split('\n')) {
            const m = /^([A-Za-z0-9-]+):\s*(.*)$/.exec(line);
            if (m?.[1] && m[2] !== undefined)
                trailers.set(m[1].toLowerCase(), m[2].trim());
        }
        const get = (k) => trailers.get(want(k));
        if (get(TRAILER_KEYS.issue) === flat(key.issue, 100) &&
            get(TRAILER_KEYS.profile) === key.profile &&
            get(TRAILER_KEYS.stage) === stageValue(key) &&
            get(TRAILER_KEYS.state) === stateValue(key.state)) {
            return {
                sha,
                outcome: get(TRAILER_KEYS.outcome) ?? 'succeeded',
                run: get(TRAILER_KEYS.run) ?? '',
                handoffPath: get(TRAILER_KEYS.handoff) ?? null,
                reason: get(TRAILER_KEYS.reason) ?? ''
            };
        }
    }
    return null;
}

;// CONCATENATED MODULE: ./.build/git/remote-workspace.js







/**
 * The action's git side: the issue branch fetched from `origin` (or made from the base
 * branch), and a stage's commit pushed back, or to a rescue branch when the issue branch
 * refuses it, so no agent's work is lost to a refused push.
 */
class RemoteWorkspace {
    o;
    constructor(o) {
        this.o = o;
    }
    async prepare(branch) {
        const prepared = await prepareIssueBranch({
            repo: this.o.repo,
            branch,
            base: this.o.baseBranch,
            ...(this.o.auth ? { auth: this.o.auth } : {}),
            ...(this.o.fetched ? { fetched: this.o.fetched } : {})
        });
        return { ...prepared, repo: this.o.repo, baseBranch: this.o.baseBranch };
    }
    findLanded(prepared, key) {
        return findLandedStage(this.o.repo, prepared.baseSha, key);
    }
    async publish(prepared, commit, rescueRef) {
        const push = (branch, created) => pushWithRetry({
            repo: this.o.repo,
            branch,
            sha: commit,
            baseSha: prepared.baseSha,
            created,
            ...(this.o.remote ? { remote: this.o.remote } : {}),
            ...(this.o.auth ? { auth: this.o.auth } : {})
        });
        let refusal;
        try {
            return { commit: (await push(prepared.branch, prepared.created)).sha };
        }
        catch (err) {
            refusal = (0,errors/* messageOf */.bD)(err);
        }
        try {
            await push(rescueRef, true);
            return { commit, rescuedTo: rescueRef, refusal };
        }
        catch (err) {
            return { failed: `${refusal}; the rescue branch ${rescueRef} failed too: ${(0,errors/* messageOf */.bD)(err)}` };
        }
    }
    async readCommitted(commit, path, maxBytes) {
        const has = await sharedObjects(this.o.repo)
            .resolve(`${commit}^{commit}`)
            .catch(() => null);
        // A re-run finishing an earlier run's comments may not have that commit yet.
        if (!has && /^[0-9a-f]{40,64}$/.test(commit)) {
            await git_git(this.o.repo, ['fetch', '--no-tags', '--depth=1', this.o.remote ?? 'origin', commit], { ...(this.o.auth ? { auth: this.o.auth } : {}), okCodes: [1, 128] });
        }
        return readCommittedFile(this.o.repo, commit, path, maxBytes).catch(() => null);
    }
    around(_prepared, stage) {
        return stage();
    }
}

;// CONCATENATED MODULE: ./.build/pipeline/effects.js

/**
 * The decision as data: the tracker effects that carry it out, in order. Each is idempotent,
 * so whoever finds them owed (a re-run, the next stage's job) can carry them out again.
 */
function effectsOf(o) {
    const key = (what) => `itervox:${what}:${o.entry}:${o.run.replace(/[^A-Za-z0-9._]/g, '.')}`;
    const out = [];
    if (o.requests && o.deliverable) {
        const at = { commit: o.deliverable.commit, path: o.deliverable.path, profile: o.profile };
        if (o.requests.comment)
            out.push({ kind: 'agent-comment', key: key('agent'), ...at });
        if (o.requests.commentPr && o.pullRequest) {
            out.push({
                kind: 'agent-comment',
                key: key('agent-pr'),
                ...at,
                pullRequest: o.pullRequest
            });
        }
    }
    if (o.replied)
        out.push({ kind: 'flag', flag: 'needs-input', on: false });
    const next = o.next;
    if (next.kind !== 'escalate')
        out.push({ kind: 'flag', flag: 'needs-attention', on: false });
    switch (next.kind) {
        case 'move':
            out.push({ kind: 'move', from: o.state, to: next.to });
            // With chain: label the move's own label event starts the next stage.
            if (o.wakes === 'dispatch' && o.startsStage(next.to)) {
                out.push({ kind: 'wake', state: next.to, entry: o.entry });
            }
            break;
        case 'review':
        case 'rework':
        case 'retry':
            // Same-state steps change no label, so they are always woken where anything is.
            if (o.wakes !== 'none') {
                out.push({
                    kind: 'wake',
                    state: o.state,
                    entry: o.entry,
                    ...(o.step ? { step: o.step } : {})
                });
            }
            break;
        case 'escalate':
            if (next.to)
                out.push({ kind: 'move', from: o.state, to: next.to });
            else
                out.push({ kind: 'flag', flag: 'needs-attention', on: true });
            out.push({
                kind: 'comment',
                key: key('stopped'),
                body: `**The itervox pipeline stopped.** ${(0,untrusted_text/* cellText */.Ie)(next.why, 2000)}.\n\n${o.runLine}`
            });
            break;
        case 'wait':
            out.push({ kind: 'flag', flag: 'needs-input', on: true });
            out.push({
                kind: 'comment',
                key: key('question'),
                body: `**The ${(0,untrusted_text/* cellText */.Ie)(o.profile, 60)} agent needs input.** ${o.replyHint}\n\n${(0,untrusted_text/* fenced */.OF)((0,untrusted_text/* clip */.$Q)(next.question, 4000), '~')}\n\n${o.runLine}`
            });
            break;
        case 'stop':
            break;
    }
    return out;
}
/** The decision in words, for logs, the summary, the status and the CLI's progress line. */
function effects_describe(next) {
    switch (next.kind) {
        case 'move':
            return `moved to "${next.to}" (${next.why})`;
        case 'review':
            return `review by ${next.reviewer} next`;
        case 'rework':
            return `back to ${next.profile} with the review's findings (round ${next.round})`;
        case 'retry':
            return `retry next (attempt ${next.attempt + 1}${next.recheck ? ', with the refusal in the prompt' : ''})`;
        case 'escalate':
            return `escalated${next.to ? ` to "${next.to}"` : ''}: ${next.why}`;
        case 'wait':
            return 'waiting for an answer';
        case 'stop':
            return `stopped: ${next.why}`;
    }
}

;// CONCATENATED MODULE: ./.build/handoff/naming.js
/** Where handoff deliverables live, relative to the repository root (forward slashes always). */
const HANDOFF_DIR = '.itervox/handoff';
const PARTIAL_SUFFIX = '.partial.md';
const PROFILE_RE = /^[A-Za-z0-9._-]+$/;
// Profile names end up in file names; together with the 24-byte timestamp and `.partial.md`
// this keeps every handoff name well under the 255-byte limit of common file systems.
const MAX_PROFILE_LENGTH = 100;
const RUN_TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z$/;
// Older tools wrote whole seconds; some wrote other fraction lengths.
const NAME_TIMESTAMP_RE = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})(?:\.(\d{1,9}))?Z_/;
/** The run timestamp itervox uses: UTC `YYYY-MM-DDTHH-MM-SS.mmmZ`, with no colon anywhere. */
function runTimestamp(date) {
    const iso = date.toISOString();
    if (!/^\d{4}-/.test(iso))
        throw new Error(`runTimestamp: year out of range in ${iso}`);
    return iso.replace(/:/g, '-');
}
/** True for a timestamp of exactly the form `runTimestamp` makes. */
function isRunTimestamp(ts) {
    return RUN_TIMESTAMP_RE.test(ts);
}
/** True for a profile name that is safe to put in a file name: `[A-Za-z0-9._-]+`. */
function isValidProfileName(name) {
    return name.length <= MAX_PROFILE_LENGTH && PROFILE_RE.test(name);
}
/** The run's deliverable path, `.itervox/handoff/<ts>_<profile>.md`. */
function handoffPath(ts, profile) {
    if (!isRunTimestamp(ts))
        throw new Error(`handoffPath: bad run timestamp ${JSON.stringify(ts)}`);
    if (!isValidProfileName(profile)) {
        throw new Error(`handoffPath: bad profile name ${JSON.stringify(profile)}`);
    }
    return `${HANDOFF_DIR}/${ts}_${profile}.md`;
}
/** `…/<ts>_<profile>.md` → `…/<ts>_<profile>.partial.md`; a partial path is returned as is. */
function partialPathOf(path) {
    if (path.endsWith(PARTIAL_SUFFIX))
        return path;
    if (!path.endsWith('.md'))
        throw new Error(`partialPathOf: not a .md path: ${path}`);
    return path.slice(0, -'.md'.length) + PARTIAL_SUFFIX;
}
function isPartialName(name) {
    return name.endsWith(PARTIAL_SUFFIX);
}
/** The last path component (paths here always use forward slashes). */
function baseName(path) {
    return path.slice(path.lastIndexOf('/') + 1);
}
/**
 * Splits a run's file name `<ts>_<profile>.md` (not a partial) into its parts, or returns null.
 * The timestamp has a fixed shape, so a profile that itself contains `_` splits correctly.
 */
function parseRunFileName(name) {
    const m = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d{3})?Z)_(.+)\.md$/.exec(name);
    const [, timestamp = '', profile = ''] = m ?? [];
    if (!m || isPartialName(name) || !isValidProfileName(profile))
        return null;
    return { timestamp, profile };
}
/**
 * The sort key of a handoff file name. Timestamped names compare by their instant, a missing
 * fraction counting as zero (`…45Z` is `…45.000Z`, so it sorts before `…45.123Z`); other names
 * (`notes.md`) use the raw name, as itervox's plain byte sort would.
 */
function handoffSortKey(name) {
    const m = NAME_TIMESTAMP_RE.exec(name);
    if (!m)
        return name;
    return `${m[1]}.${(m[2] ?? '').padEnd(9, '0')}Z`;
}
/** Chronological order of handoff file names; ties are broken by the raw name. */
function compareHandoffNames(a, b) {
    return compareCodePoints(handoffSortKey(a), handoffSortKey(b)) || compareCodePoints(a, b);
}
/** Code-point order, which is UTF-8 byte order (JS `<` compares UTF-16 units instead). */
function compareCodePoints(a, b) {
    const n = Math.min(a.length, b.length);
    for (let i = 0; i < n; i++) {
        const x = a.codePointAt(i);
        const y = b.codePointAt(i);
        if (x !== y)
            return x < y ? -1 : 1;
        if (x > 0xffff)
            i++;
    }
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

// EXTERNAL MODULE: ./.build/handoff/sanitize.js + 1 modules
var sanitize = __webpack_require__(106);
;// CONCATENATED MODULE: ./.build/handoff/forged-lines.js
// Untrusted Markdown (a prior handoff, an issue's text) is shown inside a prompt whose own
// structure is Markdown: the `## Prior Agent Handoffs` block with its `### <file>` headers and
// truncation markers, `## Run Context` with its run.* bullets, and the pipeline's sections
// (`## Requests to the pipeline`, `## Review`, `## Reply from @…`, ...). A line of untrusted
// text that reads as one of those could make a model believe a forged file, run path or reply.
// Such lines get a backslash: Markdown then shows them as plain text, and they no longer look
// like what the prompt writes. Ordinary headings (`## Findings`) are left alone.
//
// A title is compared by what a reader sees, not by its bytes: HTML entities decoded,
// compatibility forms and accents folded, Cyrillic and Greek look-alikes mapped to Latin,
// and everything but letters and digits dropped, so `## **Rün&#32;Соntext**` is `runcontext`.
// It is a heading whatever makes it one: `#`s after indentation, blockquote or list markers,
// a setext underline, an HTML `<h1>`-`<h6>` or `<summary>`, or a line that is all emphasis.
/** The comparison key of a title: its letters and digits as a reader sees them. */
function titleKey(title) {
    return letters(visible(title));
}
function letters(seen) {
    return seen.replace(/[^\p{L}\p{N}]+/gu, '');
}
const NAMED = {
    nbsp: ' ',
    amp: '&',
    lt: '<',
    gt: '>',
    quot: '"',
    apos: "'",
    num: '#',
    period: '.',
    lowbar: '_',
    ast: '*',
    colon: ':',
    lsqb: '[',
    rsqb: ']',
    grave: '`',
    tab: ' ',
    newline: ' '
};
// Cyrillic, Greek and other letters that look like Latin ones, lower case (titles are folded
// to lower case first, so upper-case look-alikes are listed by their lower-case forms).
const LOOKALIKES = {
    а: 'a',
    в: 'b',
    с: 'c',
    ԁ: 'd',
    е: 'e',
    ё: 'e',
    һ: 'h',
    н: 'h',
    і: 'i',
    ї: 'i',
    ј: 'j',
    к: 'k',
    м: 'm',
    п: 'n',
    о: 'o',
    р: 'p',
    ԛ: 'q',
    г: 'r',
    ѕ: 's',
    т: 't',
    у: 'y',
    ԝ: 'w',
    х: 'x',
    ь: 'b',
    α: 'a',
    β: 'b',
    ε: 'e',
    ζ: 'z',
    η: 'n',
    ι: 'i',
    κ: 'k',
    μ: 'u',
    ν: 'v',
    ο: 'o',
    ρ: 'p',
    τ: 't',
    υ: 'u',
    χ: 'x',
    ω: 'w',
    ɑ: 'a',
    ɡ: 'g',
    ı: 'i',
    ȷ: 'j',
    ʀ: 'r',
    օ: 'o',
    ս: 'u',
    հ: 'h',
    ո: 'n'
};
/** The text as a reader sees it: entities decoded, tags gone, look-alikes mapped, lower case. */
function visible(text) {
    if (/^[\t\x20-\x25\x27-\x3b\x3d\x3f-\x7e]*$/.test(text))
        return text.toLowerCase();
    const decoded = text.replace(/&(?:#(\d{1,7})|#x([0-9a-f]{1,6})|([a-z]+));/gi, (m, dec, hex, name) => {
        if (name !== undefined)
            return NAMED[name.toLowerCase()] ?? m;
        const cp = dec !== undefined ? Number(dec) : parseInt(hex, 16);
        return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    });
    return decoded
        .replace(/<\/?[a-z][^<>]*>/gi, '')
        .normalize('NFKD')
        .replace(/\p{M}+/gu, '')
        .toLowerCase()
        .replace(/[^\x00-\x7f]/g, (c) => LOOKALIKES[c] ?? c);
}
/** Titles the prompt writes that are distinctive wherever they appear in a heading. */
const PHRASES = [
    'prior agent handoffs', // src/handoff/layout.ts
    'run context', // src/handoff/layout.ts
    'requests to the pipeline', // src/pipeline/requests.ts
    'your previous deliverable was refused', // src/pipeline/sections.ts
    'reply from', // src/pipeline/sections.ts: `## Reply from @<login>`
    'review findings' // src/pipeline/sections.ts
].map(titleKey);
/** A title the prompt writes that starts many ordinary headings: only the whole title counts. */
const EXACT = ['review'].map(titleKey); // src/pipeline/sections.ts
const FILE_TITLE = /^\S*\.md(?![a-z0-9])/;
// Where a value may merely sit in a heading: the prompt's `### <file>` names a file alone, so
// a path or URL (the local tracker's issue.url, `.itervox/issues/DEMO-1.md`) is not one.
const FILE_NAME = /^[^\s/]*\.md(?![a-z0-9])/;
const MARKER = /^[_*]*\[[^\]\n]*\btruncated\b/;
const RUN_LINE = /^[`*_]*run\.(?:timestamp|handoff_path)\b/;
// Blockquote and list markers in front of a line's content.
const CONTAINERS = /^(?:[ \t]*(?:>|[-*+](?=[ \t])|\d{1,9}[.)](?=[ \t]|$)))*[ \t]*/;
const ATX = /^#+[ \t]*(.*)$/;
const UNDERLINE = /^[ \t]*(?:=+|-+)[ \t]*$/;
const EMPHASIS_START = /^(?:[*_]{1,3}|<(?:b|strong|em|i)>)/i;
// An HTML heading or summary tag not already escaped, and the text after it on the line.
const HTML_HEADING = /(?<!\\)<(?:h[1-6]|summary)(?:[ \t][^>]*)?>/gi;
/** True for a line that imitates a line of the handoff block, the Run Context or a section. */
function isForgedLine(line, opts = {}) {
    return neutralizeForgedLines(line, opts).count > 0;
}
/** Escapes every forged line; returns the text and how many lines were escaped. */
function neutralizeForgedLines(text, opts = {}) {
    const titles = { extra: (opts.titles ?? []).map(titleKey).filter((k) => k.length > 0) };
    const lines = text.split('\n');
    const escape = new Set();
    const tags = new Map();
    let paragraph = [];
    // A heading tag that ended its line: its title is on the next non-blank line.
    let openTag = null;
    const filled = lines.flatMap((l, i) => (l.replace(CONTAINERS, '').trim() === '' ? [] : [i]));
    const edges = opts.value === true ? new Set([filled[0], filled.at(-1)]) : new Set();
    for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        const inner = line.replace(CONTAINERS, '');
        if (inner.trim() === '') {
            paragraph = [];
            continue;
        }
        if (openTag) {
            if (isForgedTitle(inner, titles))
                addTag(tags, openTag.line, openTag.at);
            openTag = null;
        }
        for (const m of line.matchAll(HTML_HEADING)) {
            const after = line.slice(m.index + m[0].length);
            const title = after.replace(/<\/.*$/, '');
            if (title.trim() === '')
                openTag = { line: i, at: m.index };
            else if (isForgedTitle(title, titles))
                addTag(tags, i, m.index);
        }
        const next = lines[i + 1];
        // A setext heading's title is its whole paragraph (its last line alone is checked too, in
        // case a model reads it so); an escaped underline is paragraph text.
        paragraph.push(inner);
        if (next !== undefined && UNDERLINE.test(next.replace(/^(?:[ \t]*>)*/, ''))) {
            if (isForgedTitle(paragraph.join(' '), titles) || isForgedTitle(inner, titles)) {
                escape.add(i + 1);
            }
            else
                paragraph = [];
        }
        if (escaped(line))
            continue;
        const edge = edges.has(i);
        const atx = ATX.exec(inner);
        const forged = atx
            ? isForgedTitle(atx[1], titles)
            : EMPHASIS_START.test(inner)
                ? isForgedTitle(inner, titles)
                : edge
                    ? isForgedTitle(inner, titles, false)
                    : isBareForgery(inner, titles);
        if (forged)
            escape.add(i);
    }
    let count = 0;
    const out = lines.map((line, i) => {
        let result = line;
        const at = tags.get(i);
        if (at) {
            count++;
            for (const index of [...at].sort((a, b) => b - a)) {
                result = `${result.slice(0, index)}\\${result.slice(index)}`;
            }
        }
        if (escape.has(i) && !escaped(result)) {
            if (!at)
                count++;
            const indent = /^[ \t]*/.exec(result)?.[0] ?? '';
            result = `${indent}\\${result.slice(indent.length)}`;
        }
        return result;
    });
    return count === 0 ? { text, count } : { text: out.join('\n'), count };
}
function addTag(tags, line, at) {
    const list = tags.get(line) ?? [];
    if (!list.includes(at))
        list.push(at);
    tags.set(line, list);
}
// A line whose content starts with a backslash shows as text already (ours or the author's).
const escaped = (line) => /^[ \t]*\\/.test(line);
/**
 * A heading's title that reads as one the prompt uses. The templates' titles count as a prefix
 * in a heading, but only whole where the text may merely sit in one (a value's edge lines).
 */
function isForgedTitle(title, titles, heading = true) {
    const seen = visible(title);
    const key = letters(seen);
    if (PHRASES.some((p) => key.includes(p)) || EXACT.includes(key))
        return true;
    if (titles.extra.some((t) => (heading ? key.startsWith(t) : key === t)))
        return true;
    const bare = seen.replace(/^[\s*_`~[\]()]+/, '');
    const file = heading ? FILE_TITLE : FILE_NAME;
    return file.test(bare) || MARKER.test(seen.trimStart()) || RUN_LINE.test(bare);
}
/** A line that is not a heading but is, whole, one of the prompt's titles, a marker or a run line. */
function isBareForgery(line, titles) {
    // No title, however spelled, is this long: such a line is only checked for how it starts.
    const seen = visible(line.length > 400 ? line.slice(0, 400) : line);
    if (line.length > 400)
        return MARKER.test(seen.trimStart()) || RUN_LINE.test(seen.trimStart());
    const key = letters(seen);
    if (PHRASES.includes(key) || EXACT.includes(key) || titles.extra.includes(key))
        return true;
    return MARKER.test(seen.trimStart()) || RUN_LINE.test(seen.trimStart());
}

;// CONCATENATED MODULE: ./.build/handoff/utf8.js
const decoder = new TextDecoder('utf-8', { fatal: true });
/**
 * Decodes bytes that must be UTF-8. A UTF-8 byte-order mark is dropped; anything else that is
 * not UTF-8 (UTF-16 with its BOM, stray bytes) is refused with a one-line reason, never
 * turned into U+FFFD.
 */
function decodeUtf8(bytes) {
    if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
        return { ok: false, problem: 'is UTF-16 (byte-order mark FF FE), not UTF-8' };
    }
    if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
        return { ok: false, problem: 'is UTF-16 (byte-order mark FE FF), not UTF-8' };
    }
    try {
        return { ok: true, text: decoder.decode(bytes) };
    }
    catch {
        const at = firstInvalidUtf8(bytes);
        const bad = bytes[at];
        if (bad === undefined)
            return { ok: false, problem: 'is not valid UTF-8' };
        const byte = bad.toString(16).toUpperCase().padStart(2, '0');
        return { ok: false, problem: `is not valid UTF-8 (byte 0x${byte} at offset ${at})` };
    }
}
/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
function firstInvalidUtf8(b) {
    let i = 0;
    for (let x = b[0]; x !== undefined; x = b[i]) {
        if (x < 0x80) {
            i++;
            continue;
        }
        let need;
        let min;
        let max = 0xbf;
        if (x >= 0xc2 && x <= 0xdf)
            need = 1;
        else if (x >= 0xe0 && x <= 0xef)
            need = 2;
        else if (x >= 0xf0 && x <= 0xf4)
            need = 3;
        else
            return i;
        // The second byte's range rules out overlong forms, surrogates and code points > U+10FFFF.
        if (x === 0xe0)
            min = 0xa0;
        else if (x === 0xf0)
            min = 0x90;
        else
            min = 0x80;
        if (x === 0xed)
            max = 0x9f;
        else if (x === 0xf4)
            max = 0x8f;
        const second = b[i + 1];
        if (second === undefined || second < min || second > max)
            return i;
        for (let k = 2; k <= need; k++) {
            const next = b[i + k];
            if (next === undefined || (next & 0xc0) !== 0x80)
                return i;
        }
        i += need + 1;
    }
    return -1;
}
function utf8_utf8Length(text) {
    return Buffer.byteLength(text, 'utf8');
}
/** The longest prefix of `text` that is at most `maxBytes` UTF-8 bytes, cut between code points. */
function cutUtf8(text, maxBytes) {
    if (maxBytes <= 0)
        return '';
    const bytes = Buffer.from(text, 'utf8');
    if (bytes.length <= maxBytes)
        return text;
    let end = maxBytes;
    // end < bytes.length: a byte past the end would not continue a sequence anyway.
    while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80)
        end--;
    return bytes.subarray(0, end).toString('utf8');
}

;// CONCATENATED MODULE: ./.build/handoff/layout.js
// The exact bytes itervox writes around prior handoffs (itervox-behaviour.md §1.2-1.3), plus our
// one-file cut notice. Golden tests pin every string here.


const BLOCK_PREAMBLE = '## Prior Agent Handoffs\n\n' +
    "Listed in chronological order (oldest first). Each file is one prior agent's deliverable on this issue's branch.";
const PARTIAL_SUFFIX_TEXT = ' (partial — prior agent exited before completing this deliverable)';
const JOIN = '\n\n';
/** itervox always says "handoffs"; we say "1 earlier handoff" (a deliberate difference). */
function truncationMarker(dropped) {
    const what = dropped === 1 ? 'handoff' : 'handoffs';
    return `_[${dropped} earlier ${what} truncated to fit budget — see \`.itervox/handoff/\` for full history]_`;
}
function fileHeader(name) {
    return `### ${name}${isPartialName(name) ? PARTIAL_SUFFIX_TEXT : ''}`;
}
/** Ends a body that was cut to fit the budget. */
function cutNotice(shownBytes, totalBytes) {
    return `_[truncated: showing the first ${shownBytes} of ${totalBytes} bytes — read the file for the rest]_`;
}
function renderPiece(name, body) {
    return `${fileHeader(name)}${JOIN}${body}`;
}
/** The block from pieces in chronological order; '' when there is no piece. */
function joinBlock(pieces, dropped) {
    if (pieces.length === 0)
        return '';
    const parts = [BLOCK_PREAMBLE];
    if (dropped > 0)
        parts.push(truncationMarker(dropped));
    return parts.concat(pieces).join(JOIN).replace(/\n+$/, '');
}
/** Bytes of the preamble plus, when files were dropped, the joined marker. */
function frameBytes(dropped) {
    const preamble = utf8_utf8Length(BLOCK_PREAMBLE);
    return dropped > 0 ? preamble + JOIN.length + utf8_utf8Length(truncationMarker(dropped)) : preamble;
}
function renderRunContext(ts, path) {
    return [
        '## Run Context',
        '',
        `- run.timestamp: \`${ts}\``,
        `- run.handoff_path: \`${path}\``,
        '',
        'Write your deliverable Markdown to `run.handoff_path` before exiting.',
        'It will be visible to every subsequent agent on this branch as a prior handoff.'
    ].join('\n');
}

;// CONCATENATED MODULE: ./.build/handoff/budget.js
// Byte accounting for the Prior Agent Handoffs block. The budget covers the whole rendered
// block (preamble, marker, joins, headers, bodies), so the block is never longer than it.



class BlockBudget {
    budget;
    /** Newest first: files are offered from the newest back. */
    pieces = [];
    names = [];
    piecesBytes = 0;
    // An empty newest body leaves `### name\n\n` at the end, which the final trim removes.
    trimmed = 0;
    truncatedFile;
    constructor(budget) {
        this.budget = budget;
    }
    get isEmpty() {
        return this.pieces.length === 0;
    }
    /** Roughly how many more body bytes could fit; used only to size read-ahead. */
    get remaining() {
        return this.budget - frameBytes(0) - this.piecesBytes;
    }
    /** Names shown, oldest first. */
    get included() {
        return [...this.names].reverse();
    }
    /**
     * Adds the next older file if the whole block fits, counting `dropped` files as left out
     * (everything older than this one, were the walk to stop here).
     */
    tryAdd(name, body, dropped) {
        const piece = renderPiece(name, body);
        const trimmed = this.isEmpty ? (body === '' ? JOIN.length : 0) : this.trimmed;
        const size = frameBytes(dropped) + this.piecesBytes + JOIN.length + utf8_utf8Length(piece) - trimmed;
        if (size > this.budget)
            return false;
        this.push(name, piece);
        this.trimmed = trimmed;
        return true;
    }
    /**
     * Shows the start of a newest file that does not fit whole, cut between code points and
     * ended by a notice. False when the budget cannot hold even the header and the notice.
     */
    tryCut(name, body, dropped) {
        if (!this.isEmpty)
            throw new Error('tryCut: only the newest file is ever cut');
        const total = utf8_utf8Length(body);
        const fixed = frameBytes(dropped) + JOIN.length + utf8_utf8Length(fileHeader(name)) + JOIN.length;
        const noticeMax = utf8_utf8Length(cutNotice(total, total));
        if (fixed + noticeMax > this.budget)
            return false;
        const room = this.budget - fixed - noticeMax - JOIN.length;
        const prefix = room > 0 ? dropCutForgedLine(cutUtf8(body, room).trimEnd()) : '';
        const notice = cutNotice(utf8_utf8Length(prefix), total);
        this.push(name, renderPiece(name, prefix ? prefix + JOIN + notice : notice));
        this.truncatedFile = name;
        return true;
    }
    render(dropped) {
        return joinBlock([...this.pieces].reverse(), dropped);
    }
    push(name, piece) {
        this.pieces.push(piece);
        this.names.push(name);
        this.piecesBytes += JOIN.length + utf8_utf8Length(piece);
    }
}
// Whole lines that imitate our headers were escaped before the cut, but cutting a line short
// can make a new one (`### a.mdx` → `### a.md`); such a last line goes.
function dropCutForgedLine(prefix) {
    const start = prefix.lastIndexOf('\n') + 1;
    return isForgedLine(prefix.slice(start)) ? prefix.slice(0, start).trimEnd() : prefix;
}

;// CONCATENATED MODULE: ./.build/handoff/handoff-text.js


/** A prior handoff's text as the block shows it: cleaned, forged headers escaped, trimmed. */
function cleanHandoffText(text) {
    const clean = (0,sanitize/* sanitizeUntrusted */._2)(text);
    const { text: escaped, count } = neutralizeForgedLines(clean.text);
    return { body: escaped.trim(), counts: clean.counts, forged: count };
}
/** The one-line report of what cleaning changed in a file, or '' when nothing did. */
function describeCleaning(name, c) {
    const parts = [(0,sanitize/* describeSanitizeCounts */.jw)(c.counts)];
    if (c.forged > 0) {
        parts.push(`escaped ${c.forged} line${c.forged === 1 ? '' : 's'} imitating handoff headers`);
    }
    const what = parts.filter((p) => p !== '').join('; ');
    return what ? `${name}: ${what}` : '';
}

;// CONCATENATED MODULE: ./.build/handoff/candidates.js
// Which entries of `.itervox/handoff` may be shown as prior handoffs, newest first.

// itervox shows any `*.md` (case-sensitive); we also require a name that cannot break out of
// its `### <name>` header line or look like something else.
const SAFE_NAME = /^[A-Za-z0-9._-]+\.md$/;
const MAX_NAME_BYTES = 255;
/** A name that may appear in a `### <name>` header (and so in a one-line message). */
const isSafeName = (name) => SAFE_NAME.test(name) && name.length <= MAX_NAME_BYTES;
const LISTED_PER_WARNING = 10;
/** Tallies skipped `.md` entries by reason, in the order reasons first occur. */
class Skips {
    byReason = new Map();
    add(reason, shownName) {
        const seen = this.byReason.get(reason) ?? { count: 0, names: [] };
        seen.count++;
        if (seen.names.length < LISTED_PER_WARNING)
            seen.names.push(shownName);
        this.byReason.set(reason, seen);
    }
    warnings() {
        return [...this.byReason].map(([reason, { count, names }]) => {
            const more = count > LISTED_PER_WARNING ? `, and ${count - LISTED_PER_WARNING} more` : '';
            return `skipped ${count} prior handoff file${count === 1 ? '' : 's'}: ${reason}: ${names.join(', ')}${more}`;
        });
    }
}
/** Whether a `.md` entry is left out silently (a directory, or the run's own deliverable). */
function isIgnored(e, ownNames) {
    return e.mode === '040000' || e.type === 'tree' || ownNames.includes(e.name);
}
/** The run's own deliverable and its partial, never shown. */
function ownNamesOf(opts) {
    return opts.ownPath ? [baseName(opts.ownPath), baseName(partialPathOf(opts.ownPath))] : [];
}
/** Why a `.md` entry that is not ignored cannot be shown, with its name as the warning lists it. */
function skipOf(e) {
    if (!isSafeName(e.name)) {
        return { reason: 'names that are not [A-Za-z0-9._-]+.md', shown: quoteName(e.name) };
    }
    if (e.mode === '120000')
        return { reason: 'symbolic links (mode 120000), never followed', shown: e.name };
    if (e.mode === '160000' || e.type === 'commit') {
        return { reason: 'submodules (gitlinks, mode 160000)', shown: e.name };
    }
    if ((e.mode !== '100644' && e.mode !== '100755') || e.type !== 'blob') {
        return { reason: 'entries that are not regular files', shown: `${e.name} (mode ${e.mode})` };
    }
    return null;
}
/** The `maxFiles` cap: how many of `kept` are left out, and the warning that says so. */
function capOf(kept, opts, nameAt) {
    const max = Math.max(0, Math.floor(opts.maxFiles));
    const omitted = Math.max(0, kept - max);
    if (omitted === 0)
        return { max, omitted };
    const range = omitted === 1 ? nameAt(0) : `${nameAt(0)} … ${nameAt(omitted - 1)}`;
    return {
        max,
        omitted,
        warning: `only the newest ${max} of ${kept} prior handoff files were considered; ` +
            `${omitted} older ${omitted === 1 ? 'one' : 'ones'} (${range}) ${omitted === 1 ? 'was' : 'were'} left out`
    };
}
/** Older first: by the instant in the name, then by the name (safe names are ASCII). */
const compareCandidates = (a, b) => ascii(a.key, b.key) || ascii(a.name, b.name);
/**
 * Filters, sorts and caps a directory listing; every skipped `.md` entry is reported. Sizes are
 * checked later, only for the files that may be read.
 */
function candidates_selectCandidates(all, opts) {
    const ownNames = ownNamesOf(opts);
    const skips = new Skips();
    const kept = [];
    for (const e of all) {
        if (!e.name.endsWith('.md') || isIgnored(e, ownNames))
            continue;
        const skip = skipOf(e);
        if (skip)
            skips.add(skip.reason, skip.shown);
        else
            kept.push({ key: handoffSortKey(e.name), name: e.name, entry: e });
    }
    kept.sort(compareCandidates);
    const warnings = skips.warnings();
    const cap = capOf(kept.length, opts, (i) => kept[i].name);
    if (cap.warning)
        warnings.push(cap.warning);
    const entries = kept.slice(cap.omitted).map((k) => k.entry);
    entries.reverse();
    return { entries, omitted: cap.omitted, warnings };
}
const ascii = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
/** A name made safe for a one-line message: quoted, anything outside printable ASCII escaped. */
function quoteName(name) {
    let out = '"';
    for (const ch of name) {
        const cp = ch.codePointAt(0);
        if (ch === '"' || ch === '\\')
            out += `\\${ch}`;
        else if (cp >= 0x20 && cp < 0x7f)
            out += ch;
        else
            out += `\\u{${cp.toString(16)}}`;
    }
    return `${out}"`;
}

;// CONCATENATED MODULE: ./.build/handoff/tree-candidates.js


const LISTED_CHANGED = 10;
/**
 * The candidates at `head`, leaving out every name `since` (the fork point's directory, or
 * null when there is none) already had: those are earlier issues' deliverables.
 */
function treeCandidates(head, since, opts) {
    // The leading entries the fork point holds byte for byte are never shown nor reported.
    const shared = since ? head.commonLeadingEntries(since) : 0;
    if (!head.namesAscend() || (since && !since.namesAscend(Math.max(0, shared - 1)))) {
        return fromEntries(head.entries(), since?.entries() ?? null, opts);
    }
    const ownNames = ownNamesOf(opts);
    const ownBytes = ownNames.map((n) => Buffer.from(n));
    const skips = new Skips();
    const changed = [];
    let changedCount = 0;
    const plain = [];
    const other = [];
    let j = shared;
    for (let i = shared; i < head.count; i++) {
        if (since) {
            while (j < since.count && head.compareNames(i, since, j) > 0)
                j++;
            if (j < since.count && head.compareNames(i, since, j) === 0) {
                if (!head.sameOid(i, since, j) && isSafeName(head.name(i))) {
                    if (changedCount++ < LISTED_CHANGED)
                        changed.push(head.name(i));
                }
                continue;
            }
        }
        const from = head.nameStart(i);
        const to = head.nameEnd(i);
        const data = head.data;
        if (!endsWithMd(data, from, to))
            continue;
        if (head.isPlainFile(i) && isTimestamped(data, from, to)) {
            if (!ownBytes.some((b) => b.length === to - from && b.equals(data.subarray(from, to)))) {
                plain.push(i);
            }
            continue;
        }
        const e = head.entry(i);
        if (isIgnored(e, ownNames))
            continue;
        const skip = skipOf(e);
        if (skip)
            skips.add(skip.reason, skip.shown);
        else
            other.push({ key: handoffSortKey(e.name), name: e.name, i });
    }
    other.sort(compareCandidates);
    // Both runs are oldest first; merging them from their newest ends gives the candidates.
    const named = (i) => {
        const name = head.name(i);
        return { key: handoffSortKey(name), name, i };
    };
    let p = plain.length - 1;
    let o = other.length - 1;
    const nextNewest = () => {
        const a = p >= 0 ? named(plain[p]) : null;
        const b = o >= 0 ? other[o] : null;
        if (a && (!b || compareCandidates(a, b) > 0)) {
            p--;
            return a;
        }
        o--;
        return b;
    };
    const kept = plain.length + other.length;
    const oldest = () => {
        const a = plain.length > 0 ? named(plain[0]) : null;
        const b = other[0];
        return (a && (!b || compareCandidates(a, b) < 0) ? a : b).name;
    };
    const newest = [];
    const take = Math.min(kept, Math.max(0, Math.floor(opts.maxFiles)));
    for (let n = 0; n < take; n++)
        newest.push(head.entry(nextNewest().i));
    // The cap's warning names the oldest candidate and the newest one it left out.
    const newestLeftOut = take < kept ? nextNewest().name : '';
    const cap = capOf(kept, opts, (ascending) => (ascending === 0 ? oldest() : newestLeftOut));
    const warnings = skips.warnings();
    if (cap.warning)
        warnings.push(cap.warning);
    if (changedCount > 0)
        warnings.unshift(changedWarning(changedCount, changed));
    return { entries: newest, omitted: cap.omitted, warnings };
}
/** The same from fully parsed listings: the reference the raw walk must equal. */
function fromEntries(head, since, opts) {
    if (!since)
        return candidates_selectCandidates(head, opts);
    const oids = new Map(since.map((e) => [e.name, e.oid]));
    const changed = [];
    const own = head.filter((e) => {
        const oid = oids.get(e.name);
        if (oid !== undefined && oid !== e.oid && isSafeName(e.name))
            changed.push(e.name);
        return oid === undefined;
    });
    const found = candidates_selectCandidates(own, opts);
    if (changed.length > 0) {
        found.warnings.unshift(changedWarning(changed.length, changed.slice(0, LISTED_CHANGED)));
    }
    return found;
}
// A name the base branch already had at the fork point is another issue's deliverable, also
// when this branch changed its text.
function changedWarning(count, names) {
    const shown = names.join(', ') + (count > LISTED_CHANGED ? ', …' : '');
    const one = count === 1;
    return `left out ${count} handoff file${one ? '' : 's'} that ${one ? 'was' : 'were'} on the base branch before this branch left it, though this branch changed ${one ? 'it' : 'them'}: ${shown}`;
}
const endsWithMd = (data, from, to) => to - from >= 3 && data[to - 3] === 0x2e && data[to - 2] === 0x6d && data[to - 1] === 0x64;
// `YYYY-MM-DDTHH-MM-SS.mmmZ_`, then only [A-Za-z0-9._-], at most 255 bytes: a safe name whose
// sort key orders as its bytes do.
const SHAPE = 'dddd-dd-ddTdd-dd-dd.dddZ_';
const SAFE = new Uint8Array(256);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-') {
    SAFE[c.charCodeAt(0)] = 1;
}
function isTimestamped(data, from, to) {
    if (to - from > 255 || to - from < SHAPE.length + 3)
        return false;
    for (let k = 0; k < SHAPE.length; k++) {
        const c = data[from + k];
        const want = SHAPE.charCodeAt(k);
        if (want === 0x64 /* d */ ? c < 0x30 || c > 0x39 : c !== want)
            return false;
    }
    for (let k = from + SHAPE.length; k < to; k++)
        if (!SAFE[data[k]])
            return false;
    return true;
}

;// CONCATENATED MODULE: ./.build/handoff/block.js









const DEFAULT_BLOCK_OPTIONS = {
    budgetBytes: 30 * 1024,
    maxFileBytes: 1024 * 1024,
    maxFiles: 1000
};
function* walk(found, opts) {
    const budget = new BlockBudget(opts.budgetBytes);
    const warnings = [...found.warnings];
    const sanitized = (0,sanitize/* emptyCounts */.W1)();
    const files = found.entries;
    let dropped = found.omitted;
    for (const [i, file] of files.entries()) {
        const name = file.name;
        const decoded = yield { index: i, file, remaining: budget.remaining };
        if (!decoded.ok) {
            warnings.push(`skipped prior handoff ${name}: it ${decoded.problem}`);
            continue;
        }
        const clean = cleanHandoffText(decoded.text);
        const older = files.length - 1 - i + found.omitted;
        let shown = budget.tryAdd(name, clean.body, older);
        if (!shown && budget.isEmpty) {
            shown = budget.tryCut(name, clean.body, older);
            if (shown) {
                warnings.push(`prior handoff ${name} alone is over the ${opts.budgetBytes}-byte budget; it was cut`);
            }
            else {
                warnings.push(`the ${opts.budgetBytes}-byte handoff budget cannot hold even one prior handoff`);
            }
        }
        if (shown) {
            (0,sanitize/* addCounts */.c5)(sanitized, clean.counts);
            const note = describeCleaning(name, clean);
            if (note)
                warnings.push(note);
        }
        if (!shown || budget.truncatedFile) {
            dropped = older + (shown ? 0 : 1);
            break;
        }
    }
    const text = budget.render(dropped);
    return {
        text,
        included: budget.included,
        dropped,
        ...(budget.truncatedFile ? { truncatedFile: budget.truncatedFile } : {}),
        bytes: utf8_utf8Length(text),
        warnings,
        sanitized
    };
}
/** The block from texts already in hand (pure; the golden tests use it). */
function renderHandoffBlock(files, opts) {
    checkOptions(opts);
    const texts = new Map();
    const entries = files.map((f) => {
        if (texts.has(f.name))
            throw new Error(`renderHandoffBlock: ${f.name} given twice`);
        texts.set(f.name, f.text);
        return { name: f.name, mode: '100644', type: 'blob', size: utf8Length(f.text) };
    });
    const found = selectCandidates(entries, opts);
    const it = walk(found, opts);
    let step = it.next();
    while (!step.done) {
        const { name, size } = step.value.file;
        const text = texts.get(name);
        step = it.next(overCap(size, opts) ?? { ok: true, text });
    }
    return step.value;
}
// Sizes are asked this many files ahead; blobs are read at most this many per round trip.
const SIZE_WINDOW = 64;
const MAX_BATCH = 256;
/** The block from the handoffs committed at `at.head` and not at `at.since`, from git objects. */
async function buildHandoffBlock(git, at, opts) {
    checkOptions(opts);
    const head = await git.findTree(at.head, HANDOFF_DIR);
    if (head.kind === 'missing')
        return noBlock([]);
    if (head.kind === 'other') {
        const what = head.path === HANDOFF_DIR ? HANDOFF_DIR : `${head.path} (a parent of ${HANDOFF_DIR})`;
        return noBlock([
            `refused ${what} at ${at.head}: it is ${describeMode(head.mode)}, not a directory; no prior handoff was read`
        ]);
    }
    const before = at.since ? await git.findTree(at.since, HANDOFF_DIR) : null;
    // The same directory at the fork point: the branch added no handoff, nothing to read.
    if (before?.kind === 'tree' && before.oid === head.oid)
        return noBlock([]);
    const found = treeCandidates(await git.readRawTree(head), before?.kind === 'tree' ? await git.readRawTree(before) : null, opts);
    const files = found.entries;
    const sizeOf = async (file, i) => {
        if (file.size === null) {
            const window = files.slice(i, i + SIZE_WINDOW).filter((f) => f.size === null);
            const sizes = await git.blobSizes(window.map((f) => f.oid));
            for (const f of window)
                f.size = sizes.get(f.oid);
        }
        return file.size;
    };
    const cache = new Map();
    const it = walk(found, opts);
    let step = it.next();
    while (!step.done) {
        const { index, file, remaining } = step.value;
        const tooBig = overCap(await sizeOf(file, index), opts);
        if (tooBig) {
            step = it.next(tooBig);
            continue;
        }
        if (!cache.has(index)) {
            // Read this file and the next older ones that could still fit, plus one more; a blob
            // over the cap is never read.
            const batch = [{ j: index, oid: file.oid }];
            let bytes = estimate(file);
            for (let j = index + 1; j < files.length && bytes < remaining; j++) {
                const older = files[j];
                if (batch.length >= MAX_BATCH || older.size === null)
                    break;
                if (overCap(older.size, opts))
                    continue;
                batch.push({ j, oid: older.oid });
                bytes += estimate(older);
            }
            const blobs = await git.readBlobs(batch.map((b) => b.oid));
            for (const b of batch)
                cache.set(b.j, blobs.get(b.oid));
        }
        const bytes = cache.get(index);
        cache.delete(index);
        step = it.next(decodeUtf8(bytes));
    }
    return step.value;
}
function overCap(size, opts) {
    if (size <= opts.maxFileBytes)
        return null;
    return {
        ok: false,
        problem: `is ${size} bytes, over the ${opts.maxFileBytes}-byte per-file cap; it was not read`
    };
}
function checkOptions(opts) {
    for (const key of ['budgetBytes', 'maxFileBytes', 'maxFiles']) {
        const n = opts[key];
        if (!Number.isSafeInteger(n) || n < 0)
            throw new Error(`handoff ${key} must be a whole number ≥ 0, not ${n}`);
    }
}
// A file's share of the block if its blob shows unchanged: header, joins and body.
function estimate(file) {
    return utf8_utf8Length(fileHeader(file.name)) + 2 * JOIN.length + (file.size ?? 0);
}
function noBlock(warnings) {
    return { text: '', included: [], dropped: 0, bytes: 0, warnings, sanitized: (0,sanitize/* emptyCounts */.W1)() };
}
function describeMode(mode) {
    if (mode === '120000')
        return 'a symbolic link (mode 120000)';
    if (mode === '160000')
        return 'a submodule (gitlink, mode 160000)';
    return `a file (mode ${mode ?? 'unknown'})`;
}

;// CONCATENATED MODULE: ./.build/handoff/worktree-path.js


/** The components of a repository-relative path; throws for anything that could leave the root. */
function splitRelative(relPath) {
    const parts = relPath.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.includes('\0') || p.includes('\\'))) {
        throw new Error(`not a repository-relative path: ${JSON.stringify(relPath)}`);
    }
    return parts;
}
async function inspectPath(repoRoot, relPath) {
    const parts = splitRelative(relPath);
    for (let i = 1; i < parts.length; i++) {
        const parent = parts.slice(0, i).join('/');
        const st = await worktree_path_lstatOrNull((0,external_node_path_.join)(repoRoot, parent));
        if (!st)
            return { kind: 'missing' };
        if (!st.isDirectory())
            return { kind: 'bad-parent', parent, what: describeStat(st) };
    }
    const st = await worktree_path_lstatOrNull((0,external_node_path_.join)(repoRoot, relPath));
    if (!st)
        return { kind: 'missing' };
    if (!st.isFile())
        return { kind: 'not-file', what: describeStat(st) };
    return { kind: 'file', stat: st };
}
async function worktree_path_lstatOrNull(path) {
    try {
        return await (0,promises_.lstat)(path);
    }
    catch (e) {
        if (e.code === 'ENOENT')
            return null;
        throw e;
    }
}
function describeStat(st) {
    if (st.isSymbolicLink())
        return 'a symbolic link';
    if (st.isDirectory())
        return 'a directory';
    if (st.isFIFO())
        return 'a FIFO';
    if (st.isSocket())
        return 'a socket';
    if (st.isCharacterDevice() || st.isBlockDevice())
        return 'a device';
    return 'a regular file';
}

;// CONCATENATED MODULE: ./.build/handoff/deliverable.js
// Checks the deliverable an agent left in the worktree before anything reads or commits it.






/**
 * The deliverable's text if it is usable: a regular file with no symlink anywhere on its path,
 * one hard link, at most `maxBytes`, valid UTF-8 (a BOM is dropped), not blank, with every
 * required section. A YAML front matter block at the top is allowed and not counted as
 * content. Otherwise one line saying what is wrong.
 */
async function checkDeliverable(repoRoot, handoffPath, opts) {
    const fail = (problem) => ({ ok: false, problem });
    const state = await inspectPath(repoRoot, handoffPath);
    if (state.kind === 'missing')
        return fail(`no deliverable was written at ${handoffPath}`);
    if (state.kind === 'bad-parent') {
        return fail(`${state.parent} is ${state.what}, so ${handoffPath} was not read through it`);
    }
    if (state.kind === 'not-file')
        return fail(`${handoffPath} is ${state.what}, not a regular file`);
    const shape = shapeProblem(state.stat, opts.maxBytes);
    if (shape)
        return fail(`${handoffPath} ${shape}`);
    const bytes = await readNoFollow((0,external_node_path_.join)(repoRoot, handoffPath), state.stat, opts.maxBytes);
    if (typeof bytes === 'string')
        return fail(`${handoffPath} ${bytes}`);
    const decoded = decodeUtf8(bytes);
    if (!decoded.ok)
        return fail(`${handoffPath} ${decoded.problem}`);
    const text = decoded.text;
    if (text.includes('\0'))
        return fail(`${handoffPath} contains NUL bytes; a deliverable is text`);
    const body = withoutFrontMatter(text);
    if (body.trim() === '') {
        return fail(body === text ? `${handoffPath} is empty` : `${handoffPath} has front matter but no content`);
    }
    const missing = missingSections(body, opts.requiredSections ?? []);
    if (missing.length > 0) {
        const list = missing.map((s) => JSON.stringify(s)).join(', ');
        return fail(`${handoffPath} is missing the required section${missing.length === 1 ? '' : 's'} ${list} (a Markdown heading of any level)`);
    }
    return { ok: true, text };
}
function shapeProblem(st, maxBytes) {
    if (st.nlink !== 1)
        return `has ${st.nlink} hard links; a deliverable must be a file of its own`;
    if (st.size > maxBytes)
        return `is ${st.size} bytes, over the ${maxBytes}-byte cap`;
    return null;
}
// Opens without following a final symlink and re-checks the opened file, so a swap between
// the lstat and the open is caught.
async function readNoFollow(path, seen, maxBytes) {
    let fh;
    try {
        fh = await (0,promises_.open)(path, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NOFOLLOW | external_node_fs_.constants.O_NONBLOCK);
    }
    catch (e) {
        return `could not be opened (${e.code ?? 'error'})`;
    }
    try {
        const st = await fh.stat();
        if (!st.isFile() || st.dev !== seen.dev || st.ino !== seen.ino) {
            return 'changed while it was being checked';
        }
        const problem = shapeProblem(st, maxBytes);
        if (problem)
            return problem;
        const buf = Buffer.alloc(st.size + 1);
        let got = 0;
        for (;;) {
            const { bytesRead } = await fh.read(buf, got, buf.length - got, got);
            if (bytesRead === 0)
                break;
            got += bytesRead;
            if (got === buf.length)
                return `grew past ${st.size} bytes while it was being read`;
        }
        return buf.subarray(0, got);
    }
    finally {
        await fh.close();
    }
}
/** The text after a closed front matter block at the top; the text itself when there is none. */
function withoutFrontMatter(text) {
    const lines = text.split(/\r?\n/);
    const end = frontMatterEnd(lines);
    return end < 0 || end === lines.length ? text : lines.slice(end + 1).join('\n');
}
/** Titles of the Markdown headings (ATX and setext), outside fenced code blocks. */
function headingTitles(markdown) {
    const titles = [];
    let fence = null;
    let previous = null;
    for (const line of markdown.split(/\r?\n/)) {
        const f = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
        if (fence) {
            if (f && f[0] === fence.ch && f.length >= fence.len && /^ {0,3}[`~]+[ \t]*$/.test(line)) {
                fence = null;
            }
            previous = null;
            continue;
        }
        if (f) {
            fence = { ch: f.charAt(0), len: f.length };
            previous = null;
            continue;
        }
        const atx = /^ {0,3}#{1,6}(?:[ \t]+(.*?))?[ \t]*$/.exec(line);
        if (atx) {
            titles.push((atx[1] ?? '').replace(/(?:^|[ \t]+)#+$/, ''));
            previous = null;
            continue;
        }
        if (previous !== null && /^ {0,3}(?:=+|-+)[ \t]*$/.test(line)) {
            titles.push(previous);
            previous = null;
            continue;
        }
        previous = line.trim() === '' || /^ {4}/.test(line) ? null : line;
    }
    return titles;
}
const normalTitle = (s) => s.replace(/^#+/, '').trim().replace(/\s+/g, ' ').toLowerCase();
function missingSections(body, required) {
    const have = new Set(headingTitles(body).map(normalTitle));
    return required.filter((r) => !have.has(normalTitle(r)));
}

;// CONCATENATED MODULE: ./.build/handoff/partial.js
// Marks a run's deliverable as partial when the run did not succeed. Only that run's exact file
// is ever touched: never another profile's, never one picked by suffix or by mtime.







// Characters (code points) of the one-line detail.
const MAX_DETAIL = 300;
async function markPartial(repoRoot, handoffPath, info, opts = { maxBytes: 1024 * 1024 }) {
    const parsed = parseRunFileName(baseName(handoffPath));
    if (!parsed || handoffPath !== `${HANDOFF_DIR}/${baseName(handoffPath)}`) {
        throw new Error(`markPartial: not a run's handoff path: ${JSON.stringify(handoffPath)}`);
    }
    if (parsed.profile !== info.profile) {
        throw new Error(`markPartial: ${handoffPath} is not profile ${info.profile}'s file`);
    }
    if (!/^[a-z_]+$/.test(info.outcome)) {
        throw new Error(`markPartial: bad outcome ${JSON.stringify(info.outcome)}`);
    }
    const partial = partialPathOf(handoffPath);
    const warnings = [];
    const source = await checkDeliverable(repoRoot, handoffPath, { maxBytes: opts.maxBytes });
    await ensureRealDir(repoRoot, warnings);
    // Junk at the partial's own name (a symlink, a hard link, …) must not be committed.
    const existing = await checkDeliverable(repoRoot, partial, { maxBytes: opts.maxBytes });
    if (existing.ok) {
        if (source.ok) {
            warnings.push(`${partial} already exists; kept it and left ${handoffPath} in place`);
        }
        return { path: partial, how: 'kept', warnings };
    }
    if (await worktree_path_lstatOrNull((0,external_node_path_.join)(repoRoot, partial))) {
        await (0,promises_.rm)((0,external_node_path_.join)(repoRoot, partial), { recursive: true, force: true });
        warnings.push(`removed ${partial}, which was not usable: ${existing.problem}`);
    }
    if (source.ok) {
        await (0,promises_.rename)((0,external_node_path_.join)(repoRoot, handoffPath), (0,external_node_path_.join)(repoRoot, partial));
        return { path: partial, how: 'renamed', warnings };
    }
    const at = (0,external_node_path_.join)(repoRoot, handoffPath);
    const st = await worktree_path_lstatOrNull(at);
    if (st && !st.isFile() && !st.isDirectory()) {
        await (0,promises_.unlink)(at);
        warnings.push(`removed ${handoffPath}: it was ${describeStat(st)}, not followed`);
    }
    await writeNew((0,external_node_path_.join)(repoRoot, partial), partialNote(handoffPath, info, source.problem));
    return { path: partial, how: 'written', warnings };
}
/** Our own partial, for when the agent left nothing usable. */
function partialNote(handoffPath, info, problem) {
    const chars = [...(0,sanitize/* sanitizeUntrusted */._2)(info.detail).text.replace(/\s+/g, ' ').trim()];
    const detail = chars.length > MAX_DETAIL ? `${chars.slice(0, MAX_DETAIL).join('')}…` : chars.join('');
    return [
        `# Partial handoff: ${info.profile} (${info.outcome})`,
        '',
        `The ${info.profile} agent exited before completing its deliverable (outcome: \`${info.outcome}\`) and left nothing usable: ${problem}.`,
        '',
        `- profile: \`${info.profile}\``,
        `- outcome: \`${info.outcome}\``,
        `- detail: ${detail || '(none)'}`,
        `- time: ${info.at.toISOString()}`,
        '',
        `handoff-action wrote this note in place of \`${baseName(handoffPath)}\`. Start from the earlier handoffs and the branch as it is.`,
        ''
    ].join('\n');
}
// `.itervox` and `.itervox/handoff` must be real directories before anything is written into
// them; a symlink or file there (left by the agent, or committed) is removed, never followed.
async function ensureRealDir(repoRoot, warnings) {
    const parts = splitRelative(HANDOFF_DIR);
    for (let i = 1; i <= parts.length; i++) {
        const rel = parts.slice(0, i).join('/');
        const abs = (0,external_node_path_.join)(repoRoot, rel);
        const st = await worktree_path_lstatOrNull(abs);
        if (st?.isDirectory())
            continue;
        if (st) {
            await (0,promises_.unlink)(abs);
            warnings.push(`removed ${rel}: it was ${describeStat(st)}, not a directory`);
        }
        await (0,promises_.mkdir)(abs);
    }
}
async function writeNew(path, text) {
    const fh = await (0,promises_.open)(path, external_node_fs_.constants.O_WRONLY | external_node_fs_.constants.O_CREAT | external_node_fs_.constants.O_EXCL | external_node_fs_.constants.O_NOFOLLOW, 0o644);
    try {
        await fh.writeFile(text, 'utf8');
    }
    finally {
        await fh.close();
    }
}

;// CONCATENATED MODULE: ./.build/handoff/index.js






;// CONCATENATED MODULE: ./.build/pipeline/flags.js
// A flag is a label on GitHub, and labels match in any case; flag names are lower case.
function hasFlag(labels, flag) {
    return labels.some((l) => l.toLowerCase() === flag);
}
/** The labels once `flag` is set (`on`) or cleared. */
function withFlag(labels, flag, on) {
    return on ? [...labels, flag] : labels.filter((l) => l.toLowerCase() !== flag);
}

;// CONCATENATED MODULE: ./.build/pipeline/requests.js





// A deliverable's front matter is a few lines; anything larger is not a request.
const MAX_FRONT_MATTER = 16 * 1024;
const MAX_COMMENT = 60_000;
const KEYS = ['move_state', 'comment', 'comment_pr', 'verdict'];
/**
 * Reads the YAML front matter at the top of a deliverable. Every value is untrusted: it was
 * written by an agent that may have been prompt-injected. Problems are notices, not failures.
 */
function readRequests(deliverable) {
    const problems = [];
    const requests = {};
    const parts = splitFrontMatter(deliverable.replace(/\r\n?/g, '\n'));
    if (parts.frontMatter === null)
        return { requests, problems };
    if (parts.unclosed || parts.frontMatter.length > MAX_FRONT_MATTER) {
        return { requests, problems: ['the front matter is not closed by a --- line within 16 KiB'] };
    }
    const tree = readYamlTree(parts.frontMatter, parts.frontMatterLine);
    if (tree.errors.length > 0) {
        return {
            requests,
            problems: [`the front matter is not valid YAML: ${tree.errors[0].message}`]
        };
    }
    const root = tree.root;
    if (root === undefined || root === null)
        return { requests, problems };
    if (typeof root !== 'object' || Array.isArray(root)) {
        return { requests, problems: ['the front matter is not a map of requests'] };
    }
    for (const [key, value] of Object.entries(root)) {
        if (!KEYS.includes(key)) {
            problems.push(`unknown request "${(0,untrusted_text/* clip */.$Q)(key, 40)}" ignored; use ${KEYS.join(', ')}`);
            continue;
        }
        if (typeof value !== 'string' || !value.trim()) {
            problems.push(`${key} must be a non-empty string`);
            continue;
        }
        const clean = (0,sanitize/* sanitizeUntrusted */._2)(value).text.trim();
        if (key === 'move_state')
            requests.moveState = (0,untrusted_text/* clip */.$Q)(clean, 100);
        else if (key === 'comment')
            requests.comment = (0,untrusted_text/* clip */.$Q)(clean, MAX_COMMENT);
        else if (key === 'comment_pr')
            requests.commentPr = (0,untrusted_text/* clip */.$Q)(clean, MAX_COMMENT);
        else {
            const verdict = clean.toUpperCase();
            if (verdict === 'PASS' || verdict === 'FAIL')
                requests.verdict = verdict;
            else
                problems.push(`verdict must be PASS or FAIL, not "${(0,untrusted_text/* clip */.$Q)(clean, 40)}"`);
        }
    }
    return { requests, problems };
}
/**
 * Keeps the requests the profile's allowed_actions permit; a move must name a state WORKFLOW.md
 * knows (it is returned in WORKFLOW.md's spelling) within the stage's scope (see moveScope).
 * `verdict` needs no permission: it only counts in a review.
 */
function permittedRequests(requests, allowedActions, states, scope) {
    const permitted = {};
    const refused = [];
    const allows = (action) => allowedActions.includes(action);
    if (requests.moveState !== undefined) {
        const known = states.find((s) => sameState(s, requests.moveState));
        if (!allows('move_state'))
            refused.push('move_state: the profile may not move the issue');
        else if (!known)
            refused.push(`move_state: "${requests.moveState}" is not a state of WORKFLOW.md`);
        else if (!scope.states.some((s) => sameState(s, known))) {
            const reach = scope.states.map((s) => `"${s}"`).join(', ') || 'no other state';
            refused.push(`move_state: "${known}" is outside the pipeline from "${scope.from}" (it may move to ${reach}); to allow it, add it to agent.profiles.${scope.profile}.allowed_states`);
        }
        else
            permitted.moveState = known;
    }
    if (requests.comment !== undefined) {
        if (allows('comment'))
            permitted.comment = requests.comment;
        else
            refused.push('comment: the profile may not comment on the issue');
    }
    if (requests.commentPr !== undefined) {
        if (allows('comment_pr'))
            permitted.commentPr = requests.commentPr;
        else
            refused.push('comment_pr: the profile may not comment on the pull request');
    }
    if (requests.verdict)
        permitted.verdict = requests.verdict;
    return { permitted, refused };
}
/** The prompt section telling the agent which requests its profile may make, and where to. */
function requestsSection(allowedActions, review, moveTargets) {
    const lines = [
        '## Requests to the pipeline',
        '',
        'You hold no token. To ask for an action, start your deliverable with YAML front matter, for example:',
        '',
        '```',
        '---'
    ];
    const allowed = [];
    if (allowedActions.includes('move_state') && moveTargets.length > 0) {
        lines.push('move_state: <one of the states below>');
        const to = moveTargets.map((s) => JSON.stringify(s)).join(', ');
        allowed.push(`\`move_state\` (move the issue to one of: ${to})`);
    }
    if (allowedActions.includes('comment')) {
        lines.push('comment: <text for a comment on the issue>');
        allowed.push('`comment` (comment on the issue)');
    }
    if (allowedActions.includes('comment_pr')) {
        lines.push('comment_pr: <text for a comment on the pull request>');
        allowed.push('`comment_pr` (comment on the pull request)');
    }
    if (review) {
        lines.push('verdict: PASS');
        allowed.push('`verdict` (required in this review: PASS, or FAIL with your findings below it)');
    }
    lines.push('---', '```', '');
    lines.push(allowed.length > 0
        ? `Your profile may request: ${allowed.join(', ')}. Anything else is refused.`
        : 'Your profile may not request any action; do not add front matter.');
    lines.push('Requests are carried out after you exit, and only if your deliverable is complete.');
    lines.push("If you cannot go on without a person's answer, end your reply with the question, then a line holding only `<!-- itervox:needs-input -->`; the stage waits for the answer.");
    return lines.join('\n');
}

;// CONCATENATED MODULE: ./.build/pipeline/apply.js




/**
 * Carries out a decision's effects in order, skipping each one already done: a move whose
 * target the issue is in, a wake-up this job is, a comment whose key exists (the tracker
 * checks), a flag already set. Stops at the first failure, which is thrown.
 */
async function carryOut(o) {
    let state = o.issue.state;
    let labels = o.issue.labels;
    let performed = 0;
    const issue = () => ({ ...o.issue, state, labels });
    for (const e of o.effects) {
        switch (e.kind) {
            case 'move': {
                if (state !== null && sameState(state, e.to))
                    break;
                // Someone moved the issue elsewhere meanwhile: their move stands.
                if (state === null || !sameState(state, e.from))
                    break;
                state = (await o.tracker.moveState(issue(), e.from, e.to)).current;
                performed++;
                break;
            }
            case 'wake': {
                if (!o.resendWakes)
                    break;
                if (state === null || !sameState(state, e.state))
                    break;
                await o.tracker.wake(issue(), {
                    state: e.state,
                    entry: e.entry,
                    ...(e.step ? { step: e.step } : {})
                });
                performed++;
                break;
            }
            case 'flag': {
                if (hasFlag(labels, e.flag) === e.on)
                    break;
                await o.tracker.setFlag(issue(), e.flag, e.on);
                labels = withFlag(labels, e.flag, e.on);
                performed++;
                break;
            }
            case 'comment':
                await o.tracker.comment(issue(), { key: e.key, body: e.body });
                performed++;
                break;
            case 'agent-comment': {
                const body = await agentWords(o, e);
                if (body === null)
                    break;
                await o.tracker.comment(issue(), {
                    key: e.key,
                    body,
                    agent: e.profile,
                    ...(e.pullRequest !== undefined ? { pullRequest: e.pullRequest } : {})
                });
                performed++;
                break;
            }
        }
    }
    return { performed, state };
}
/** The comment the agent asked for, read again from its committed deliverable. */
async function agentWords(o, e) {
    const text = await o.workspace.readCommitted(e.commit, e.path, o.maxFileBytes);
    if (text === null)
        return null;
    const { requests } = readRequests(text);
    const words = e.pullRequest === undefined ? requests.comment : requests.commentPr;
    return words ? (0,untrusted_text/* agentMarkdown */.vE)(words) : null;
}

;// CONCATENATED MODULE: ./.build/pipeline/decide.js


/** Whether this trigger starts a stage for the issue as it is now (never as the payload says). */
function decideStage(config, trigger, issue) {
    if (issue.closed)
        return { skip: `${issue.identifier} is closed` };
    const state = issue.state;
    if (trigger.label) {
        const label = trigger.label;
        const isState = knownStates(config).some((k) => sameState(k, label));
        if (!isState)
            return { skip: `label "${label}" is not a pipeline state` };
        if (!state || !sameState(state, label)) {
            return {
                skip: `label "${label}" was added, but the issue is now in "${state ?? 'no state'}"`
            };
        }
    }
    if (!state)
        return { skip: `${issue.identifier} carries no state` };
    if (trigger.state && !sameState(trigger.state, state)) {
        return { skip: `the trigger was for "${trigger.state}", but the issue is now in "${state}"` };
    }
    const automation = findAutomation(config, state);
    if (!automation)
        return { skip: `no automation starts when an issue enters "${state}"` };
    if (!config.agent.profiles[automation.profile]?.enabled) {
        return { skip: `profile ${automation.profile} is disabled` };
    }
    return { state, automation };
}

;// CONCATENATED MODULE: ./.build/pipeline/actor.js
/** A bot account: by the event's sender type, or by GitHub's `[bot]` login suffix. */
function isBot(actor, actorType) {
    return actorType?.toLowerCase() === 'bot' || actor.toLowerCase().endsWith('[bot]');
}

;// CONCATENATED MODULE: ./.build/pipeline/move-scope.js

/**
 * The states an agent's `move_state` may name from `from`: those the pipeline's own
 * automations lead to from there (however many stages on), those that lead to it (a send-back,
 * which counts as a review round), the completion and failed states, and the profile's
 * `allowed_states`. Everything else is out of scope, so an injected agent cannot skip the
 * pipeline into an unrelated state or close the issue. In WORKFLOW.md's spelling.
 */
function moveScope(config, from, profile) {
    const { forward, backward } = graphOf(config);
    const { completionState, failedState } = config.tracker;
    const out = [
        ...reachable(forward, from).values(),
        ...reachable(backward, from).values(),
        ...(completionState ? [completionState] : []),
        ...(failedState ? [failedState] : []),
        ...profile.allowedStates
    ];
    return out.filter((s, i) => out.findIndex((o) => sameState(o, s)) === i);
}
/**
 * Whether a move from `from` to `to` sends the work back: `to` is a state the issue was
 * already in, and not one the automations lead on to from `from` (the next stage of a round is
 * no new round). In a cycle of automations every way is back.
 */
function sendsBack(config, from, to, visited) {
    if (!visited.some((s) => sameState(s, to)))
        return false;
    const { forward, backward } = graphOf(config);
    const key = stateKey(to);
    return !reachable(forward, from).has(key) || reachable(backward, from).has(key);
}
/** The automations' moves, both ways, keyed by state key. */
function graphOf(config) {
    const forward = new Map();
    const backward = new Map();
    const link = (edges, a, b) => {
        const list = edges.get(stateKey(a)) ?? [];
        list.push(b);
        edges.set(stateKey(a), list);
    };
    for (const a of config.automations) {
        if (!a.enabled || !a.moveToState)
            continue;
        for (const s of a.states) {
            link(forward, s, a.moveToState);
            link(backward, a.moveToState, s);
        }
    }
    return { forward, backward };
}
/** Every state reachable from `from` along `edges`, by key; `from` itself only through a cycle. */
function reachable(edges, from) {
    const seen = new Map();
    const todo = [...(edges.get(stateKey(from)) ?? [])];
    while (todo.length > 0) {
        const s = todo.pop();
        if (seen.has(stateKey(s)))
            continue;
        seen.set(stateKey(s), s);
        todo.push(...(edges.get(stateKey(s)) ?? []));
    }
    return seen;
}

;// CONCATENATED MODULE: ./.build/pipeline/plan.js

/**
 * Decides what this job runs so that one entry into a state runs its stage once (plus the
 * pipeline's own retries, reviews and reworks), whatever mix of label events, dispatches and
 * re-runs arrives. Jobs for one issue are serialised by the workflow's concurrency group, so the
 * record read here already holds every earlier job's stage.
 */
function planStage(o) {
    const plan = planOf(o);
    const back = o.record.sentBack;
    if ('skip' in plan || plan.kind !== 'work' || back?.entry !== plan.entry) {
        return plan;
    }
    return { ...plan, sentBackBy: back.by };
}
function planOf(o) {
    const { record, state, automation, trigger } = o;
    const sameEntry = record.state !== null && sameState(record.state, state);
    const inEntry = sameEntry ? record.stages.filter((s) => s.entry === record.entry) : [];
    const mine = record.stages.filter((s) => s.run.split('/')[0] === o.runId);
    const rerun = mine[mine.length - 1];
    if (rerun) {
        if (!sameEntry || rerun.entry !== record.entry) {
            return { skip: 'this job ran for an earlier entry into the state; the issue has moved on' };
        }
        if (rerun.outcome === 'succeeded') {
            return { skip: `this job's ${rerun.profile} stage already succeeded for "${state}"` };
        }
        return {
            entry: record.entry,
            newEntry: false,
            kind: rerun.kind,
            profile: rerun.profile,
            attempt: nextAttempt(inEntry, rerun.kind, rerun.profile),
            round: record.round,
            resume: 0
        };
    }
    if (trigger.source === 'comment') {
        const w = record.waiting;
        if (trigger.actorIsBot)
            return { skip: 'a bot comment does not answer a stage' };
        if (!w || !sameEntry || w.entry !== record.entry || !sameState(w.state, state)) {
            return { skip: 'no stage of this issue is waiting for input' };
        }
        return {
            entry: w.entry,
            newEntry: false,
            kind: w.kind,
            profile: w.profile,
            attempt: w.attempt,
            round: record.round,
            timestamp: w.timestamp,
            reply: trigger.reply,
            resume: inEntry.filter((s) => s.kind === w.kind && s.profile === w.profile && s.attempt === w.attempt).length
        };
    }
    // The same-state step the record asks for, when this job is the wake-up (or local run) for it.
    const c = record.continuation;
    const forStep = sameEntry && c?.entry === record.entry && sameState(c.state, state);
    if (trigger.source === 'wake' && trigger.wake) {
        if (!sameEntry || trigger.wake.entry !== record.entry) {
            return { skip: `the wake-up was for an earlier entry into "${state}"` };
        }
    }
    if (c && forStep && trigger.source === 'cli')
        return continueWith(o, c, inEntry);
    if (c && forStep && trigger.source === 'wake' && trigger.wake?.step !== undefined) {
        if (trigger.wake.step !== c.step) {
            return { skip: `the wake-up's step already ran for this entry into "${state}"` };
        }
        return continueWith(o, c, inEntry);
    }
    if (trigger.source === 'label' && trigger.actorIsBot && o.chain === 'dispatch') {
        return { skip: "the pipeline's own label change; its next stage was dispatched" };
    }
    if (trigger.source === 'wake' && sameEntry && inEntry.length > 0) {
        return { skip: `a stage already ran for this entry into "${state}"` };
    }
    // The entry the pipeline's own move made, or a new one a person made.
    const ours = sameEntry && inEntry.length === 0;
    return {
        entry: ours ? record.entry : record.entry + 1,
        newEntry: !ours,
        kind: 'work',
        profile: automation.profile,
        attempt: 0,
        round: ours ? record.round : 0,
        resume: 0
    };
}
function continueWith(o, c, inEntry) {
    const profile = c.kind === 'review' ? (o.config.agent.reviewerProfile ?? c.profile) : c.profile;
    if (!o.config.agent.profiles[profile]) {
        return { skip: `the record asks for profile ${profile}, which this WORKFLOW.md does not have` };
    }
    const ran = (s) => s.kind === c.kind && s.profile === profile && s.attempt === c.attempt && s.round === c.round;
    if (inEntry.some(ran)) {
        return {
            skip: `${profile} attempt ${c.attempt}${c.round ? ` of review round ${c.round}` : ''} already ran for this entry into "${o.state}"`
        };
    }
    return {
        entry: o.record.entry,
        newEntry: false,
        kind: c.kind,
        profile,
        attempt: c.attempt,
        round: c.round,
        resume: 0,
        ...(c.recheck !== undefined ? { recheck: c.recheck } : {}),
        ...(c.reviewed !== undefined ? { reviewed: c.reviewed } : {})
    };
}
function nextAttempt(stages, kind, profile) {
    const same = stages.filter((s) => s.kind === kind && s.profile === profile);
    return same.length === 0 ? 0 : Math.max(...same.map((s) => s.attempt)) + 1;
}

;// CONCATENATED MODULE: ./.build/pipeline/sections.js



const MAX_REPLY = 20_000;
/**
 * The pipeline's own prompt sections after the automation's instructions: what the agent may
 * request, and why this run happens (a review, a rework, a refused deliverable, a reply).
 */
function pipelineSections(plan, allowedActions, moveTargets) {
    const review = plan.kind === 'review';
    const out = [requestsSection(allowedActions, review, moveTargets)];
    if (review) {
        out.push([
            '## Review',
            '',
            `You are reviewing the work of the ${plan.reviewed ?? 'previous'} stage: its deliverable is the newest ${plan.reviewed ?? ''} file among the prior handoffs, and its changes are on this branch.`,
            'Start your deliverable with front matter `verdict: PASS` when the work is done as scoped, or `verdict: FAIL` with specific findings (file and line) below it.'
        ].join('\n'));
    }
    else if (plan.sentBackBy) {
        const by = plan.sentBackBy;
        out.push([
            '## Review findings',
            '',
            `The ${by} stage sent your earlier work on this issue back (review round ${plan.round + 1}). Its reasons are in the newest ${by} deliverable among the prior handoffs.`,
            'Address every finding, and say in your deliverable how each was resolved.'
        ].join('\n'));
    }
    if (plan.recheck) {
        out.push([
            '## Your previous deliverable was refused',
            '',
            `The pipeline could not accept the last attempt's deliverable: ${(0,untrusted_text/* clip */.$Q)((0,untrusted_text/* oneLine */.TN)(plan.recheck), 500)}.`,
            'Write a complete deliverable that fixes this.'
        ].join('\n'));
    }
    if (plan.reply) {
        const text = (0,sanitize/* sanitizeUntrusted */._2)(plan.reply.body).text.slice(0, MAX_REPLY);
        out.push([
            `## Reply from @${(0,untrusted_text/* clip */.$Q)((0,untrusted_text/* oneLine */.TN)(plan.reply.author), 500)}`,
            '',
            'You asked for input and a person allowed to run this pipeline answered. Their reply, as they wrote it:',
            '',
            (0,untrusted_text/* fenced */.OF)(text, '~'),
            '',
            'Continue the stage with this answer; keep writing to the same run.handoff_path.'
        ].join('\n'));
    }
    return out;
}

;// CONCATENATED MODULE: ./.build/pipeline/advance.js

/**
 * The record after the pipeline acts on `next`. A move starts a new entry into the target
 * state; the stage that the entry starts finds it there. A same-state step (retry, review,
 * rework) is written as the record's continuation, which the next wake-up runs.
 */
function recordAfter(record, next, waiting, current) {
    const out = { ...record };
    delete out.continuation;
    const enter = (state) => {
        out.state = state;
        out.entry = record.entry + 1;
        out.transitions = record.transitions + 1;
        out.visited = visit(record.visited ?? [], state);
        delete out.sentBack;
        delete out.pendingMove;
        delete out.waiting;
    };
    switch (next.kind) {
        case 'move':
            enter(next.to);
            if (next.round !== undefined) {
                out.round = next.round;
                out.sentBack = { entry: out.entry, by: current.profile };
            }
            delete out.halted;
            break;
        case 'review':
            if (next.pendingMove)
                out.pendingMove = next.pendingMove;
            else
                delete out.pendingMove;
            break;
        case 'rework':
            out.round = next.round;
            out.sentBack = { entry: record.entry, by: current.profile };
            break;
        case 'wait':
            out.waiting = { ...waiting, question: next.question };
            break;
        case 'escalate':
            if (next.to)
                enter(next.to);
            out.halted = next.why;
            break;
        case 'retry':
        case 'stop':
            break;
    }
    const step = continuationFor(next, out, current);
    if (step)
        out.continuation = step;
    return out;
}
function visit(visited, state) {
    return visited.some((s) => sameState(s, state)) ? visited : [...visited, state].slice(-100);
}
/** The same-state step `next` asks for, in `record`'s terms; none for moves and ends. */
function continuationFor(next, record, current) {
    const here = {
        state: record.state ?? '',
        entry: record.entry,
        ...(current.run ? { step: current.run.replace(/[^A-Za-z0-9._-]/g, '.') } : {})
    };
    switch (next.kind) {
        case 'review':
            return {
                ...here,
                kind: 'review',
                profile: next.reviewer,
                attempt: 0,
                round: record.round,
                reviewed: current.profile
            };
        case 'rework':
            return { ...here, kind: 'work', profile: next.profile, attempt: 0, round: next.round };
        case 'retry':
            return {
                ...here,
                kind: current.kind,
                profile: current.profile,
                attempt: next.attempt,
                round: current.round,
                ...(next.recheck ? { recheck: next.recheck.slice(0, 500) } : {}),
                ...(current.reviewed ? { reviewed: current.reviewed } : {})
            };
        case 'move':
        case 'stop':
        case 'wait':
        case 'escalate':
            return undefined;
    }
}

;// CONCATENATED MODULE: ./.build/pipeline/transitions.js

/** State moves one issue may make before the pipeline stops, so two stages cannot loop forever. */
const TRANSITION_BUDGET = 30;
/** The deliverable checks failing is a `failed` whose reason starts with this. */
const DELIVERABLE_PROBLEM = 'the deliverable is not acceptable: ';
/** Decides the next step of the pipeline from how a stage ended. Pure. */
function decideNext(f) {
    const { config } = f;
    const failedState = config.tracker.failedState;
    const escalate = (why) => ({ kind: 'escalate', why, to: failedState });
    const where = f.handoffPath ? `; its work is in ${f.handoffPath}` : '';
    switch (f.outcome) {
        case 'skipped':
        case 'denied':
            return { kind: 'stop', why: f.reason };
        case 'cancelled':
            return {
                kind: 'stop',
                why: `the run was cancelled${where}; move the issue back into its state to run it again`
            };
        case 'input_required':
            return { kind: 'wait', question: f.question ?? 'The agent asked for input.' };
        case 'succeeded':
            return afterSuccess(f, escalate);
        case 'failed':
        case 'stalled':
        case 'timed_out':
        case 'rate_limited': {
            if (f.reason.startsWith(DELIVERABLE_PROBLEM)) {
                const problem = f.reason.slice(DELIVERABLE_PROBLEM.length);
                if (!f.recheckSpent) {
                    return { kind: 'retry', attempt: f.attempt + 1, why: f.reason, recheck: problem };
                }
                return escalate(`the ${f.profile} deliverable failed its checks twice (${problem})${where}`);
            }
            if (f.attempt < config.agent.maxRetries) {
                return { kind: 'retry', attempt: f.attempt + 1, why: `${f.outcome}: ${f.reason}` };
            }
            const runs = f.attempt + 1;
            return escalate(`${f.profile} ${f.outcome} ${runs} time${runs === 1 ? '' : 's'}, retries spent (last: ${f.reason})${where}`);
        }
    }
}
function afterSuccess(f, escalate) {
    const { config } = f;
    const moveTo = f.requests.moveState ?? f.automation.moveToState;
    if (f.kind === 'review') {
        if (!f.requests.verdict) {
            if (!f.recheckSpent) {
                return {
                    kind: 'retry',
                    attempt: f.attempt + 1,
                    why: 'the review has no verdict',
                    recheck: 'a review deliverable must start with front matter holding `verdict: PASS` or `verdict: FAIL`'
                };
            }
            return escalate('the reviewer twice gave no verdict');
        }
        if (f.requests.verdict === 'PASS') {
            const to = f.pendingMove;
            return to ? move(f, to, 'the review passed') : { kind: 'stop', why: 'the review passed' };
        }
        if (f.round + 1 >= config.agent.maxReviewRounds) {
            return escalate(`the review failed ${f.round + 1} times (agent.max_review_rounds: ${config.agent.maxReviewRounds}); a person needs to look at it, then move the issue into a state to start again`);
        }
        return {
            kind: 'rework',
            profile: f.reviewed ?? f.automation.profile,
            round: f.round + 1,
            findings: f.handoffPath ?? undefined
        };
    }
    const reviewer = config.agent.reviewerProfile;
    if (config.agent.autoReview && reviewer && reviewer !== f.profile) {
        return { kind: 'review', reviewer, pendingMove: moveTo };
    }
    if (!moveTo) {
        const done = config.tracker.completionState;
        return {
            kind: 'stop',
            why: done ? `the pipeline reached its end` : `no move follows the ${f.profile} stage`
        };
    }
    return move(f, moveTo, f.requests.moveState ? `${f.profile} asked for it` : `automation ${f.automation.id}`);
}
/**
 * A move, unless it is spent: a move that sends the work back to a state the issue was already
 * in starts a new review round, and the one that would pass agent.max_review_rounds escalates.
 */
function move(f, to, why) {
    if (!sendsBack(f.config, f.state, to, f.visited))
        return budgeted(f, { kind: 'move', to, why });
    const max = f.config.agent.maxReviewRounds;
    if (f.round + 1 >= max) {
        const where = f.handoffPath ? `; its reasons are in ${f.handoffPath}` : '';
        return {
            kind: 'escalate',
            why: `${f.profile} sent the work back to "${to}" after ${max} review round${max === 1 ? '' : 's'} (agent.max_review_rounds: ${max})${where}; a person needs to look at it, then move the issue into a state to start again`,
            to: f.config.tracker.failedState
        };
    }
    return budgeted(f, {
        kind: 'move',
        to,
        why: `${why}; review round ${f.round + 2}`,
        round: f.round + 1
    });
}
function budgeted(f, next) {
    if (f.transitions + 1 > TRANSITION_BUDGET) {
        return {
            kind: 'escalate',
            why: `the issue has moved ${f.transitions} times; the pipeline stops here so stages cannot loop forever`,
            to: f.config.tracker.failedState
        };
    }
    return next;
}

;// CONCATENATED MODULE: ./.build/pipeline/settle.js







/**
 * What a finished stage means for the pipeline, the same for the action and the CLI: the
 * agent's permitted requests (read from the committed deliverable), the next step, and the
 * issue's record afterwards. Carrying the step out is the tracker adapter's part.
 */
async function settleStage(o) {
    const { config, plan, result } = o;
    const profile = config.agent.profiles[plan.profile];
    const refused = refusalsOf(result);
    let requests = {};
    const refusedRequests = [];
    if (result.outcome === 'succeeded' && result.handoffPath && o.commit && !o.unpublished) {
        const text = await o.readCommitted(o.commit, result.handoffPath, config.handoff.maxFileBytes);
        const read = readRequests(text ?? '');
        const allowed = permittedRequests(read.requests, profile.allowedActions, knownStates(config), {
            from: o.state,
            profile: plan.profile,
            states: moveScope(config, o.state, profile)
        });
        requests = allowed.permitted;
        refusedRequests.push(...read.problems, ...allowed.refused);
        refused.push(...refusedRequests.map((r) => `request refused: ${r}`));
    }
    const started = recordStart(o.record, o.state, plan);
    const visited = started.visited ?? [];
    if (!visited.some((s) => sameState(s, o.state)))
        started.visited = [...visited, o.state];
    const decided = decideNext({
        config,
        automation: o.automation,
        kind: plan.kind,
        state: o.state,
        profile: plan.profile,
        outcome: result.outcome,
        reason: result.reason,
        attempt: plan.attempt,
        recheckSpent: Boolean(plan.recheck),
        round: plan.round,
        visited: started.visited ?? [],
        transitions: o.record.transitions,
        requests,
        pendingMove: o.record.pendingMove,
        reviewed: plan.reviewed,
        question: result.agent?.question,
        handoffPath: result.handoffPath
    });
    const next = o.unpublished ? { kind: 'escalate', why: o.unpublished } : decided;
    const stage = {
        entry: plan.entry,
        state: o.state,
        profile: plan.profile,
        kind: plan.kind,
        attempt: plan.attempt
    };
    const stats = result.agent?.stats;
    const record = recordStage(started, {
        ...stage,
        round: plan.round,
        outcome: result.outcome,
        reason: result.reason.slice(0, 300),
        run: o.run,
        ...(o.runUrl ? { runUrl: o.runUrl } : {}),
        startedAt: o.startedAt.toISOString(),
        durationMs: Date.now() - o.startedAt.getTime(),
        ...(result.handoffPath ? { handoffPath: result.handoffPath } : {}),
        ...(o.commit ? { commit: o.commit } : {}),
        ...(o.rescuedTo ? { rescuedTo: o.rescuedTo } : {}),
        ...(stats && Object.keys(stats).length > 0 ? { agent: stats } : {}),
        ...(refusedRequests.length > 0
            ? { refused: refusedRequests.slice(0, 10).map((r) => r.slice(0, 300)) }
            : {}),
        ...(result.withheld.length > 0 ? { withheld: result.withheld.slice(0, 10) } : {})
    });
    const current = {
        kind: plan.kind,
        profile: plan.profile,
        round: plan.round,
        run: o.run,
        ...(plan.reviewed ? { reviewed: plan.reviewed } : {})
    };
    return {
        next,
        record: recordAfter(record, next, { ...stage, timestamp: o.timestamp }, current),
        staged: record,
        requests,
        refused
    };
}
/** Paths left out of the commit and what was put back under `.git`, one line each. */
function refusalsOf(r) {
    // A file refused for a secret is reported once, among the secrets withheld.
    const out = r.commit.dropped
        .filter((d) => !d.screened)
        .map((d) => `${d.path} was not committed: ${d.reason}`);
    if (r.gitDir) {
        out.push(...r.gitDir.changes.map((c) => `.git change put back: ${c.path} (${c.change})`));
        out.push(...r.gitDir.configKeys.map((k) => `.git/config key put back: ${k}`));
        if (r.gitDir.branchMoved) {
            out.push('the agent moved the branch; its files were judged, not its commits');
        }
    }
    return out;
}

;// CONCATENATED MODULE: ./.build/files/write-whole.js

/**
 * Writes the file through a temporary one beside it and a rename, so a reader never sees half
 * of it and a run killed mid-write leaves the old file as it was.
 */
function writeWhole(path, text, o = {}) {
    const tmp = `${path}.tmp-${process.pid}`;
    (0,external_node_fs_.writeFileSync)(tmp, text, o.mode === undefined ? undefined : { mode: o.mode });
    (0,external_node_fs_.renameSync)(tmp, path);
}

// EXTERNAL MODULE: external "node:os"
var external_node_os_ = __webpack_require__(8161);
;// CONCATENATED MODULE: ./.build/git/guard.js







/**
 * Files under `.git` that decide what git runs, where it fetches from or which objects it sees,
 * and the locks a dead agent could leave to block us. Each is put back byte for byte after the
 * agent (absent ones are removed again).
 */
const CONTROL_FILES = [
    'config',
    'config.worktree',
    'HEAD',
    'commondir',
    'shallow',
    'info/attributes',
    'info/exclude',
    'info/grafts',
    'objects/info/alternates',
    'objects/info/http-alternates',
    'index.lock',
    'HEAD.lock',
    'config.lock',
    'shallow.lock',
    'packed-refs.lock'
];
/** Directories under `.git` that may be rebuilt if the agent swapped them for something else. */
const REBUILDABLE_DIRS = ['info', 'objects/info', 'hooks'];
/** Directories that hold the repository itself: if these were swapped, nothing can be trusted. */
const ESSENTIAL_DIRS = ['objects', 'refs'];
/** Persisted tokens: checkout's extraheader, and (since checkout v6) includes of a credentials file. */
const CREDENTIAL_KEYS = /^(http\..*\.extraheader|include\.path|includeif\..*\.path)$/;
const identitySchema = schemas/* object */.Ikc({ dev: schemas/* number */.aig(), ino: schemas/* number */.aig() });
/** A file as it was: its bytes (base64) and mode, a symlink's target, or null when absent. */
const savedFileSchema = schemas/* union */.KCZ([
    schemas/* object */.Ikc({ data: schemas/* string */.YjP(), mode: schemas/* number */.aig() }),
    schemas/* object */.Ikc({ link: schemas/* string */.YjP() }),
    schemas/* null */.chJ()
]);
/** A file `.git/config` includes, and the directory it sits in (to refuse a swapped one). */
const savedIncludeSchema = schemas/* object */.Ikc({
    file: savedFileSchema,
    dir: identitySchema.nullable(),
    /** It carried a credential and was removed for the run. */
    hidden: schemas/* boolean */.zMY()
});
/**
 * What `.git` looked like before the agent ran. Plain JSON, so a `post:` step can restore it; it
 * holds the persisted credential, so it must be kept where the agent cannot read or edit it.
 */
const gitDirSnapshotSchema = schemas/* object */.Ikc({
    repo: schemas/* string */.YjP(),
    gitDir: schemas/* string */.YjP(),
    /** Device and inode of `.git`, to notice it being swapped. */
    identity: identitySchema,
    /** Relative to `.git`. `config` is the original, credentials included. */
    files: schemas/* record */.g1P(schemas/* string */.YjP(), savedFileSchema),
    /** The config the agent was left with (credentials removed), base64. */
    agentConfig: schemas/* string */.YjP(),
    /** `.git/hooks/<name>`; null when there was no hooks directory. */
    hooks: schemas/* record */.g1P(schemas/* string */.YjP(), savedFileSchema).nullable(),
    /** Files `.git/config` includes, by absolute path. */
    includes: schemas/* record */.g1P(schemas/* string */.YjP(), savedIncludeSchema),
    /** The branch HEAD named, and its commit. */
    branch: schemas/* object */.Ikc({ ref: schemas/* string */.YjP(), sha: schemas/* string */.YjP() }).nullable()
});
/** `.git` is gone or is no longer the directory we prepared. */
class GitDirTamperedError extends errors/* UserError */.yo {
    constructor(message) {
        super(message);
        this.name = 'GitDirTamperedError';
    }
}
/**
 * Records `.git` before the agent runs, and takes persisted credentials out of its reach for the
 * run: the extraheader and credential includes leave `.git/config`, and the included credential
 * files leave the disk. `restoreGitDir` puts all of it back.
 */
async function snapshotGitDir(repo) {
    const gitDir = external_node_path_.join(external_node_path_.resolve(repo), '.git');
    const st = await lstatOrNull(gitDir);
    if (!st?.isDirectory()) {
        throw new GitDirTamperedError(`${gitDir} is not a directory; run the stage in a plain clone`);
    }
    const files = {};
    for (const rel of CONTROL_FILES)
        files[rel] = await savedOrNull(external_node_path_.join(gitDir, rel));
    const config = files['config'];
    const head = files['HEAD'];
    if (!config || !('data' in config) || !head || !('data' in head)) {
        throw new GitDirTamperedError(`${gitDir} has no regular config or HEAD file`);
    }
    const configPath = external_node_path_.join(gitDir, 'config');
    const includes = {};
    const strip = [];
    for (const [key, value] of await configEntries(Buffer.from(config.data, 'base64'))) {
        if (!CREDENTIAL_KEYS.test(key))
            continue;
        if (!key.endsWith('.path')) {
            strip.push([key, value]);
            continue;
        }
        const target = includeTarget(value, gitDir);
        const file = await present(target);
        // A directory or a device is nothing git could include; it is not ours to manage.
        if (file === 'other')
            continue;
        const dir = await statOrNull(external_node_path_.dirname(target));
        const hidden = file !== null && 'data' in file && (await holdsCredential(file.data));
        includes[target] = { file, dir: dir && { dev: dir.dev, ino: dir.ino }, hidden };
        if (hidden)
            strip.push([key, value]);
    }
    for (const [key, value] of strip) {
        await git_git('/', ['config', '--file', configPath, '--fixed-value', '--unset-all', key, value]);
    }
    for (const [target, inc] of Object.entries(includes))
        if (inc.hidden)
            await (0,promises_.rm)(target);
    return {
        repo: external_node_path_.resolve(repo),
        gitDir,
        identity: { dev: st.dev, ino: st.ino },
        files,
        agentConfig: (await (0,promises_.readFile)(configPath)).toString('base64'),
        hooks: await readHooks(external_node_path_.join(gitDir, 'hooks')),
        includes,
        branch: await headBranch(repo, Buffer.from(head.data, 'base64'))
    };
}
/**
 * Puts `.git` back after the agent and all its processes are dead: config, HEAD and the other
 * control files byte for byte, hooks as they were, hidden credentials restored, the branch
 * where it was. Reports what the agent had changed.
 */
async function restoreGitDir(s) {
    await checkIdentity(s);
    const changes = [];
    const rel = (p) => external_node_path_.relative(s.repo, p);
    for (const dir of REBUILDABLE_DIRS) {
        const full = external_node_path_.join(s.gitDir, dir);
        const st = await lstatOrNull(full);
        if (st && !st.isDirectory()) {
            await (0,promises_.rm)(full, { force: true });
            changes.push({ path: rel(full), change: 'replaced' });
        }
    }
    const configPath = external_node_path_.join(s.gitDir, 'config');
    const nowConfig = await present(configPath);
    const configKeys = nowConfig && nowConfig !== 'other' && 'data' in nowConfig && nowConfig.data !== s.agentConfig
        ? await changedKeys(s.agentConfig, nowConfig.data)
        : [];
    for (const [name, saved] of Object.entries(s.files)) {
        const full = external_node_path_.join(s.gitDir, name);
        const given = name === 'config' && saved && 'data' in saved ? { ...saved, data: s.agentConfig } : saved;
        const change = await putBack(full, saved, given);
        if (change)
            changes.push({ path: rel(full), change });
    }
    const hooksDir = external_node_path_.join(s.gitDir, 'hooks');
    if (s.hooks === null) {
        if (await lstatOrNull(hooksDir)) {
            await (0,promises_.rm)(hooksDir, { recursive: true, force: true });
            changes.push({ path: rel(hooksDir), change: 'added' });
        }
    }
    else {
        await (0,promises_.mkdir)(hooksDir, { recursive: true });
        const names = new Set([...Object.keys(s.hooks), ...(await (0,promises_.readdir)(hooksDir))]);
        for (const name of [...names].sort()) {
            const full = external_node_path_.join(hooksDir, name);
            const saved = s.hooks[name] ?? null;
            const change = await putBack(full, saved, saved);
            if (change)
                changes.push({ path: rel(full), change });
        }
    }
    for (const [target, inc] of Object.entries(s.includes)) {
        // Never write (a credential, even) into a directory the agent swapped for another; only
        // make sure the restored config includes nothing from it.
        const dir = await statOrNull(external_node_path_.dirname(target));
        const sameDir = !!dir && dir.dev === inc.dir?.dev && dir.ino === inc.dir.ino;
        if (inc.file && !sameDir) {
            await (0,promises_.rm)(target, { recursive: true, force: true });
            changes.push({ path: external_node_path_.dirname(target), change: 'replaced' });
            continue;
        }
        const change = await putBack(target, inc.file, inc.hidden ? null : inc.file);
        if (change)
            changes.push({ path: target, change });
    }
    return { changes, configKeys, branchMoved: await restoreBranch(s) };
}
/**
 * A snapshot read back from disk (by a `post:` step) could have been edited; at least its
 * writes must stay inside `.git`, apart from the files the config includes.
 */
function checkShape(s) {
    const plain = (name) => !!name && name !== '.' && name !== '..' && !/[/\\]/.test(name);
    const sound = external_node_path_.isAbsolute(s.repo) &&
        s.gitDir === external_node_path_.join(s.repo, '.git') &&
        Object.keys(s.files).every((f) => CONTROL_FILES.includes(f)) &&
        Object.keys(s.hooks ?? {}).every(plain) &&
        Object.keys(s.includes).every((f) => external_node_path_.isAbsolute(f)) &&
        (!s.branch || /^refs\/heads\/\S+$/.test(s.branch.ref));
    if (!sound)
        throw new GitDirTamperedError(`the saved state of ${s.gitDir} is malformed`);
}
async function checkIdentity(s) {
    checkShape(s);
    const st = await lstatOrNull(s.gitDir);
    const what = !st
        ? 'was removed'
        : st.isSymbolicLink()
            ? 'was replaced by a symlink'
            : !st.isDirectory() || st.dev !== s.identity.dev || st.ino !== s.identity.ino
                ? 'was replaced'
                : null;
    if (what) {
        throw new GitDirTamperedError(`${s.gitDir} ${what} while the agent ran; refusing to commit or push from this workspace`);
    }
    for (const dir of ESSENTIAL_DIRS) {
        const full = external_node_path_.join(s.gitDir, dir);
        const d = await lstatOrNull(full);
        if (!d?.isDirectory()) {
            throw new GitDirTamperedError(`${full} is no longer a directory after the agent ran; refusing to commit or push from this workspace`);
        }
    }
}
/**
 * Makes `file` hold `saved` (or not exist). `given` is what the agent was left with, so the
 * returned change describes the agent's doing, not ours (hidden credentials, stripped config).
 */
async function putBack(file, saved, given) {
    const now = await present(file);
    const change = same(now, given)
        ? null
        : now === null
            ? 'removed'
            : given === null
                ? 'added'
                : now !== 'other' && 'data' in now && 'data' in given
                    ? 'modified'
                    : 'replaced';
    if (!same(now, saved)) {
        if (now !== null)
            await (0,promises_.rm)(file, { recursive: true, force: true });
        if (saved) {
            await (0,promises_.mkdir)(external_node_path_.dirname(file), { recursive: true });
            if ('link' in saved)
                await (0,promises_.symlink)(saved.link, file);
            // 'wx' never follows a symlink someone put back in the meantime.
            else
                await (0,promises_.writeFile)(file, Buffer.from(saved.data, 'base64'), { flag: 'wx', mode: saved.mode });
        }
    }
    return change;
}
function same(now, was) {
    if (now === null || was === null)
        return now === was;
    if (now === 'other')
        return false;
    if ('link' in now || 'link' in was)
        return 'link' in now && 'link' in was && now.link === was.link;
    return now.data === was.data && now.mode === was.mode;
}
async function restoreBranch(s) {
    if (!s.branch)
        return null;
    const r = await git_git(s.repo, ['rev-parse', '--verify', '--quiet', `${s.branch.ref}^{commit}`], {
        okCodes: [1]
    });
    const now = r.code === 0 ? r.stdout.trim() : null;
    if (now === s.branch.sha)
        return null;
    await git_git(s.repo, ['update-ref', '--no-deref', s.branch.ref, s.branch.sha]);
    return { from: s.branch.sha, to: now };
}
async function headBranch(repo, head) {
    const ref = /^ref: (refs\/heads\/\S+)\n?$/.exec(head.toString('utf8'))?.[1];
    if (!ref)
        return null;
    const r = await git_git(repo, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], {
        okCodes: [1]
    });
    return r.code === 0 ? { ref, sha: r.stdout.trim() } : null;
}
async function readHooks(dir) {
    const st = await lstatOrNull(dir);
    if (!st?.isDirectory())
        return null;
    const hooks = {};
    for (const name of await (0,promises_.readdir)(dir))
        hooks[name] = await savedOrNull(external_node_path_.join(dir, name));
    return hooks;
}
/** What is at `file` now: a regular file, a symlink, nothing, or something else. */
async function present(file) {
    const st = await lstatOrNull(file);
    if (!st)
        return null;
    if (st.isFile())
        return { data: (await (0,promises_.readFile)(file)).toString('base64'), mode: st.mode & 0o777 };
    if (st.isSymbolicLink())
        return { link: await (0,promises_.readlink)(file) };
    return 'other';
}
/** As `present`, with anything but a file or a symlink recorded as absent (removed on restore). */
async function savedOrNull(file) {
    const now = await present(file);
    return now === 'other' ? null : now;
}
async function statOrNull(p) {
    return (0,promises_.stat)(p).catch(() => null);
}
/** `key=value` pairs of a config file's own text, never following its includes. */
async function configEntries(bytes) {
    const r = await git_git('/', ['config', '--no-includes', '--file', '-', '--null', '--list'], {
        input: bytes
    });
    return r.stdout
        .split('\0')
        .filter(Boolean)
        .map((entry) => {
        const nl = entry.indexOf('\n');
        return nl < 0 ? [entry, ''] : [entry.slice(0, nl), entry.slice(nl + 1)];
    });
}
async function changedKeys(before, after) {
    const seen = new Set((await configEntries(Buffer.from(before, 'base64'))).map(([k, v]) => `${k}\n${v}`));
    const entries = await configEntries(Buffer.from(after, 'base64')).catch(() => null);
    if (!entries)
        return ['(the config no longer parses)'];
    const keys = new Set();
    for (const [k, v] of entries)
        if (!seen.has(`${k}\n${v}`))
            keys.add(k);
    return [...keys].sort();
}
/** Where git looks for an include: `~/` is the home directory, relative is beside the config. */
function includeTarget(value, gitDir) {
    if (value.startsWith('~/'))
        return external_node_path_.join(external_node_os_.homedir(), value.slice(2));
    return external_node_path_.resolve(gitDir, value);
}
async function holdsCredential(data) {
    const entries = await configEntries(Buffer.from(data, 'base64')).catch(() => []);
    return entries.some(([k]) => /^http\..*\.extraheader$/.test(k));
}

;// CONCATENATED MODULE: ./.build/isolation/agent-tree.js






/** Where an isolated stage's agent works, kept in the stage context for the post step. */
const handedOverSchema = schemas/* object */.Ikc({
    user: schemas/* object */.Ikc({ name: schemas/* string */.YjP(), uid: schemas/* int */.Whr(), gid: schemas/* int */.Whr(), home: schemas/* string */.YjP() }),
    /** `<home>/stage`: the stage's HOME and tree, removed and made again every stage. */
    area: schemas/* string */.YjP(),
    /** The agent's clone, inside `area`. */
    tree: schemas/* string */.YjP(),
    /** The agent's HOME, inside `area`. */
    home: schemas/* string */.YjP(),
    /** Where the tree comes back to, in the runner's private work folder. */
    returnTo: schemas/* string */.YjP()
});
const sh = () => systemProgram('sh') ?? '/bin/sh';
// Run as root, with every value a positional parameter: nothing is ever spliced into it.
// The stage area goes whatever it held (no process of the agent user is alive by now), and
// the new one is the agent's alone.
const HAND_OVER = `set -e
area=$1; staged=$2; uid=$3; gid=$4
rm -rf -- "$area"
mv -T -- "$staged" "$area"
chown -R -h -- "$uid:$gid" "$area"
chmod 0700 -- "$area"`;
// The agent is gone. What it left at the top of the shared temporary folders goes too (deeper
// down, in folders others own and share, is theirs to clean). Only files it owns change owner (never, through a hard link or a
// symlink, anything else); a tree it swapped, or a folder on the way to it, for a symlink is not
// followed anywhere: root would move whatever it points at. In its own home (the one of its
// passwd entry, which tools like ssh read whatever HOME says), every file of its own that it
// made or changed since the hand-over goes, so that nothing it left there meets the next stage.
const TAKE_BACK = `area=$1; tree=$2; back=$3; uid=$4; ours=$5; home=$6; since=$7
work=\${tree%/*}
if [ -d "$area" ] && [ ! -L "$area" ] && [ -d "$work" ] && [ ! -L "$work" ] &&
  [ -d "$tree" ] && [ ! -L "$tree" ]; then
  chown -R -h --from="$uid" -- "$ours" "$tree" && mv -T -- "$tree" "$back"
fi
rm -rf -- "$area"
find /tmp /var/tmp /dev/shm -mindepth 1 -maxdepth 1 -user "$uid" -exec rm -rf -- {} + 2>/dev/null
if [ -f "$since" ] && [ -d "$home" ] && [ ! -L "$home" ] && [ "$(stat -c %u -- "$home")" = "$uid" ]; then
  find "$home" -xdev -mindepth 1 -user "$uid" -cnewer "$since" -delete 2>/dev/null
fi
exit 0`;
/**
 * Gives the agent its own clone of the issue branch (no hard links, no shared `.git`) and a
 * fresh HOME, both owned by the agent user under its home, where the runner's user cannot
 * look and the agent cannot reach back: the action never runs git in the agent's `.git`.
 */
async function handOver(o) {
    const staged = external_node_path_.join(o.workDir, 'hand-over');
    await (0,promises_.rm)(staged, { recursive: true, force: true });
    await (0,promises_.mkdir)(staged, { recursive: true, mode: 0o700 });
    const name = external_node_path_.basename(o.repo) || 'repo';
    const area = external_node_path_.join(o.user.home, 'stage');
    await git_git(o.workDir, [
        '-c',
        `safe.directory=${o.repo}`,
        'clone',
        '--quiet',
        '--local',
        '--no-hardlinks',
        '--branch',
        o.branch,
        '--',
        o.repo,
        external_node_path_.join(staged, 'work', name)
    ]);
    await o.prepareTree?.(external_node_path_.join(staged, 'work', name));
    const home = external_node_path_.join(staged, 'home');
    for (const f of o.homeFiles) {
        const file = external_node_path_.join(home, f.path);
        await (0,promises_.mkdir)(external_node_path_.dirname(file), { recursive: true });
        await (0,promises_.writeFile)(file, f.content, { mode: 0o600 });
    }
    await (0,promises_.mkdir)(external_node_path_.join(home, 'tmp'), { recursive: true });
    // Older than anything the agent makes: what is newer in its home at the end is the agent's.
    await (0,promises_.writeFile)(markerOf(o.workDir), '', { mode: 0o600 });
    await runAsRoot(o.privilege, [sh(), '-c', HAND_OVER, 'sh', area, staged, String(o.user.uid), String(o.user.gid)], 'hand the agent its tree');
    return {
        user: o.user,
        area,
        tree: external_node_path_.join(area, 'work', name),
        home: external_node_path_.join(area, 'home'),
        returnTo: external_node_path_.join(o.workDir, 'agent-tree')
    };
}
/**
 * Once every process of the agent user is gone: its tree comes back to the runner's user
 * (in the runner's private folder), and its HOME and temporary files are removed, so
 * nothing of it outlives the stage. Returns the tree, or null when the agent left none.
 */
async function takeBack(p, h) {
    const back = await lstatOrNull(h.returnTo);
    if (!back) {
        const ours = `${process.getuid?.() ?? 0}:${process.getgid?.() ?? 0}`;
        await runAsRoot(p, [
            ...[sh(), '-c', TAKE_BACK, 'sh', h.area, h.tree, h.returnTo, String(h.user.uid), ours],
            ...[h.user.home, markerOf(external_node_path_.dirname(h.returnTo))]
        ], 'take the agent tree back');
    }
    const st = await lstatOrNull(h.returnTo);
    return st?.isDirectory() && st.uid === process.getuid?.() ? h.returnTo : null;
}
/** The file whose time is the hand-over's, in the runner's private work folder. */
function markerOf(workDir) {
    return external_node_path_.join(workDir, 'handed-over');
}

;// CONCATENATED MODULE: ./.build/pipeline/stage-context.js








/**
 * What a stage must remember so that whoever finishes it (the main step, or the `post:` step
 * after a cancellation) can commit the deliverable or its partial. Plain JSON on disk, in the
 * runner's temp folder, which the agent's working tree does not contain; still, it is read
 * back through this schema, as anything on disk an agent might reach.
 */
const stageContextSchema = schemas/* object */.Ikc({
    repo: schemas/* string */.YjP(),
    branch: schemas/* string */.YjP(),
    baseSha: schemas/* string */.YjP(),
    /** Where the agent's configuration came from; a commit name only, as it goes to git. */
    trustedCommit: schemas/* string */.YjP()
        .regex(/^[0-9a-f]{40,64}$/)
        .optional(),
    /** The branch was new on the remote when the stage began. */
    created: schemas/* boolean */.zMY(),
    issue: schemas/* string */.YjP(),
    profile: schemas/* string */.YjP(),
    runId: schemas/* string */.YjP(),
    timestamp: schemas/* string */.YjP(),
    handoffPath: schemas/* string */.YjP(),
    requiredSections: schemas/* array */.YOg(schemas/* string */.YjP()),
    maxFileBytes: schemas/* number */.aig(),
    commitPaths: schemas/* array */.YOg(schemas/* string */.YjP()),
    /**
     * The variables the profile's `env` hands the agent: their values (read from the
     * environment again, never stored here) are secrets no commit may hold.
     */
    secretNames: schemas/* array */.YOg(schemas/* string */.YjP()).default([]),
    /** Repo-relative WORKFLOW.md, never committed by a stage. */
    workflowPath: schemas/* string */.YjP(),
    startedAt: schemas/* string */.YjP(),
    /** `.git` as it was before the agent ran; holds the persisted credential, if any. */
    snapshot: gitDirSnapshotSchema.optional(),
    /** The tracker's files in the tree before the agent ran (see snapshotTrackerFiles). */
    trackerFiles: schemas/* record */.g1P(schemas/* string */.YjP(), schemas/* string */.YjP()).optional(),
    /** Where the isolated agent works, as whom (isolation: user). */
    sandbox: handedOverSchema.optional(),
    /** Its tree, once taken back from it; null when it left none. */
    tree: schemas/* string */.YjP().nullable().optional(),
    /** Which stage of which issue this is; its commit carries it as trailers. */
    key: stageKeySchema.optional(),
    /** The agent's process group, once it runs. */
    agentPgid: schemas/* int */.Whr().optional(),
    /**
     * How far the stage got: the agent may be running (or killed) in `agent`; in `committed` its
     * end is judged and committed (`committed` says how), so whoever finishes it only publishes
     * that commit; in `published` the work is safe but the pipeline's next step may not have
     * been carried out; in `done` the job saw it through.
     */
    phase: schemas/* enum */.k5n(['agent', 'committed', 'published', 'done']).optional(),
    committed: schemas/* object */.Ikc({
        sha: schemas/* string */.YjP().nullable(),
        outcome: stageOutcomeSchema,
        reason: schemas/* string */.YjP(),
        handoffPath: schemas/* string */.YjP().nullable()
    })
        .optional()
});
function saveStageContext(path, ctx) {
    (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(path), { recursive: true, mode: 0o700 });
    writeWhole(path, JSON.stringify(ctx), { mode: 0o600 });
}
/** The context at `path`; null when there is none or it is not shaped like one. */
function loadStageContext(path) {
    let value;
    try {
        value = JSON.parse((0,external_node_fs_.readFileSync)(path, 'utf8'));
    }
    catch {
        return null;
    }
    const parsed = stageContextSchema.safeParse(value);
    return parsed.success ? parsed.data : null;
}

;// CONCATENATED MODULE: ./.build/isolation/runner-paths.js




// Never closed, whatever a path names: every user needs these.
const SHARED = new Set([
    '/',
    '/home',
    '/tmp',
    '/var',
    '/var/tmp',
    '/opt',
    '/usr',
    '/etc',
    '/srv',
    '/mnt'
]);
/**
 * Makes the runner's own folders unreachable to other users (the agent user is "other" to
 * them: it shares no group with the runner): the runner's HOME (its credentials, the
 * `_actions` folder on hosted runners), the workspace's folder (the checkout and its persisted
 * token), RUNNER_TEMP (the file-command files, the stage's work folder) and the runner's
 * installation. Each loses its "other" permission bits; a folder that is already closed is
 * left alone, one that is not ours to close stops the stage.
 */
async function closeToOthers(dirs) {
    const closed = [];
    const root = process.getuid?.() === 0;
    for (const dir of new Set(dirs.filter((d) => external_node_path_.isAbsolute(d)).map((d) => external_node_path_.resolve(d)))) {
        if (SHARED.has(dir))
            continue;
        const st = await lstatOrNull(dir);
        if (!st?.isDirectory() || (st.mode & 0o007) === 0)
            continue;
        if (!root && st.uid !== process.getuid?.()) {
            throw new errors/* UserError */.yo(`${dir} is open to other users and not the runner's to close, so the agent user could read it; close it (chmod o-rwx) before the stage or set isolation: none`);
        }
        await (0,promises_.chmod)(dir, st.mode & 0o7770);
        closed.push(dir);
    }
    return closed;
}
/** The runner's installation folder, when this node is the runner's own (`externals/`). */
function runnerInstallation(execPath) {
    const at = execPath.split(external_node_path_.sep).lastIndexOf('externals');
    return at > 1 ? execPath.split(external_node_path_.sep).slice(0, at).join(external_node_path_.sep) : undefined;
}

;// CONCATENATED MODULE: ./.build/agent/process-group.js

// Without /proc (macOS when the CLI runs locally) a group can still be signalled and probed
// with kill(-pgid, 0), but its members and their CPU time are unknown.
const hasProc = (0,external_node_fs_.existsSync)('/proc/self/stat');
/**
 * Every live process whose process group is `pgid`, read from /proc. `undefined` when /proc
 * cannot be read.
 */
function groupProcesses(pgid) {
    return liveProcesses((_pid, fields) => Number(fields[2]) === pgid);
}
/**
 * Every live process that `keep` picks, given its pid and its /proc stat fields after the
 * command name. Zombies are left out: they run nothing, and one whose parent never reaps it
 * (some container init processes do not) would otherwise be waited for forever.
 */
function liveProcesses(keep) {
    if (!hasProc)
        return undefined;
    let names;
    try {
        names = (0,external_node_fs_.readdirSync)('/proc');
    }
    catch {
        return undefined;
    }
    const found = [];
    for (const name of names) {
        const first = name.charCodeAt(0);
        if (first < 48 || first > 57)
            continue; // not a pid
        const stat = readProc(`/proc/${name}/stat`);
        if (stat === undefined)
            continue; // it ended between readdir and read
        // The command name (field 2) may hold spaces and parentheses; fields after it do not.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const state = fields[0];
        if (state === 'Z' || state === 'X' || !keep(name, fields))
            continue;
        const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0);
        found.push({ pid: Number(name), cpuTicks: ticks });
    }
    return found;
}
// One shared buffer and a plain read: this runs for every process on the machine each
// watchdog tick, and readFileSync's stat-and-allocate costs about three times as much.
const procBuffer = Buffer.alloc(4096);
/** The first 4 KiB of a /proc file (all of `stat`, the head of `status`), or undefined. */
function readProc(path) {
    let fd;
    try {
        fd = (0,external_node_fs_.openSync)(path, 'r');
    }
    catch {
        return undefined;
    }
    try {
        return procBuffer.toString('latin1', 0, (0,external_node_fs_.readSync)(fd, procBuffer, 0, procBuffer.length, 0));
    }
    catch {
        return undefined;
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/** The pids of a group's live processes (empty when /proc cannot be read). */
function groupPids(pgid) {
    return (groupProcesses(pgid) ?? []).map((p) => p.pid);
}
/** True while any process of the group is alive. */
function groupAlive(pgid) {
    const members = groupProcesses(pgid);
    if (members)
        return members.length > 0;
    try {
        process.kill(-pgid, 0);
        return true;
    }
    catch (e) {
        return e.code === 'EPERM';
    }
}
/** Sends a signal to every process of the group; a group that is already gone is fine. */
function signalGroup(pgid, signal) {
    try {
        process.kill(-pgid, signal);
    }
    catch (e) {
        if (e.code !== 'ESRCH')
            throw e;
    }
}
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until the group is gone or `timeoutMs` has passed; true when it is gone. */
async function waitGroupGone(pgid, timeoutMs, everyMs = 25, meanwhile) {
    const until = Date.now() + timeoutMs;
    for (;;) {
        if (!groupAlive(pgid))
            return true;
        if (Date.now() >= until)
            return false;
        meanwhile?.();
        await sleep(everyMs);
    }
}
// How long processes get to die after SIGKILL. Only one stuck in the kernel (state D on a
// dead network mount) outlives it; waiting longer would only eat the time left to finalise.
const KILL_WAIT_MS = 10_000;
/**
 * Ends a process group: SIGTERM to all of it, `graceMs` to exit, then SIGKILL (repeated, so
 * a process forked in between is caught too) until every member is gone. Returns the pids
 * still alive after all that, which is empty unless the kernel held one.
 */
async function endGroup(pgid, graceMs) {
    if (!groupAlive(pgid))
        return [];
    signalGroup(pgid, 'SIGTERM');
    if (await waitGroupGone(pgid, graceMs))
        return [];
    signalGroup(pgid, 'SIGKILL');
    if (await waitGroupGone(pgid, KILL_WAIT_MS, 25, () => signalGroup(pgid, 'SIGKILL')))
        return [];
    return groupPids(pgid);
}

;// CONCATENATED MODULE: ./.build/isolation/user-processes.js



/**
 * Every live process of `uid` (real, effective or saved), read from /proc. `status` is read
 * rather than the owner of `/proc/<pid>`, which turns to root for a process that made itself
 * non-dumpable. Both files stay readable across the user boundary, so the watchdog keeps
 * seeing the agent's CPU time.
 */
function userProcesses(uid) {
    const want = String(uid);
    const owned = (pid) => {
        const uids = /\nUid:\t(\d+)\t(\d+)\t(\d+)/.exec(readProc(`/proc/${pid}/status`) ?? '');
        return uids !== null && uids.slice(1).includes(want);
    };
    return liveProcesses(owned) ?? [];
}
const user_processes_sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const user_processes_KILL_WAIT_MS = 10_000;
// How long a helper may take before it is taken for frozen (SIGSTOP from the agent) and killed.
const HELPER_WAIT_MS = 3000;
// Started as root, the helper becomes the agent user and calls kill(-1): the kernel signals every
// process of the user in one pass, also a chain of forks that each exit as soon as the next is
// born, which a scan of /proc can miss. The agent can signal a process of its own user, or read
// its environment, so the helper is the agent user's only from the moment it is one call from
// its signal, and its environment holds nothing.
const SIGNAL_AS_USER = `const [uid, gid, signal] = process.argv.slice(1)
process.setgroups([])
process.setgid(Number(gid))
process.setuid(Number(uid))
try {
  process.kill(-1, signal)
} catch {}`;
/**
 * All processes of the agent user, however they were started (`setsid`, double forks,
 * daemons): the agent user is the job's own, so everything it runs belongs to the agent.
 * Each signal goes twice: from root to every process of the user seen in /proc, which no
 * process of the agent can stop or delay, then by kill(-1) as the agent user (above), which
 * reaches the ones the scan missed. Nothing is ever run as the agent user with the action's
 * environment: the agent could read it there.
 */
class UserProcesses {
    user;
    privilege;
    kill;
    setpriv = systemProgram('setpriv');
    constructor(user, privilege) {
        this.user = user;
        this.privilege = privilege;
        this.kill = systemProgram('kill') ?? '/bin/kill';
    }
    members() {
        return userProcesses(this.user.uid);
    }
    alive() {
        return this.members().length > 0;
    }
    /**
     * SIGTERM to all, `graceMs` to exit, then SIGKILL until none is left. SIGKILL goes at least
     * once even when no process is seen: a chain of forks can slip past every scan.
     */
    async end(graceMs) {
        if (this.alive()) {
            await this.signal('SIGTERM');
            const until = Date.now() + graceMs;
            while (Date.now() < until && this.alive())
                await user_processes_sleep(25);
        }
        const stop = Date.now() + user_processes_KILL_WAIT_MS;
        for (;;) {
            await this.signal('SIGKILL');
            const left = this.members();
            if (left.length === 0)
                return [];
            if (Date.now() >= stop)
                return left.map((p) => p.pid);
            await user_processes_sleep(25);
        }
    }
    /** SIGKILL to all at once, for a process about to exit. */
    killNow() {
        const pids = this.members().map((p) => p.pid);
        if (this.privilege.kind === 'root') {
            for (const pid of pids)
                signalPid(pid, 'SIGKILL');
        }
        else if (pids.length > 0) {
            helperSync(this.fromRoot('SIGKILL', pids));
        }
        helperSync(this.asUser('SIGKILL'));
    }
    async signal(name) {
        const pids = this.members().map((p) => p.pid);
        if (this.privilege.kind === 'root') {
            for (const pid of pids)
                signalPid(pid, name);
        }
        else if (pids.length > 0) {
            await helper(this.fromRoot(name, pids));
        }
        await helper(this.asUser(name));
    }
    /** `kill` run as root, for a runner user that cannot signal the agent user itself. */
    fromRoot(name, pids) {
        return asRoot(this.privilege, [this.kill, `-${name.slice(3)}`, '--', ...pids.map(String)]);
    }
    asUser(name) {
        const { uid, gid } = this.user;
        // setpriv (util-linux, on every Debian and Ubuntu) starts in a few milliseconds where node
        // takes some fifty; a kill it runs that the agent freezes is ended by the helper's timeout
        // like a frozen node helper, and the root-side signals go on meanwhile.
        const argv = this.setpriv
            ? [this.setpriv, `--reuid=${uid}`, `--regid=${gid}`, '--clear-groups', '--'].concat([
                this.kill,
                `-${name.slice(3)}`,
                '--',
                '-1'
            ])
            : [process.execPath, '-e', SIGNAL_AS_USER, String(uid), String(gid), name];
        return asRoot(this.privilege, argv);
    }
}
function signalPid(pid, name) {
    try {
        process.kill(pid, name);
    }
    catch {
        // gone already
    }
}
function helperSync(argv) {
    const [file = '', ...args] = argv;
    (0,external_node_child_process_.spawnSync)(file, args, {
        stdio: 'ignore',
        env: systemEnv(),
        timeout: HELPER_WAIT_MS,
        killSignal: 'SIGKILL'
    });
}
/** Runs `argv` with no environment to speak of; one that hangs past its time is killed. */
function helper(argv) {
    const [file = '', ...args] = argv;
    return new Promise((resolve) => {
        const child = (0,external_node_child_process_.spawn)(file, args, { stdio: 'ignore', env: systemEnv() });
        const timer = setTimeout(() => child.kill('SIGKILL'), HELPER_WAIT_MS);
        const done = () => {
            clearTimeout(timer);
            resolve();
        };
        child.once('exit', done);
        child.once('error', done);
    });
}

;// CONCATENATED MODULE: ./.build/isolation/sandbox.js








/**
 * Once per job: root or `sudo -n`, the agent user, the runner's folders closed to it, and
 * nothing of an earlier job's agent still running.
 */
async function startIsolation(o) {
    const privilege = findPrivilege();
    if (!privilege) {
        throw new errors/* UserError */.yo('isolation: user runs the agent as a second Unix user, which needs root or passwordless sudo (sudo -n), and this runner has neither; set isolation: none to run the agent as the runner user, with the job token in its reach');
    }
    const user = await ensureAgentUser(o.user, privilege);
    const closed = await closeToOthers(o.protect);
    await new UserProcesses(user, privilege).end(1000);
    return { privilege, user, closed };
}
/** The agent's clone and HOME handed over, and how to start and end it as the agent user. */
async function openSandbox(iso, o) {
    const { privilege, user } = iso;
    const handedOver = await handOver({ privilege, user, ...o });
    const processes = new UserProcesses(user, privilege);
    const shell = systemProgram('bash') ?? systemProgram('sh') ?? '/bin/sh';
    const envProgram = systemProgram('env') ?? '/usr/bin/env';
    const sandbox = {
        home: handedOver.home,
        env: {
            set: {
                ...o.model.set,
                USER: user.name,
                LOGNAME: user.name,
                TMPDIR: external_node_path_.join(handedOver.home, 'tmp'),
                SHELL: shell
            },
            unset: o.model.unset
        },
        processes,
        cannotRun: (file) => cannotRunAs(file, user.uid),
        launch: (file, args, env, cwd) => {
            if (privilege.kind === 'root')
                return { file, args, env, cwd, uid: user.uid, gid: user.gid };
            // sudo resets PATH (secure_path) and cannot chdir where the runner user may not look,
            // so `env` sets both; nothing secret goes on the command line.
            return {
                file: privilege.sudo,
                args: [
                    '-n',
                    '-E',
                    '-u',
                    user.name,
                    '--',
                    envProgram,
                    '-C',
                    cwd,
                    ...['SUDO_USER', 'SUDO_UID', 'SUDO_GID', 'SUDO_COMMAND'].flatMap((n) => ['-u', n]),
                    `PATH=${env.PATH ?? ''}`,
                    `HOME=${env.HOME ?? ''}`,
                    file,
                    ...args
                ],
                env,
                cwd: '/'
            };
        }
    };
    return {
        sandbox,
        handedOver,
        close: async (graceMs) => {
            await processes.end(graceMs);
            return takeBack(privilege, handedOver);
        }
    };
}
/** Why the agent user cannot run `file` (each folder on its way must let it through). */
function cannotRunAs(file, uid) {
    const barred = 'which the agent user cannot run; install the CLI where every user can (npm install -g, /usr/local/bin) or set isolation: none';
    let real;
    try {
        real = (0,external_node_fs_.realpathSync)(file);
    }
    catch {
        return barred;
    }
    // Its own files by the owner bits, everyone else's by the "other" bits: it shares no group.
    const allows = (p, bits) => {
        const st = (0,external_node_fs_.statSync)(p);
        return ((st.uid === uid ? st.mode >> 6 : st.mode) & bits) === bits;
    };
    const parts = real.split(external_node_path_.sep);
    for (let i = 1; i < parts.length; i++) {
        if (!allows(parts.slice(0, i).join(external_node_path_.sep) || '/', 0o1))
            return barred;
    }
    return allows(real, 0o5) ? null : barred;
}

;// CONCATENATED MODULE: ./.build/agent/command.js


/**
 * Where the profile's command lives: a name with a slash is taken relative to the repository
 * root, a bare name is looked up on the agent environment's PATH (never run through a
 * shell). Returns the absolute path, or a one-line reason naming the command and profile.
 */
function resolveCommand(command, cwd, pathVar, profile) {
    if (command === '')
        return { error: `profile "${profile}" has no command` };
    if (command.includes('/')) {
        const path = (0,external_node_path_.isAbsolute)(command) ? command : (0,external_node_path_.resolve)(cwd, command);
        if (isExecutableFile(path))
            return { path };
        return {
            error: `command "${command}" of profile "${profile}" ${existsAsFile(path) ? 'is not executable' : 'does not exist'}`
        };
    }
    for (const dir of (pathVar ?? '').split(external_node_path_.delimiter)) {
        if (dir === '')
            continue; // an empty PATH entry would mean the current directory
        const path = (0,external_node_path_.resolve)(cwd, (0,external_node_path_.join)(dir, command));
        if (isExecutableFile(path))
            return { path };
    }
    return { error: `command "${command}" of profile "${profile}" was not found on PATH` };
}
function existsAsFile(path) {
    try {
        return (0,external_node_fs_.statSync)(path).isFile();
    }
    catch {
        return false;
    }
}
function isExecutableFile(path) {
    if (!existsAsFile(path))
        return false;
    try {
        (0,external_node_fs_.accessSync)(path, external_node_fs_.constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}

;// CONCATENATED MODULE: ./.build/pipeline/command-check.js





// The CLIs a misspelt command most likely meant.
const command_check_PRESETS = ['claude', 'codex', 'gemini'];
/** A stage that cannot start because its agent's command is missing or not runnable. */
class CommandUnavailableError extends errors/* UserError */.yo {
    problem;
    missing;
    constructor(profile, 
    /** What is wrong with the command, and what to do. */
    problem, location, 
    /** The command is not there (yet): a CLI a later step or another machine may install. */
    missing) {
        super(`the ${profile} stage cannot start: ${problem}`, location);
        this.problem = problem;
        this.missing = missing;
        this.name = 'CommandUnavailableError';
    }
}
/**
 * Whether the profile's agent can be started: its command found where the agent will look for
 * it and runnable by the user it runs as. Checked before anything of a stage happens, so a
 * missing or misspelt CLI is one clear line rather than a crash, its retries and their partials.
 */
function commandUnavailable(c) {
    const { profile } = c;
    const command = profile.argv[0] ?? '';
    const found = resolveCommand(command, c.cwd, c.pathVar, profile.name);
    let problem;
    let missing = false;
    if ('error' in found) {
        // A relative path names a file of the repository, which no later step installs.
        const script = command.includes('/') && !(0,external_node_path_.isAbsolute)(command);
        missing = !script && !(0,external_node_fs_.existsSync)(command);
        const fix = missing
            ? 'install it (in CI: in a step before this action)'
            : (0,external_node_fs_.existsSync)((0,external_node_path_.resolve)(c.cwd, command))
                ? 'make it executable (chmod +x, and commit that)'
                : 'commit it';
        const meant = missing ? closest(command, command_check_PRESETS) : undefined;
        const hint = meant && meant !== command ? ` (did you mean "${meant}"?)` : '';
        problem = `${found.error}${hint}; ${fix} or fix ${profile.commandAt.key}`;
    }
    else {
        // A repository script is run from the agent's own clone, which that user owns.
        const barred = (0,external_node_path_.isAbsolute)(command) || !command.includes('/') ? c.cannotRun?.(found.path) : null;
        if (!barred)
            return null;
        problem = `command "${command}" of profile "${profile.name}" is at ${found.path}, ${barred}`;
    }
    return new CommandUnavailableError(profile.name, problem, { file: c.configFile, line: profile.commandAt.line }, missing);
}

;// CONCATENATED MODULE: ./.build/pipeline/guarded-tracker.js

/**
 * The tracker with every text the pipeline sends it screened for secrets: comment bodies
 * (the agent's own words among them), the record behind the status comment, and the pull
 * request. What stage and job already redacted never gets here; this is the last check
 * before anything is written where people (or the public) can read it. Each finding is told
 * to `withheld` in one line naming where, never the value.
 */
function guardedTracker(tracker, secrets, withheld) {
    const clean = (where, text) => redactNoting(secrets, where, text, withheld);
    // Bound to the tracker: its methods are class methods, and unlisted ones pass through.
    const passOn = (k) => {
        const v = tracker[k];
        return (typeof v === 'function' ? v.bind(tracker) : v);
    };
    return {
        wakes: tracker.wakes,
        authorize: passOn('authorize'),
        getIssue: passOn('getIssue'),
        branchFor: passOn('branchFor'),
        loadRecord: passOn('loadRecord'),
        saveRecord: (issue, record) => {
            const r = secrets.redactDeep(record);
            if (r.kinds.length > 0)
                withheld(`the status comment: ${inWords(r.kinds)} redacted`);
            return tracker.saveRecord(issue, r.value);
        },
        moveState: passOn('moveState'),
        comment: (issue, c) => {
            const where = c.agent ? `the ${c.agent} agent's comment` : `the comment ${c.key}`;
            return tracker.comment(issue, { ...c, body: clean(where, c.body) });
        },
        setFlag: passOn('setFlag'),
        wake: passOn('wake'),
        publish: (issue, o) => tracker.publish({ ...issue, title: clean('the pull request title', issue.title) }, o),
        runLine: passOn('runLine'),
        replyHint: passOn('replyHint'),
        blobUrl: passOn('blobUrl')
    };
}

// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: external "node:http"
var external_node_http_ = __webpack_require__(7067);
// EXTERNAL MODULE: external "node:https"
var external_node_https_ = __webpack_require__(4708);
// EXTERNAL MODULE: external "node:stream"
var external_node_stream_ = __webpack_require__(7075);
;// CONCATENATED MODULE: ./.build/agent/model-proxy.js




// RFC 9110 7.6.1: meaningful for one connection only, never forwarded.
const HOP_BY_HOP = new Set([
    'connection',
    'keep-alive',
    'proxy-authenticate',
    'proxy-authorization',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade'
]);
// Where the three providers' clients put a key. All are stripped from every request, whichever
// one the agent used, so the placeholder never travels upstream.
const KEY_HEADERS = ['authorization', 'x-api-key', 'x-goog-api-key'];
const KEY_QUERY = 'key';
/**
 * A loopback HTTP proxy that swaps the agent's placeholder key for the real one. It lives in
 * the action's own process, so the real key never enters the agent's reach; bodies stream
 * through both ways untouched, so server-sent events arrive as the model sends them.
 */
async function startModelProxy(o) {
    // A key unfit for a header fails here, not on the agent's first request.
    external_node_http_.validateHeaderValue(o.credential.header, o.credential.value);
    const client = o.upstream.protocol === 'https:' ? external_node_https_ : external_node_http_;
    // Our own agent, so that close() can end the upstream connections it keeps alive.
    const agent = new client.Agent({ keepAlive: true });
    const basePath = o.upstream.pathname.replace(/\/+$/, '');
    const placeholderDigest = digest(o.placeholder);
    let requests = 0;
    const server = external_node_http_.createServer((req, res) => {
        // Codex asks for a WebSocket first and falls back to HTTP streaming on a 426.
        if (req.headers.upgrade !== undefined)
            return reply(res, 426, 'use HTTP, not an upgrade');
        // Origin form only (`/path?query`); the URL parser resolves `..` and `%2e` segments, and
        // what it makes of the path is what both the route check and the upstream see.
        if (!req.url?.startsWith('/'))
            return reply(res, 400, 'not an origin-form request');
        const url = new URL(`http://proxy${req.url}`);
        if (!presented(req.headers, url).some((k) => (0,external_node_crypto_.timingSafeEqual)(digest(k), placeholderDigest))) {
            return reply(res, 401, 'wrong or missing key');
        }
        const method = req.method ?? 'GET';
        const path = o.route(method, url.pathname);
        if (path === undefined)
            return reply(res, 403, 'not a model API request');
        url.searchParams.delete(KEY_QUERY);
        const headers = forwardable(req.headers);
        headers[o.credential.header] = o.credential.value;
        const upstream = client.request({
            protocol: o.upstream.protocol,
            hostname: o.upstream.hostname.replace(/^\[|\]$/g, ''),
            port: o.upstream.port,
            method,
            path: basePath + path + url.search,
            headers,
            agent
        });
        requests++;
        upstream.on('response', (answer) => {
            res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
            // A failure on either side destroys both, which ends the agent's stream visibly.
            (0,external_node_stream_.pipeline)(answer, res, () => undefined);
        });
        upstream.on('error', (e) => {
            if (res.headersSent || res.destroyed)
                res.destroy();
            else
                reply(res, 502, `model API unreachable${model_proxy_errorCode(e)}`);
        });
        // An agent that hangs up must not leave a generation running (and billed) upstream.
        res.on('close', () => {
            if (!res.writableFinished)
                upstream.destroy();
        });
        req.pipe(upstream);
    });
    await new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address();
    return {
        url: `http://127.0.0.1:${port}`,
        port,
        get requests() {
            return requests;
        },
        close: () => new Promise((resolve) => {
            // Resolves also when already closed: closing twice is harmless.
            server.close(() => resolve());
            server.closeAllConnections();
            agent.destroy();
        })
    };
}
/** Every key the request carries, in any of the places a model client puts one. */
function presented(headers, url) {
    const keys = url.searchParams.getAll(KEY_QUERY);
    for (const name of KEY_HEADERS) {
        const value = headers[name];
        if (typeof value === 'string')
            keys.push(value.replace(/^Bearer\s+/i, ''));
    }
    return keys;
}
/** The headers minus hop-by-hop ones (also those the `connection` header names), keys and host. */
function forwardable(headers) {
    const named = String(headers.connection ?? '')
        .split(',')
        .map((n) => n.trim().toLowerCase());
    const out = {};
    for (const [name, value] of Object.entries(headers)) {
        if (HOP_BY_HOP.has(name) || named.includes(name) || KEY_HEADERS.includes(name))
            continue;
        if (name === 'host')
            continue;
        out[name] = value;
    }
    return out;
}
// Hashing first gives both sides one length, which timingSafeEqual needs.
function digest(text) {
    return (0,external_node_crypto_.createHash)('sha256').update(text).digest();
}
// The code only (ECONNREFUSED): a message could carry more than we mean to show.
function model_proxy_errorCode(e) {
    const code = e.code;
    return typeof code === 'string' ? ` (${code})` : '';
}
function reply(res, status, message) {
    const body = JSON.stringify({ error: { type: 'itervox_model_proxy', message } });
    res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body)
    });
    res.end(body);
}

;// CONCATENATED MODULE: ./.build/agent/model-access.js



/**
 * Starts the model proxy for a preset and says what the agent gets instead of the key. Null
 * for `generic`, whose model API is unknown (its environment passes as it is); `missing` when
 * the parent holds no key for the preset, a case to warn about: the agent then has no key.
 */
async function setUpModelAccess(preset, parentEnv) {
    const provider = modelProvider(preset);
    if (provider === undefined)
        return null;
    const names = provider.credentials.map((c) => c.variable);
    const found = provider.credentials.find((c) => parentEnv[c.variable]?.trim());
    if (found === undefined)
        return { missing: `none of ${names.join(', ')} is set` };
    // A secret pasted with its trailing newline would be an invalid header.
    const key = (parentEnv[found.variable] ?? '').trim();
    const { variable, default: fallback } = provider.baseUrl;
    const upstream = baseUrl(variable, parentEnv[variable] || fallback);
    // New per run: a placeholder that leaks is worth nothing outside this job.
    const placeholder = `itervox-placeholder-${(0,external_node_crypto_.randomBytes)(16).toString('hex')}`;
    const proxy = await startModelProxy({
        upstream,
        route: provider.route,
        placeholder,
        credential: {
            header: found.header,
            value: found.header === 'authorization' ? `Bearer ${key}` : key
        }
    });
    const agent = provider.agent(proxy.url, placeholder, found.variable);
    return {
        env: { ...agent.env, ...noProxy(parentEnv) },
        files: agent.files,
        proxy,
        hidden: [...names, variable, ...provider.conflicting]
    };
}
function baseUrl(variable, value) {
    const url = URL.canParse(value) ? new URL(value) : undefined;
    // The value is not repeated: a base URL can carry credentials of its own.
    if (url?.protocol !== 'http:' && url?.protocol !== 'https:') {
        throw new Error(`${variable} is not an http or https URL`);
    }
    return url;
}
// A CLI that honours the user's HTTPS_PROXY would otherwise send its loopback calls there,
// where the proxy cannot be reached. Both spellings, as clients differ in which they read.
function noProxy(parentEnv) {
    const hosts = [parentEnv.NO_PROXY, parentEnv.no_proxy, '127.0.0.1']
        .flatMap((v) => (v ?? '').split(','))
        .map((h) => h.trim())
        .filter(Boolean);
    const value = [...new Set(hosts)].join(',');
    return { NO_PROXY: value, no_proxy: value };
}

// EXTERNAL MODULE: ./node_modules/picomatch/index.js
var picomatch = __webpack_require__(4006);
;// CONCATENATED MODULE: ./.build/agent/config-paths.js

// What the agent CLIs read from the project tree as their own configuration: settings that can
// set environment variables (a model base URL, so the key and the traffic go elsewhere), hooks
// and MCP servers that run commands, and instruction files. A file an agent leaves here is
// obeyed by the next stage's CLI, so a stage never commits one unless its profile names it,
// and the agent is given these paths as the trusted commit (the default branch) has them.
/**
 * Folders read whole, at any depth (Claude Code also finds nested `.claude/skills`); a file or
 * symlink by such a name counts too, or `.claude -> elsewhere` would bring a folder in.
 */
const CONFIG_DIRS = new Set([
    '.claude', // Claude Code: settings*.json (env, hooks, permissions), commands, agents, skills
    '.codex', // Codex: config.toml, agents, prompts
    '.gemini', // Gemini CLI: settings.json, .env, commands, extensions, system.md
    '.agents', // Codex skills (.agents/skills)
    '.cursor' // Cursor's agent: rules, mcp.json
]);
/** Files read at any depth: instruction files are looked up directory by directory. */
const CONFIG_FILES = new Set([
    'CLAUDE.md',
    'CLAUDE.local.md',
    '.mcp.json', // Claude Code's project MCP servers
    'AGENTS.md',
    'AGENTS.override.md',
    'GEMINI.md',
    '.geminiignore',
    '.cursorrules'
].map((n) => n.toLowerCase()));
/** Files read at the root only: Gemini CLI loads `.env` from its working directory up. */
const ROOT_FILES = new Set(['.env']);
/**
 * The index of the segment of `path` that makes it agent configuration (the outermost config
 * folder, or the file's own name), or -1 when it is none. Names compare without case: on a
 * case-insensitive file system `.Claude` is `.claude`.
 */
function configSegment(path) {
    const parts = path.split('/');
    for (let i = 0; i < parts.length; i++) {
        const name = (parts[i] ?? '').toLowerCase();
        const last = i === parts.length - 1;
        if (CONFIG_DIRS.has(name))
            return i;
        if (last && (CONFIG_FILES.has(name) || (i === 0 && ROOT_FILES.has(name))))
            return i;
    }
    return -1;
}
function isAgentConfig(path) {
    return configSegment(path) >= 0;
}
// A segment with any of these is a pattern, not a name.
const GLOB_CHARS = /[*?[\]{}()!+@\\]/;
/**
 * Whether a commit_paths entry names `path` explicitly: the entry matches it and spells the
 * segment that makes it agent configuration literally (`.claude/**`, `CLAUDE.md`,
 * `docs/CLAUDE.md`, `**\/AGENTS.md`), so that no wildcard (`**`, `*.md`, `.*\/**`) lets a stage
 * commit agent configuration by accident.
 */
function namedExplicitly(globs, path) {
    const at = configSegment(path);
    if (at < 0)
        return false;
    const marker = (path.split('/')[at] ?? '').toLowerCase();
    return globs.some((glob) => picomatch(glob, { dot: true })(path) &&
        glob.split('/').some((s) => !GLOB_CHARS.test(s) && s.toLowerCase() === marker));
}

;// CONCATENATED MODULE: ./.build/agent/text.js
/** At most `max` characters from the start, with `…` where it was cut. */
function keepStart(text, max) {
    if (text.length <= max)
        return text;
    let end = max - 1;
    const code = text.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff)
        end--; // do not split a surrogate pair
    return text.slice(0, end).trimEnd() + '…';
}
/** At most `max` characters from the end, with `…` where it was cut. */
function keepEnd(text, max) {
    if (text.length <= max)
        return text;
    let start = text.length - max + 1;
    const code = text.charCodeAt(start);
    if (code >= 0xdc00 && code <= 0xdfff)
        start++; // do not split a surrogate pair
    return '…' + text.slice(start).trimStart();
}
/** The first non-empty line, trimmed and capped: a reason must stay on one line. */
function text_firstLine(text, max = 200) {
    // A lone CR or another line separator would start a new line in the runner's log, where a
    // line beginning `::` is a workflow command; control characters go too.
    const line = text.split(/[\r\n\u2028\u2029]+/).find((l) => l.trim() !== '') ?? '';
    return keepStart(line.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').trim(), max);
}
/** The longest final text a run result carries. */
const RESULT_TEXT_MAX_CHARS = 16 * 1024;
/** A name from an event (a tool, a model) made safe for a one-line log description. */
function safeName(name) {
    return typeof name === 'string' ? name.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 60) : '';
}

;// CONCATENATED MODULE: ./.build/agent/needs-input.js

/** The itervox marker an agent puts on its own line to say it needs a human answer. */
const NEEDS_INPUT_SENTINEL = '<!-- itervox:needs-input -->';
/** The longest question reported (it goes into an issue comment). */
const QUESTION_MAX_CHARS = 4000;
// How much text before the marker is kept while scanning a stream.
const WINDOW_CHARS = 64 * 1024;
/**
 * Finds the sentinel line by line, outside fenced code blocks (CommonMark: a run of at least
 * three backticks or tildes, indented at most three spaces, closed by a run of the same
 * character at least as long). The question is the text before the last sentinel found.
 */
class NeedsInputScanner {
    fence;
    window = [];
    windowChars = 0;
    found;
    line(line) {
        const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line);
        if (fence) {
            const run = fence[1];
            if (!this.fence) {
                // A backtick fence's info string may not contain a backtick.
                if (run[0] !== '`' || !line.slice(fence[0].length).includes('`')) {
                    this.fence = { char: run[0], length: run.length };
                }
            }
            else if (run[0] === this.fence.char &&
                run.length >= this.fence.length &&
                line.slice(fence[0].length).trim() === '') {
                this.fence = undefined;
            }
        }
        else if (!this.fence && line.trim() === NEEDS_INPUT_SENTINEL) {
            this.found = { question: capQuestion(this.window.join('\n').trim()) };
            this.window = [];
            this.windowChars = 0;
            return;
        }
        this.window.push(line);
        this.windowChars += line.length + 1;
        while (this.windowChars > WINDOW_CHARS && this.window.length > 1) {
            this.windowChars -= this.window.shift().length + 1;
        }
    }
    result() {
        return this.found;
    }
}
/** The sentinel check over a whole final text. */
function findNeedsInput(text) {
    const scanner = new NeedsInputScanner();
    for (const line of text.split('\n'))
        scanner.line(line.replace(/\r$/, ''));
    return scanner.result();
}
// The end of the text is what sits right above the sentinel, so a long question keeps it.
function capQuestion(text) {
    return keepEnd(text, QUESTION_MAX_CHARS);
}

;// CONCATENATED MODULE: ./.build/agent/parse-text.js


/**
 * A plain-text agent's stdout: no events, no stats; the sentinel counts anywhere in it, and
 * the final text is its end.
 */
class TextParser {
    needsInput = new NeedsInputScanner();
    tail = [];
    tailChars = 0;
    line(text) {
        this.needsInput.line(text);
        this.tail.push(text);
        this.tailChars += text.length + 1;
        while (this.tailChars > RESULT_TEXT_MAX_CHARS && this.tail.length > 1) {
            this.tailChars -= this.tail.shift().length + 1;
        }
        return undefined;
    }
    finish() {
        const resultText = keepEnd(this.tail.join('\n').trim(), RESULT_TEXT_MAX_CHARS);
        return {
            stats: {},
            ...(resultText ? { resultText } : {}),
            ...(this.needsInput.result() ? { needsInput: this.needsInput.result() } : {})
        };
    }
}

;// CONCATENATED MODULE: ./.build/agent/stream-json.js
/** The line as a JSON object, or undefined for anything else (banners, garbage, cut lines). */
function parseJsonLine(line) {
    const text = line.trim();
    if (!text.startsWith('{'))
        return undefined;
    try {
        return asObject(JSON.parse(text));
    }
    catch {
        return undefined;
    }
}
function asObject(value) {
    return value !== null && typeof value === 'object' && !Array.isArray(value)
        ? value
        : undefined;
}
function asString(value) {
    return typeof value === 'string' ? value : undefined;
}
/** A finite, non-negative number, or undefined. */
function asCount(value) {
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
/** Adds counts where at least one is known; undefined when none is. */
function addCounts(...values) {
    const known = values.filter((v) => v !== undefined);
    return known.length ? known.reduce((a, b) => a + b, 0) : undefined;
}
// How vendors word a rate limit or an exhausted quota in error text, when they give no
// status field. 529 ("overloaded") is deliberately not here: it is the vendor's trouble,
// not the user's limit.
// Gemini CLI's stream says only "Resource has been exhausted (e.g. check quota)" for a 429.
const RATE_LIMIT_WORDING = /\b429\b|rate[ _-]?limit|too many requests|resource[ _](has been )?exhausted|quota exceeded|exceeded your current quota|usage limit/i;
function mentionsRateLimit(text) {
    return RATE_LIMIT_WORDING.test(text);
}

;// CONCATENATED MODULE: ./.build/agent/json-stream-parser.js


/**
 * The part every JSON event-stream preset shares: one event per line, anything else (garbage,
 * a cut line) ignored, and output holding no event at all (a user's `--output-format text`)
 * read as plain text instead.
 */
class JsonStreamParser {
    text = new TextParser();
    events = 0;
    line(line) {
        const event = parseJsonLine(line);
        const type = asString(event?.type);
        if (!event || !type) {
            this.text.line(line);
            return undefined;
        }
        this.events++;
        return this.event(type, event);
    }
    finish() {
        return this.events === 0 ? this.text.finish() : this.findings();
    }
}

;// CONCATENATED MODULE: ./.build/agent/parse-claude.js




/**
 * Claude Code's `--output-format stream-json --verbose` stream: `system` (init, api_retry),
 * `assistant` and `user` events, `rate_limit_event`, and a last `result`. The result decides:
 * `is_error` with `api_error_status` 429 is a rate limit and any other `is_error` a failure,
 * whatever its `subtype` says (the CLI reports exhausted retries as subtype `success`).
 * Output that holds no event at all (a user's `--output-format text`) is read as plain text.
 */
class ClaudeParser extends JsonStreamParser {
    result;
    lastAssistantText;
    limitRejected = false;
    event(type, event) {
        switch (type) {
            case 'system':
                return this.system(event);
            case 'assistant':
                return this.assistant(event);
            case 'user':
                return 'tool result';
            case 'rate_limit_event': {
                const status = asString(asObject(event.rate_limit_info)?.status);
                if (status === 'rejected')
                    this.limitRejected = true;
                return `rate limit ${safeName(status)}`;
            }
            case 'result':
                this.result = event;
                return `result ${safeName(event.subtype)}${event.is_error === true ? ' (error)' : ''}`;
            default:
                return safeName(type);
        }
    }
    findings() {
        const r = this.result;
        const fullText = asString(r?.result) ?? this.lastAssistantText;
        const findings = { stats: r ? stats(r) : {} };
        if (fullText?.trim())
            findings.resultText = keepStart(fullText.trim(), RESULT_TEXT_MAX_CHARS);
        if (r?.is_error === true) {
            const status = httpStatus(r.api_error_status);
            findings.error = errorReason(r, status, fullText);
            findings.rateLimited =
                status === 429 ||
                    (status === undefined && (this.limitRejected || mentionsRateLimit(fullText ?? '')));
            return findings;
        }
        if (!r && this.limitRejected)
            findings.rateLimited = true;
        const needsInput = (fullText && findNeedsInput(fullText)) || deniedQuestion(r);
        if (needsInput)
            findings.needsInput = needsInput;
        return findings;
    }
    system(event) {
        const subtype = asString(event.subtype);
        if (subtype === 'api_retry') {
            // Advisory only: the CLI retries by itself and its result tells how that ended.
            return `api retry ${asCount(event.attempt) ?? '?'}/${asCount(event.max_retries) ?? '?'} (${asCount(event.error_status) ?? safeName(event.error)})`;
        }
        return `system ${safeName(subtype)}`;
    }
    assistant(event) {
        const content = asObject(event.message)?.content;
        const blocks = Array.isArray(content) ? content.map(asObject) : [];
        const tools = [];
        for (const block of blocks) {
            if (block?.type === 'text' && typeof block.text === 'string') {
                this.lastAssistantText = block.text;
            }
            else if (block?.type === 'tool_use') {
                tools.push(safeName(block.name));
            }
        }
        return tools.length ? `tool ${tools.join(', ')}` : 'assistant text';
    }
}
function stats(r) {
    const usage = asObject(r.usage) ?? {};
    const out = {};
    const turns = asCount(r.num_turns);
    // Cached prompt tokens are counted apart by the API; together they are what was read.
    const input = addCounts(asCount(usage.input_tokens), asCount(usage.cache_creation_input_tokens), asCount(usage.cache_read_input_tokens));
    const output = asCount(usage.output_tokens);
    const cost = asCount(r.total_cost_usd);
    if (turns !== undefined)
        out.turns = turns;
    if (input !== undefined)
        out.inputTokens = input;
    if (output !== undefined)
        out.outputTokens = output;
    if (cost !== undefined)
        out.costUsd = cost;
    return out;
}
function httpStatus(value) {
    const n = typeof value === 'string' ? Number(value) : value;
    return typeof n === 'number' && Number.isInteger(n) && n >= 100 && n <= 599 ? n : undefined;
}
function errorReason(r, status, text) {
    if (status === 429)
        return 'API error 429 (rate limited)';
    if (status !== undefined)
        return `API error ${status}`;
    const subtype = asString(r.subtype);
    if (subtype === 'error_max_turns') {
        const turns = asCount(r.num_turns);
        return `reached the turn limit${turns !== undefined ? ` (${turns} turns)` : ''}`;
    }
    if (subtype && subtype !== 'success')
        return subtype.replace(/_/g, ' ');
    return text_firstLine(text ?? '') || 'the agent reported an error';
}
// In print mode nobody can answer the CLI's own question tool, so the CLI denies it and lists
// the denial in the result: the agent did need a human.
function deniedQuestion(r) {
    const denials = Array.isArray(r?.permission_denials) ? r.permission_denials : [];
    for (const d of denials.map(asObject)) {
        if (d?.tool_name !== 'AskUserQuestion')
            continue;
        const questions = asObject(d.tool_input)?.questions;
        const texts = (Array.isArray(questions) ? questions : [])
            .map((q) => asString(asObject(q)?.question))
            .filter((q) => !!q);
        return { question: keepStart(texts.join('\n').trim(), QUESTION_MAX_CHARS) };
    }
    return undefined;
}

;// CONCATENATED MODULE: ./.build/agent/parse-codex.js




/**
 * `codex exec --json`: `thread.started`, then per turn `turn.started`, `item.*` events
 * (agent_message, reasoning, command_execution, file_change, ...) and `turn.completed` with
 * its usage, or `turn.failed`; a top-level `error` for a failure outside a turn. The final
 * text is the last completed agent message. Codex names rate limits only in its messages.
 * Its usage counts tokens only: no cost, and no count of model calls (an `exec` is one turn
 * however many calls it makes), so no turns either.
 */
class CodexParser extends JsonStreamParser {
    inputTokens;
    outputTokens;
    lastMessage;
    error;
    rateLimited = false;
    event(type, event) {
        switch (type) {
            case 'turn.completed': {
                const usage = asObject(event.usage) ?? {};
                this.inputTokens = addCounts(this.inputTokens, asCount(usage.input_tokens));
                this.outputTokens = addCounts(this.outputTokens, asCount(usage.output_tokens));
                this.error = undefined; // an error before a completed turn was recovered from
                return 'turn completed';
            }
            case 'turn.failed':
                this.fail(asString(asObject(event.error)?.message) ?? 'turn failed');
                return 'turn failed';
            case 'error':
                this.fail(asString(event.message) ?? 'error');
                return 'error';
            case 'item.started':
            case 'item.updated':
            case 'item.completed':
                return this.item(type, asObject(event.item));
            default:
                return safeName(type);
        }
    }
    findings() {
        const findings = { stats: {} };
        if (this.inputTokens !== undefined)
            findings.stats.inputTokens = this.inputTokens;
        if (this.outputTokens !== undefined)
            findings.stats.outputTokens = this.outputTokens;
        const fullText = this.lastMessage?.trim();
        if (fullText)
            findings.resultText = keepStart(fullText, RESULT_TEXT_MAX_CHARS);
        if (this.rateLimited)
            findings.rateLimited = true;
        if (this.error) {
            findings.error = this.error;
            return findings;
        }
        const needsInput = fullText ? findNeedsInput(fullText) : undefined;
        if (needsInput)
            findings.needsInput = needsInput;
        return findings;
    }
    item(type, item) {
        const kind = asString(item?.type) ?? 'item';
        if (type === 'item.completed' && kind === 'agent_message') {
            this.lastMessage = asString(item?.text) ?? this.lastMessage;
        }
        // An error item is a warning inside a turn; the turn's own end says whether it failed.
        if (kind === 'error' && mentionsRateLimit(asString(item?.message) ?? '')) {
            this.rateLimited = true;
        }
        return `${safeName(kind)} ${type.slice('item.'.length)}`;
    }
    fail(message) {
        this.error = text_firstLine(message) || 'error';
        if (mentionsRateLimit(message))
            this.rateLimited = true;
    }
}

;// CONCATENATED MODULE: ./.build/agent/parse-gemini.js




/**
 * Gemini CLI's `--output-format stream-json`: `init`, `message` (user or assistant, the
 * assistant's often as `delta` chunks), `tool_use`, `tool_result`, `error` (warnings the CLI
 * goes on from) and a last `result` with `status` and `stats`. The final text is the
 * assistant's text after its last tool call.
 */
class GeminiParser extends JsonStreamParser {
    answer = '';
    toolSinceAnswer = false;
    result;
    rateLimited = false;
    event(type, event) {
        switch (type) {
            case 'message': {
                if (event.role !== 'assistant')
                    return `${safeName(event.role)} message`;
                const content = asString(event.content) ?? '';
                if (this.toolSinceAnswer)
                    this.answer = '';
                this.toolSinceAnswer = false;
                this.answer = event.delta === true ? this.answer + content : content;
                return 'assistant text';
            }
            case 'tool_use':
                this.toolSinceAnswer = true;
                return `tool ${safeName(event.tool_name)}`;
            case 'error':
                if (mentionsRateLimit(asString(event.message) ?? ''))
                    this.rateLimited = true;
                return `${safeName(event.severity) || 'error'} event`;
            case 'result':
                this.result = event;
                return `result ${safeName(event.status)}`;
            default:
                return safeName(type);
        }
    }
    findings() {
        const r = this.result;
        const st = asObject(r?.stats) ?? {};
        const findings = { stats: {} };
        const input = asCount(st.input_tokens) ?? asCount(st.input);
        const output = asCount(st.output_tokens);
        if (input !== undefined)
            findings.stats.inputTokens = input;
        if (output !== undefined)
            findings.stats.outputTokens = output;
        const fullText = this.answer.trim();
        if (fullText)
            findings.resultText = keepStart(fullText, RESULT_TEXT_MAX_CHARS);
        if (this.rateLimited)
            findings.rateLimited = true;
        const error = asObject(r?.error);
        if (error || (typeof r?.status === 'string' && r.status !== 'success')) {
            const message = asString(error?.message) ?? '';
            const kind = asString(error?.type) ?? '';
            findings.error = text_firstLine(message) || safeName(kind) || 'the agent reported an error';
            if (mentionsRateLimit(`${message} ${kind}`))
                findings.rateLimited = true;
            return findings;
        }
        const needsInput = fullText ? findNeedsInput(fullText) : undefined;
        if (needsInput)
            findings.needsInput = needsInput;
        return findings;
    }
}

;// CONCATENATED MODULE: ./.build/agent/presets.js





/**
 * The command line, extra environment and stream reader for a profile's command, chosen by
 * the command's basename. Flags the user already wrote (in either `--flag value` or
 * `--flag=value` form, or an equivalent) are not added again. Every preset reads the prompt
 * from stdin.
 */
function presetFor(argv, opts) {
    const command = argv[0] ?? '';
    switch ((0,external_node_path_.basename)(command)) {
        case 'claude':
            return claude(argv, opts);
        case 'codex':
            return codex(argv);
        case 'gemini':
            return presets_gemini(argv);
        default:
            return { name: 'generic', argv: [...argv], env: {}, parser: new TextParser() };
    }
}
function claude(argv, opts) {
    const out = [...argv];
    const user = argv.slice(1);
    if (!has(user, '-p', '--print'))
        out.push('-p');
    if (!has(user, '--output-format'))
        out.push('--output-format', 'stream-json');
    // stream-json in print mode is refused without --verbose.
    if (!has(user, '--verbose'))
        out.push('--verbose');
    if (!has(user, '--max-turns'))
        out.push('--max-turns', String(opts.maxTurns));
    if (!has(user, '--dangerously-skip-permissions', '--permission-mode')) {
        out.push('--dangerously-skip-permissions');
    }
    return {
        name: 'claude',
        argv: out,
        // As root the CLI refuses --dangerously-skip-permissions unless told it is in a sandbox
        // (containers and CI runners often run as root); as anyone else it needs nothing.
        env: opts.isRoot ? { IS_SANDBOX: '1' } : {},
        parser: new ClaudeParser()
    };
}
function codex(argv) {
    const user = argv.slice(1);
    const out = [argv[0], ...(has(user, 'exec', 'e') ? [] : ['exec']), ...user];
    if (!has(user, '--json', '--experimental-json'))
        out.push('--json');
    if (!has(user, '--skip-git-repo-check'))
        out.push('--skip-git-repo-check');
    // The runner is the sandbox (isolation: user); codex's own would refuse the stage's writes
    // and its approval prompts have nobody to answer them. (`--full-auto` is no such flag: 0.171
    // rejects it as an unexpected argument.)
    if (!has(user, '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--sandbox', '-s')) {
        out.push('--dangerously-bypass-approvals-and-sandbox');
    }
    // `-` makes codex read the prompt from stdin.
    if (!user.includes('-'))
        out.push('-');
    return { name: 'codex', argv: out, env: {}, parser: new CodexParser() };
}
function presets_gemini(argv) {
    const out = [...argv];
    const user = argv.slice(1);
    // With stdin not a terminal and no prompt argument, gemini runs headless on stdin's text.
    if (!has(user, '--output-format', '-o'))
        out.push('--output-format', 'stream-json');
    if (!has(user, '--yolo', '-y', '--approval-mode'))
        out.push('--yolo');
    return {
        name: 'gemini',
        argv: out,
        // A fresh checkout is never in the user's trusted folders: headless gemini would exit 55
        // before any model call, and --yolo is downgraded there. The variable works across
        // versions (0.61's --skip-trust does not exist in older ones).
        env: { GEMINI_CLI_TRUST_WORKSPACE: 'true' },
        parser: new GeminiParser()
    };
}
/**
 * What each CLI reads its key, endpoint and model from. The agent environment is an
 * allow-list, so these pass by default, on top of the names the profile's `env` adds.
 */
const MODEL_VARIABLES = {
    claude: [
        'ANTHROPIC_API_KEY',
        'ANTHROPIC_AUTH_TOKEN',
        'CLAUDE_CODE_OAUTH_TOKEN',
        'ANTHROPIC_BASE_URL',
        'ANTHROPIC_MODEL',
        'ANTHROPIC_SMALL_FAST_MODEL',
        'CLAUDE_CODE_USE_BEDROCK',
        'CLAUDE_CODE_USE_VERTEX',
        'AWS_REGION',
        'ANTHROPIC_VERTEX_PROJECT_ID',
        'CLOUD_ML_REGION'
    ],
    codex: ['CODEX_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'CODEX_HOME'],
    gemini: [
        'GEMINI_API_KEY',
        'GOOGLE_API_KEY',
        'GOOGLE_GEMINI_BASE_URL',
        'GOOGLE_CLOUD_PROJECT',
        'GOOGLE_CLOUD_LOCATION',
        'GOOGLE_GENAI_USE_VERTEXAI',
        'GEMINI_MODEL'
    ],
    generic: []
};
/**
 * Variables a preset's CLI needs derived from the ones it was given: `codex exec` reads only
 * CODEX_API_KEY and, given just OPENAI_API_KEY, sends no key at all (every call gets 401).
 */
function derivedVariables(preset, env) {
    if (preset !== 'codex' || env.CODEX_API_KEY || !env.OPENAI_API_KEY)
        return {};
    return { CODEX_API_KEY: env.OPENAI_API_KEY };
}
/** The variables a preset's CLI is given by default. */
function modelVariables(preset) {
    return MODEL_VARIABLES[preset];
}
/**
 * The names an agent may take from the job's environment: its preset's model variables plus
 * the profile's own `env` (which adds to them, never replaces them), each once.
 */
function allowedNames(profileEnv, preset) {
    return [...new Set([...MODEL_VARIABLES[preset], ...profileEnv])];
}
function has(args, ...flags) {
    return args.some((a) => flags.some((f) => a === f || a.startsWith(`${f}=`)));
}

// EXTERNAL MODULE: external "node:string_decoder"
var external_node_string_decoder_ = __webpack_require__(6193);
;// CONCATENATED MODULE: ./.build/agent/classify.js
/**
 * The outcome and its one-line reason. Our own reasons to end a run come first (the exit
 * status of a process we killed says nothing); then a failed process or an error result,
 * which is a rate limit when the stream reported one; then a clean end that asked for input.
 */
function classify(facts) {
    const { cause, exitCode, signal, findings } = facts;
    switch (cause?.kind) {
        case 'stalled':
            return {
                outcome: 'stalled',
                reason: `no output and no busy CPU for ${seconds(cause.silentMs)}`
            };
        case 'timed_out':
            return { outcome: 'timed_out', reason: `deadline of ${seconds(cause.deadlineMs)} reached` };
        case 'cancelled':
            return { outcome: 'cancelled', reason: cause.why ? `cancelled: ${cause.why}` : 'cancelled' };
        case 'spawn_failed':
            return { outcome: 'failed', reason: cause.error };
        case undefined:
            break;
    }
    const processFailed = signal !== null || (exitCode !== null && exitCode !== 0);
    if (processFailed || findings.error) {
        const reason = findings.error ?? (signal !== null ? `killed by signal ${signal}` : `exit code ${exitCode}`);
        return { outcome: findings.rateLimited ? 'rate_limited' : 'failed', reason };
    }
    if (findings.needsInput)
        return { outcome: 'input_required', reason: 'the agent asked for input' };
    return { outcome: 'succeeded', reason: 'exit code 0' };
}
function seconds(ms) {
    const s = ms / 1000;
    return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

;// CONCATENATED MODULE: ./.build/agent/lines.js

// A stream-json line can be big (a Write tool call carries the whole file), but a line with
// no end in sight must not hold memory forever; past this size it is skipped.
const MAX_LINE_CHARS = 4 * 1024 * 1024;
/**
 * Turns a byte stream into lines. Chunks may split a line or a UTF-8 character anywhere;
 * `\r\n` and `\n` both end a line; an over-long line is dropped up to its end.
 */
class LineSplitter {
    onLine;
    maxChars;
    decoder = new external_node_string_decoder_.StringDecoder('utf8');
    partial = '';
    skipping = false;
    constructor(onLine, maxChars = MAX_LINE_CHARS) {
        this.onLine = onLine;
        this.maxChars = maxChars;
    }
    /** Feeds bytes; returns them decoded. */
    push(chunk) {
        const text = this.decoder.write(chunk);
        this.take(text);
        return text;
    }
    /** Ends the stream; a last line without a newline still counts. */
    end() {
        const text = this.decoder.end();
        this.take(text);
        if (!this.skipping && this.partial !== '')
            this.emit(this.partial);
        this.partial = '';
        this.skipping = false;
        return text;
    }
    take(text) {
        let start = 0;
        for (;;) {
            const nl = text.indexOf('\n', start);
            if (nl < 0)
                break;
            if (!this.skipping)
                this.emit(this.partial + text.slice(start, nl));
            this.partial = '';
            this.skipping = false;
            start = nl + 1;
        }
        if (this.skipping)
            return;
        this.partial += text.slice(start);
        if (this.partial.length > this.maxChars) {
            this.partial = '';
            this.skipping = true;
        }
    }
    emit(line) {
        this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
    }
}

;// CONCATENATED MODULE: ./.build/agent/liveness.js
// Linux reports CPU time in USER_HZ ticks, fixed at 100 per second for user space.
const TICK_MS = 10;
// The share of one CPU a group must use between two samples to count as working. A CLI
// waiting on a dead socket uses next to nothing (a stray GC or timer tick), a test suite or
// a compiler uses far more; so a few idle ticks never hold off the stall watchdog.
const BUSY_SHARE = 0.05;
/**
 * Tells whether an agent's processes used CPU since the last sample. Each process is compared
 * with itself, so processes that end or start between samples do not fake or hide work:
 * a new process counts with all the time it has used, an ended one's time shows up in its
 * parent's reaped-children counters once the parent waits for it.
 */
class CpuMeter {
    members;
    last = new Map();
    lastAt;
    constructor(members, now) {
        this.members = members;
        this.lastAt = now;
    }
    /** True when the group was busy since the previous call. */
    busy(now) {
        const members = this.members();
        if (!members)
            return false;
        let used = 0;
        const seen = new Map();
        for (const p of members) {
            used += Math.max(0, p.cpuTicks - (this.last.get(p.pid) ?? 0));
            seen.set(p.pid, p.cpuTicks);
        }
        const elapsed = Math.max(0, now - this.lastAt);
        this.last = seen;
        this.lastAt = now;
        return used > 0 && used * TICK_MS >= elapsed * BUSY_SHARE;
    }
}
/** The stall clock: silence since the agent's last output or busy CPU. */
class Liveness {
    cpu;
    stallTimeoutMs;
    lastActivity;
    constructor(cpu, stallTimeoutMs, now) {
        this.cpu = cpu;
        this.stallTimeoutMs = stallTimeoutMs;
        this.lastActivity = now;
    }
    get lastActivityAt() {
        return this.lastActivity;
    }
    output(now) {
        this.lastActivity = now;
    }
    /** Samples CPU; returns whether it was busy and whether the agent has now stalled. */
    check(now) {
        const cpuBusy = this.cpu.busy(now);
        if (cpuBusy)
            this.lastActivity = now;
        const stalled = this.stallTimeoutMs > 0 && now - this.lastActivity >= this.stallTimeoutMs;
        return { cpuBusy, stalled };
    }
}

;// CONCATENATED MODULE: ./.build/agent/log-file.js


/**
 * The agent's log: its stdout and stderr bytes, appended as they come, readable by us alone.
 * A full disk stops the logging, not the run.
 */
class LogFile {
    fd;
    /** Opens (creating its folder) or throws when the file cannot be opened. */
    constructor(path) {
        (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(path), { recursive: true });
        this.fd = (0,external_node_fs_.openSync)(path, 'a', 0o600);
    }
    write(chunk) {
        if (this.fd === undefined)
            return;
        try {
            for (let off = 0; off < chunk.length;)
                off += (0,external_node_fs_.writeSync)(this.fd, chunk, off);
        }
        catch {
            this.close();
        }
    }
    close() {
        if (this.fd === undefined)
            return;
        const fd = this.fd;
        this.fd = undefined;
        try {
            (0,external_node_fs_.closeSync)(fd);
        }
        catch {
            // Nothing more can be lost: every write has already returned.
        }
    }
}

;// CONCATENATED MODULE: ./.build/agent/process-set.js

function processGroup(pgid) {
    return {
        members: () => groupProcesses(pgid),
        alive: () => groupAlive(pgid),
        end: (graceMs) => endGroup(pgid, graceMs),
        killNow: () => signalGroup(pgid, 'SIGKILL')
    };
}
/** Agent runs this process started and has not yet seen end. */
const running = new Set();
/** Remembers a run's processes until the returned function is called. */
function track(set) {
    running.add(set);
    return () => running.delete(set);
}
/**
 * SIGKILL to every run this process started, synchronously: for a second Ctrl-C, when the
 * user will not wait for a graceful end and this process is about to exit.
 */
function killTracked() {
    for (const set of running)
        set.killNow();
}

;// CONCATENATED MODULE: ./.build/agent/run.js












const DEFAULT_KILL_GRACE_MS = 5000;
const DEFAULT_POLL_MS = 1000;
// setTimeout fires at once for delays past 2^31-1 ms; such a deadline means "none" anyway.
const MAX_TIMER_MS = 2 ** 31 - 1;
/**
 * Runs one agent to its end (DESIGN.md story step 3). The command runs without a shell as
 * the leader of its own process group, in the repository root, with a scrubbed environment
 * and the prompt on stdin (also written to the contract's prompt file). Its stdout and
 * stderr go to `logPath` only. A stall watchdog, a deadline and `signal` can end it: SIGTERM
 * to the whole group, then SIGKILL after the grace period. The promise settles only once no
 * process of the group is left, and never rejects: every failure is an outcome.
 */
async function runAgent(opts) {
    const startedAt = Date.now();
    const isRoot = process.getuid?.() === 0;
    const preset = presetFor(opts.argv, { maxTurns: opts.maxTurns, isRoot });
    const allowed = allowedNames(opts.declaredEnv ?? [], preset.name);
    const home = opts.sandbox?.home ?? opts.home ?? opts.parentEnv.HOME;
    const given = { ...parentIdentity(opts.parentEnv), allowed, home };
    const env = { ...agentEnvironment(opts.parentEnv, opts.contract, given), ...preset.env };
    Object.assign(env, derivedVariables(preset.name, env));
    if (opts.sandbox) {
        // The proxy holds the model key: the agent gets its placeholder, never the key itself.
        for (const name of opts.sandbox.env.unset)
            delete env[name];
        Object.assign(env, opts.sandbox.env.set);
    }
    const endedEarly = (cause) => ({
        ...classify({ cause, exitCode: null, signal: null, findings: { stats: {} } }),
        exitCode: null,
        signal: null,
        durationMs: Date.now() - startedAt,
        stats: {},
        logPath: opts.logPath,
        lastActivityAt: new Date(startedAt).toISOString(),
        preset: preset.name
    });
    if (opts.signal?.aborted)
        return endedEarly({ kind: 'cancelled', why: abortReason(opts.signal) });
    const command = preset.argv[0] ?? '';
    const profile = opts.contract.profile;
    const found = resolveCommand(command, opts.cwd, env.PATH, profile);
    if ('error' in found)
        return endedEarly({ kind: 'spawn_failed', error: found.error });
    const barred = opts.sandbox?.cannotRun(found.path);
    if (barred) {
        const error = `command "${command}" of profile "${profile}" is at ${found.path}, ${barred}`;
        return endedEarly({ kind: 'spawn_failed', error });
    }
    let log;
    try {
        // An isolated agent's prompt file was put in its home when the home was handed over.
        if (!opts.sandbox) {
            const promptFile = (0,external_node_path_.resolve)(opts.cwd, opts.contract.promptFile);
            (0,external_node_fs_.mkdirSync)((0,external_node_path_.dirname)(promptFile), { recursive: true });
            (0,external_node_fs_.writeFileSync)(promptFile, opts.prompt, { mode: 0o600 });
        }
        log = new LogFile(opts.logPath);
    }
    catch (e) {
        const error = `cannot prepare the agent run: ${e.message}`;
        return endedEarly({ kind: 'spawn_failed', error });
    }
    const start = opts.sandbox
        ? opts.sandbox.launch(found.path, preset.argv.slice(1), env, opts.cwd)
        : { file: found.path, args: preset.argv.slice(1), env, cwd: opts.cwd, argv0: command };
    const { file, args, ...how } = start;
    const child = (0,external_node_child_process_.spawn)(file, args, {
        ...how,
        detached: true, // setsid(): the agent leads a new process group, pgid = its pid
        stdio: ['pipe', 'pipe', 'pipe']
    });
    const exited = new Promise((done) => {
        child.once('exit', (code, signal) => done({ code, signal }));
        child.once('error', done);
    });
    if (child.pid === undefined) {
        const err = (await exited);
        log.close();
        const error = `cannot start command "${command}" of profile "${profile}": ${err.code ?? err.message}`;
        return endedEarly({ kind: 'spawn_failed', error });
    }
    try {
        opts.onStart?.({ pid: child.pid, argv: preset.argv });
    }
    catch {
        // The caller's bookkeeping must not leave a started agent unsupervised.
    }
    const processes = opts.sandbox?.processes ?? processGroup(child.pid);
    return supervise({ child, processes, exited, log, preset, startedAt }, opts);
}
async function supervise(run, opts) {
    const { child, processes, log, preset, startedAt } = run;
    const untrack = track(processes);
    const graceMs = opts.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const notify = (e) => {
        try {
            opts.onActivity?.(e);
        }
        catch {
            // How the adapter shows progress must never end or crash the run.
        }
    };
    const liveness = new Liveness(new CpuMeter(() => processes.members(), startedAt), opts.stallTimeoutMs, startedAt);
    const lines = new LineSplitter((line) => {
        const event = preset.parser.line(line);
        if (event)
            notify({ kind: 'event', text: event });
    });
    const stderrText = new external_node_string_decoder_.StringDecoder('utf8');
    const take = (chunk, fromStdout) => {
        log.write(chunk);
        liveness.output(Date.now());
        const text = fromStdout ? lines.push(chunk) : stderrText.write(chunk);
        if (text)
            notify({ kind: 'output', text });
    };
    child.stdout.on('data', (c) => take(c, true));
    child.stderr.on('data', (c) => take(c, false));
    // An agent that never reads its stdin (or exits early) breaks the pipe: that is fine.
    child.stdin.on('error', () => { });
    child.stdin.end(opts.prompt);
    let cause;
    let ending = Promise.resolve([]);
    let leaderExited = false;
    const endRun = (c) => {
        if (cause || leaderExited)
            return;
        cause = c;
        ending = processes.end(graceMs);
    };
    const poll = setInterval(() => {
        const now = Date.now();
        const { cpuBusy, stalled } = liveness.check(now);
        if (cpuBusy)
            notify({ kind: 'cpu' });
        if (stalled)
            endRun({ kind: 'stalled', silentMs: opts.stallTimeoutMs });
    }, Math.max(10, opts.pollMs ?? DEFAULT_POLL_MS));
    const deadline = opts.deadlineMs > 0
        ? setTimeout(() => endRun({ kind: 'timed_out', deadlineMs: opts.deadlineMs }), Math.min(opts.deadlineMs, MAX_TIMER_MS))
        : undefined;
    const onAbort = () => endRun({ kind: 'cancelled', why: abortReason(opts.signal) });
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    const exit = await run.exited;
    leaderExited = true;
    clearInterval(poll);
    clearTimeout(deadline);
    opts.signal?.removeEventListener('abort', onAbort);
    await ending;
    // Whatever the leader left running (a dev server, a test watcher) goes too.
    const survivors = await processes.end(graceMs);
    untrack();
    await drained([child.stdout, child.stderr], graceMs);
    lines.end();
    log.close();
    const findings = preset.parser.finish();
    const exitCode = exit instanceof Error ? null : exit.code;
    const signal = exit instanceof Error ? null : exit.signal;
    const verdict = classify({ cause, exitCode, signal, findings });
    const reason = survivors.length
        ? `${verdict.reason}; ${survivors.length} process(es) of the agent outlived SIGKILL`
        : verdict.reason;
    return {
        outcome: verdict.outcome,
        reason,
        exitCode,
        signal,
        durationMs: Date.now() - startedAt,
        stats: findings.stats,
        ...(verdict.outcome === 'input_required' && findings.needsInput
            ? { question: findings.needsInput.question }
            : {}),
        ...(findings.resultText !== undefined ? { resultText: findings.resultText } : {}),
        logPath: opts.logPath,
        lastActivityAt: new Date(liveness.lastActivityAt).toISOString(),
        preset: preset.name
    };
}
// The pipes close once every holder is gone; a process that left the group with setsid()
// could hold them open forever, so after a grace period they are closed from our side.
async function drained(streams, graceMs) {
    const open = streams.filter((s) => !s.closed);
    if (!open.length)
        return;
    let timer;
    await Promise.race([
        Promise.all(open.map((s) => new Promise((done) => s.once('close', done)))),
        new Promise((done) => (timer = setTimeout(done, graceMs)))
    ]);
    clearTimeout(timer);
    for (const s of open)
        s.destroy();
}
function abortReason(signal) {
    const why = signal?.reason;
    if (typeof why === 'string')
        return why;
    if (why instanceof Error && why.name !== 'AbortError')
        return why.message;
    return undefined;
}

;// CONCATENATED MODULE: ./.build/git/integrity.js



/**
 * Checks that the base commit and the trees a new commit is built from (the root and every
 * directory above a changed path) hash to their names; returns the root tree's. An agent running as our user can
 * overwrite loose objects or add packs, and git does not re-hash what it reads: a tree swapped
 * under its name would slip extra files into the commit we push. Trees the commit does not
 * touch are referenced by name only, and the remote already holds the real ones.
 */
async function verifyBaseTrees(repo, commitSha, paths) {
    const algo = formatOf(commitSha);
    const idLength = algo === 'sha256' ? 32 : 20;
    const commit = await readVerified(repo, 'commit', commitSha, algo);
    const root = /^tree ([0-9a-f]+)$/m.exec(commit.toString('utf8'))?.[1];
    if (!root)
        throw tampered(`commit ${commitSha} has no tree`);
    const wanted = new Set();
    for (const p of paths) {
        const parts = p.split('/');
        for (let i = 1; i < parts.length; i++)
            wanted.add(parts.slice(0, i).join('/'));
    }
    const queue = [['', root]];
    while (queue.length > 0) {
        const [dir, sha] = queue.shift();
        const tree = await readVerified(repo, 'tree', sha, algo, dir);
        for (const entry of treeEntries(tree, idLength)) {
            const full = dir ? `${dir}/${entry.name}` : entry.name;
            if (entry.mode === '40000' && wanted.has(full))
                queue.push([full, entry.id]);
        }
    }
    return root;
}
/**
 * The repository's hash, told by a full object name git gave: 40 hex digits with sha1, 64
 * with sha256. Known from any such name, so git is never asked.
 */
function formatOf(oid) {
    return oid.length === 64 ? 'sha256' : 'sha1';
}
/** The name git gives an object with this content. */
function objectId(type, body, algo) {
    return (0,external_node_crypto_.createHash)(algo).update(`${type} ${body.length}\0`).update(body).digest('hex');
}
async function readVerified(repo, type, sha, algo, dir) {
    const body = await sharedObjects(repo).readObject(sha, type);
    const actual = (0,external_node_crypto_.createHash)(algo).update(`${type} ${body.length}\0`).update(body).digest('hex');
    if (actual !== sha) {
        const what = dir === undefined ? `commit ${sha}` : `the tree of "${dir || '/'}" (${sha})`;
        throw tampered(`${what} does not match its contents`);
    }
    return body;
}
function* treeEntries(tree, idLength) {
    let at = 0;
    while (at < tree.length) {
        const space = tree.indexOf(0x20, at);
        const nul = tree.indexOf(0, space);
        if (space < 0 || nul < 0 || nul + 1 + idLength > tree.length)
            throw tampered('a malformed tree');
        yield {
            mode: tree.toString('latin1', at, space),
            name: tree.toString('utf8', space + 1, nul),
            id: tree.toString('hex', nul + 1, nul + 1 + idLength)
        };
        at = nul + 1 + idLength;
    }
}
function tampered(what) {
    return new GitDirTamperedError(`the git object store was altered while the agent ran (${what}); refusing to commit from it`);
}

// EXTERNAL MODULE: external "node:zlib"
var external_node_zlib_ = __webpack_require__(8522);
;// CONCATENATED MODULE: ./.build/git/loose-object.js







/**
 * Stores `content` as a blob the way `git hash-object -w` does, without starting a git: a loose
 * object, `<type> <size>\0<content>` deflated, at `.git/objects/<2 hex>/<rest>`, written to a
 * temporary file and renamed into place. One already there is replaced, not trusted: an agent
 * running as our user could have put other bytes under that name. Returns the blob's name.
 */
async function writeBlob(repo, content, algo) {
    const oid = objectId('blob', content, algo);
    const objects = external_node_path_.join(repo, '.git', 'objects');
    const dir = external_node_path_.join(objects, oid.slice(0, 2));
    const st = await lstatOrNull(dir);
    if (st && !st.isDirectory()) {
        throw new GitDirTamperedError(`${dir} is not a directory; refusing to write objects through it`);
    }
    if (!st)
        await (0,promises_.mkdir)(dir);
    const body = (0,external_node_zlib_.deflateSync)(Buffer.concat([Buffer.from(`blob ${content.length}\0`), content]));
    const tmp = external_node_path_.join(objects, `tmp_obj_${(0,external_node_crypto_.randomBytes)(8).toString('hex')}`);
    try {
        await (0,promises_.writeFile)(tmp, body, { flag: 'wx', mode: 0o444 });
        await (0,promises_.rename)(tmp, external_node_path_.join(dir, oid.slice(2)));
    }
    finally {
        await (0,promises_.rm)(tmp, { force: true });
    }
    return oid;
}

;// CONCATENATED MODULE: ./.build/git/commit.js













const BOT_IDENTITY = {
    name: 'github-actions[bot]',
    email: '41898282+github-actions[bot]@users.noreply.github.com'
};
/** Never committed, whatever the caller passes: the pipeline's own definition and git's. */
const ALWAYS_FORBIDDEN = [
    '.github/**',
    'WORKFLOW.md',
    '.itervox/agents/**',
    '.git/**',
    '.gitmodules'
];
/** GitHub refuses files over 100 MB. */
const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;
/**
 * Commits what the agent left in the worktree, compared with `baseSha` (so its own local commits
 * count only through the files they left), limited to the deliverables and the allow-list and
 * never touching a forbidden path. Built with plumbing on a private index: no hook, filter or
 * fsmonitor runs, and only bytes read here, from lstat-checked regular files, are stored.
 * The local branch then points at the commit and the index and worktree are reset to it.
 * Call it after `restoreGitDir`, so that the config it runs under is the one from before the agent.
 */
async function commitAllowed(o) {
    const repo = external_node_path_.resolve(o.repo);
    await validateBranchName(o.branch);
    // Beside the real index, so that it can replace it in one rename.
    const index = external_node_path_.join(repo, '.git', `index.handoff-${(0,external_node_crypto_.randomBytes)(6).toString('hex')}`);
    const files = o.workTree ? external_node_path_.resolve(o.workTree) : repo;
    const env = { GIT_INDEX_FILE: index };
    const baseSha = await sharedObjects(repo).resolve(`${o.baseSha}^{commit}`);
    if (!baseSha)
        throw new Error(`the base commit ${o.baseSha} is not in ${repo}`);
    const algo = formatOf(baseSha);
    try {
        if (files === repo) {
            await seedIndex(repo, o.baseSha, { GIT_INDEX_FILE: index });
        }
        else {
            // The repository's index knows nothing of the other tree's files, so git learns their
            // stat data here, hashing each once (filters only as the repository's own config says;
            // the agent never touched it).
            await git_git(repo, ['read-tree', o.baseSha], { env });
            env.GIT_WORK_TREE = files;
            await git_git(repo, ['update-index', '-q', '--refresh', '--ignore-submodules'], {
                env,
                okCodes: [1]
            });
        }
        const changed = await worktreeChanges(repo, files, env, algo);
        delete env.GIT_WORK_TREE;
        for (const p of o.deliverablePaths)
            if (!changed.has(p))
                changed.set(p, null);
        const { updates, dropped } = await decide(files, changed, o);
        const committed = updates.map((u) => u.path).sort();
        if (updates.length === 0)
            return { sha: null, committed, dropped };
        const baseTree = await verifyBaseTrees(repo, baseSha, committed);
        await git_git(repo, ['update-index', '--add', '-z', '--index-info'], {
            env,
            input: await indexInfo(repo, updates, algo)
        });
        const tree = (await git_git(repo, ['write-tree'], { env })).stdout.trim();
        if (tree === baseTree)
            return { sha: null, committed: [], dropped };
        const id = o.identity ?? BOT_IDENTITY;
        const commit = await git_git(repo, ['commit-tree', '--no-gpg-sign', tree, '-p', o.baseSha, '-F', '-'], {
            env: {
                GIT_AUTHOR_NAME: id.name,
                GIT_AUTHOR_EMAIL: id.email,
                GIT_COMMITTER_NAME: id.name,
                GIT_COMMITTER_EMAIL: id.email
            },
            input: formatMessage(o.message, o.trailers)
        });
        const sha = commit.stdout.trim();
        // Our index (the new tree) replaces whatever index the agent left, then the worktree
        // follows. An index made for another tree has the wrong stat data for this one: the
        // repository's own index serves its reset better.
        if (files === repo)
            await (0,promises_.rename)(index, external_node_path_.join(repo, '.git', 'index'));
        await resetBranchTo(repo, o.branch, sha);
        return { sha, committed, dropped };
    }
    finally {
        await (0,promises_.rm)(index, { force: true });
    }
}
/**
 * The private index starts as `baseSha`, borrowing stat data from the real index where the
 * content is the same, so that files nobody touched need not be read.
 */
async function seedIndex(repo, baseSha, env) {
    const real = external_node_path_.join(repo, '.git', 'index');
    const st = await lstatOrNull(real);
    let seeded = false;
    if (st?.isFile()) {
        await (0,promises_.copyFile)(real, env.GIT_INDEX_FILE, external_node_fs_.constants.COPYFILE_EXCL);
        // git trusts stat data only for files older than the index file itself.
        await (0,promises_.utimes)(env.GIT_INDEX_FILE, st.atime, st.mtime);
        seeded = (await git_git(repo, ['read-tree', '-m', baseSha], { env, okCodes: [128] })).code === 0;
    }
    if (!seeded) {
        await (0,promises_.rm)(env.GIT_INDEX_FILE, { force: true });
        await git_git(repo, ['read-tree', baseSha], { env });
    }
}
/**
 * Every path that differs between `baseSha` and the worktree, with its mode in `baseSha`
 * (null for a new path). A file git only suspects (its stat data is stale) is compared by its
 * raw bytes here, so no clean filter runs. New paths are those git does not ignore; ls-files
 * lists a symlinked directory as the link itself and never walks into it.
 */
async function worktreeChanges(repo, tree, env, algo) {
    const changed = new Map();
    // A submodule's own repository is the agent's to plant; it is never looked into.
    const diff = (await git_git(repo, ['diff-files', '-z', '--ignore-submodules=all'], { env })).stdout.split('\0');
    for (let i = 0; i + 1 < diff.length; i += 2) {
        // `:<base mode> <worktree mode> <base id> <worktree id> <status>`, then the path.
        const [baseMode = '', , baseId = '', , status] = (diff[i] ?? '').slice(1).split(' ');
        const p = diff[i + 1] ?? '';
        if (status === 'D' || !(await sameAsBase(tree, p, baseMode, baseId, algo))) {
            changed.set(p, baseMode);
        }
    }
    const others = await git_git(repo, ['ls-files', '-z', '--others', '--exclude-standard'], { env });
    for (const p of others.stdout.split('\0'))
        if (p)
            changed.set(p, null);
    return changed;
}
async function sameAsBase(tree, p, baseMode, baseId, algo) {
    const full = external_node_path_.join(tree, p);
    const st = await lstatOrNull(full);
    if (st?.isSymbolicLink() && baseMode === '120000') {
        return objectId('blob', await (0,promises_.readlink)(full, { encoding: 'buffer' }), algo) === baseId;
    }
    if (!st?.isFile() || fileMode(st.mode) !== baseMode)
        return false;
    return objectId('blob', await (0,promises_.readFile)(full), algo) === baseId;
}
const fileMode = (mode) => (mode & 0o111 ? '100755' : '100644');
async function decide(tree, changed, o) {
    const forbidden = picomatch([...ALWAYS_FORBIDDEN, ...o.forbiddenGlobs], { dot: true });
    const allowed = o.allowGlobs.length > 0 ? picomatch([...o.allowGlobs], { dot: true }) : () => false;
    const deliverables = new Set(o.deliverablePaths);
    const maxBytes = o.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    const updates = [];
    const dropped = [];
    const drop = (p, reason) => dropped.push({ path: p, reason });
    const screenedOut = (p, reason) => dropped.push({ path: p, reason, screened: true });
    for (const [p, baseMode] of [...changed].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        const why = pathProblem(p);
        if (why) {
            drop(p, why);
            continue;
        }
        if (forbidden(p)) {
            drop(p, 'forbidden path');
            continue;
        }
        if (isAgentConfig(p)) {
            if (o.givenConfig && (await asGiven(tree, p, o.givenConfig.get(p), maxBytes)))
                continue;
            if (!namedExplicitly(o.allowGlobs, p)) {
                drop(p, AGENT_CONFIG);
                continue;
            }
        }
        const globbed = allowed(p);
        if (!deliverables.has(p) && !globbed) {
            drop(p, 'not in the allow-list');
            continue;
        }
        if (baseMode === '160000') {
            drop(p, 'submodule');
            continue;
        }
        const found = await inspect(tree, p, maxBytes);
        if (found.kind === 'gone') {
            if (baseMode !== null)
                updates.push({ path: p, remove: true });
        }
        else if (found.kind === 'file') {
            const screened = o.screen ? o.screen(p, found.content, 'file') : { content: found.content };
            if ('refuse' in screened)
                screenedOut(p, screened.refuse);
            else
                updates.push({ path: p, mode: found.mode, content: screened.content });
        }
        else if (found.kind === 'symlink') {
            if (!globbed)
                drop(p, 'a symlink, not a regular file');
            else if (!found.inside)
                drop(p, 'symlink pointing outside the repository');
            else {
                const screened = o.screen ? o.screen(p, found.target, 'symlink') : { content: found.target };
                if ('refuse' in screened)
                    screenedOut(p, screened.refuse);
                else
                    updates.push({ path: p, mode: '120000', content: screened.content });
            }
        }
        else {
            drop(p, found.reason);
        }
    }
    return { updates: withoutConflicts(updates, changed, dropped), dropped };
}
const AGENT_CONFIG = 'agent configuration, which the next stage would obey; a commit_paths entry must name it (e.g. CLAUDE.md or .claude/**), a wildcard is not enough';
/** The path is in the tree exactly as the agent was given it (`entry`; undefined: absent). */
async function asGiven(tree, p, entry, maxBytes) {
    const found = await inspect(tree, p, maxBytes);
    if (!entry || found.kind === 'gone')
        return !entry && found.kind === 'gone';
    const algo = entry.oid.length === 64 ? 'sha256' : 'sha1';
    if (found.kind === 'file') {
        return found.mode === entry.mode && objectId('blob', found.content, algo) === entry.oid;
    }
    if (found.kind === 'symlink') {
        return entry.mode === '120000' && objectId('blob', found.target, algo) === entry.oid;
    }
    return false;
}
/** Paths git never lists, but a caller's deliverable path might be anything. */
function pathProblem(p) {
    const parts = p.split('/');
    if (parts.some((s) => s === '' || s === '.' || s === '..'))
        return 'not a plain relative path';
    if (parts.some((s) => s.toLowerCase() === '.git'))
        return 'inside a .git directory';
    return null;
}
/**
 * What is at `p`, looked at without following symlinks anywhere on the way. A path under a
 * symlinked directory, or replaced by a directory, is gone as far as the tree is concerned.
 */
async function inspect(repo, p, maxBytes) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
        const st = await lstatOrNull(external_node_path_.join(repo, ...parts.slice(0, i)));
        if (!st?.isDirectory())
            return { kind: 'gone' };
    }
    const full = external_node_path_.join(repo, ...parts);
    const st = await lstatOrNull(full);
    if (!st || st.isDirectory())
        return { kind: 'gone' };
    if (st.isSymbolicLink()) {
        const target = await (0,promises_.readlink)(full, { encoding: 'buffer' });
        const text = target.toString('utf8');
        const resolved = external_node_path_.posix.normalize(external_node_path_.posix.join(external_node_path_.posix.dirname(p), text));
        const inside = text !== '' &&
            !external_node_path_.posix.isAbsolute(text) &&
            resolved !== '..' &&
            !resolved.startsWith('../') &&
            !resolved.split('/').some((s) => s.toLowerCase() === '.git');
        return { kind: 'symlink', target, inside };
    }
    if (!st.isFile())
        return { kind: 'bad', reason: `not a regular file (${fileType(st.mode)})` };
    if (st.nlink !== 1)
        return { kind: 'bad', reason: 'a hard link' };
    if (st.size > maxBytes)
        return { kind: 'bad', reason: `larger than ${maxBytes} bytes` };
    const fh = await (0,promises_.open)(full, external_node_fs_.constants.O_RDONLY | external_node_fs_.constants.O_NOFOLLOW | external_node_fs_.constants.O_NONBLOCK);
    try {
        const now = await fh.stat();
        if (!now.isFile() || now.ino !== st.ino || now.nlink !== 1 || now.size > maxBytes) {
            return { kind: 'bad', reason: 'changed while being read' };
        }
        return {
            kind: 'file',
            mode: fileMode(now.mode),
            content: await fh.readFile()
        };
    }
    finally {
        await fh.close();
    }
}
function fileType(mode) {
    const t = mode & external_node_fs_.constants.S_IFMT;
    if (t === external_node_fs_.constants.S_IFIFO)
        return 'fifo';
    if (t === external_node_fs_.constants.S_IFSOCK)
        return 'socket';
    if (t === external_node_fs_.constants.S_IFCHR || t === external_node_fs_.constants.S_IFBLK)
        return 'device';
    return 'special file';
}
/**
 * A file and a directory cannot share a path. When the agent put files where a file it may
 * not change used to be (or the reverse), committing them would delete that file, so they
 * are dropped instead.
 */
function withoutConflicts(updates, changed, dropped) {
    const removing = new Set(updates.filter((u) => 'remove' in u).map((u) => u.path));
    const kept = [...changed].filter(([p, mode]) => mode !== null && !removing.has(p)).map(([p]) => p);
    if (kept.length === 0)
        return updates;
    return updates.filter((u) => {
        if ('remove' in u)
            return true;
        const blocker = kept.find((k) => u.path.startsWith(`${k}/`) || k.startsWith(`${u.path}/`));
        if (!blocker)
            return true;
        dropped.push({ path: u.path, reason: `would replace ${blocker}, which may not change` });
        return false;
    });
}
/** `update-index --index-info` lines: removals first, so a path can change from file to directory. */
async function indexInfo(repo, updates, algo) {
    const zero = '0'.repeat(algo === 'sha256' ? 64 : 40);
    const lines = [];
    for (const u of updates)
        if ('remove' in u)
            lines.push(`0 ${zero}\t${u.path}\0`);
    for (const u of updates) {
        if ('remove' in u)
            continue;
        lines.push(`${u.mode} ${await writeBlob(repo, u.content, algo)}\t${u.path}\0`);
    }
    return Buffer.from(lines.join(''), 'utf8');
}

;// CONCATENATED MODULE: ./.build/git/agent-config.js





/**
 * The agent configuration a commit holds, by path (gitlinks are never anyone's settings): its
 * trees walked through the stage's object reader, a level at a time.
 */
async function agentConfigAt(repo, commit) {
    const objects = sharedObjects(repo);
    const found = new Map();
    for (let level = ['']; level.length > 0;) {
        const listings = await Promise.all(level.map((dir) => objects.listTree(commit, dir)));
        const next = [];
        listings.forEach((listing, i) => {
            for (const e of listing.entries) {
                const p = level[i] ? `${level[i]}/${e.name}` : e.name;
                if (e.type === 'tree')
                    next.push(p);
                else if (e.type === 'blob' && isAgentConfig(p))
                    found.set(p, { mode: e.mode, oid: e.oid });
            }
        });
        level = next;
    }
    return found;
}
/**
 * Makes the agent configuration in `tree` what `commit` (in `repo`'s objects) has: every path
 * in `replacing` and in the commit's configuration is removed, then the commit's files are
 * written. Nothing is written through a symlink or into a folder that is not a real one.
 * Returns the paths that could not be written that way.
 */
async function putAgentConfig(o) {
    const wanted = await agentConfigAt(o.repo, o.commit);
    for (const p of new Set([...o.replacing, ...wanted.keys()])) {
        if (await realParents(o.tree, p)) {
            await (0,promises_.rm)(external_node_path_.join(o.tree, p), { recursive: true, force: true });
        }
    }
    const skipped = [];
    if (wanted.size === 0)
        return skipped;
    const blobs = await sharedObjects(o.repo).readBlobs([...wanted.values()].map((e) => e.oid));
    for (const [p, entry] of wanted) {
        const file = external_node_path_.join(o.tree, p);
        if (!(await makeParents(o.tree, p)) || (await lstatOrNull(file))) {
            skipped.push(p);
            continue;
        }
        const content = blobs.get(entry.oid);
        if (entry.mode === '120000')
            await (0,promises_.symlink)(content, file);
        else {
            await (0,promises_.writeFile)(file, content, { flag: 'wx' });
            if (entry.mode === '100755')
                await (0,promises_.chmod)(file, 0o755);
        }
    }
    return skipped;
}
/** Every folder on the way to `p` is a real folder in `tree` (none is a symlink or a file). */
async function realParents(tree, p) {
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
        const st = await lstatOrNull(external_node_path_.join(tree, ...parts.slice(0, i)));
        if (!st?.isDirectory())
            return false;
    }
    return true;
}
/** Makes the folders on the way to `p`; false when something else is in the way. */
function makeParents(tree, p) {
    const parent = external_node_path_.posix.dirname(p);
    return parent === '.' ? Promise.resolve(true) : makeFolders(tree, parent);
}
/** Makes `rel` and the folders on its way without following a symlink; false if one is there. */
async function makeFolders(tree, rel) {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
        const dir = external_node_path_.join(tree, ...parts.slice(0, i));
        const st = await lstatOrNull(dir);
        if (!st)
            await (0,promises_.mkdir)(dir);
        else if (!st.isDirectory())
            return false;
    }
    return true;
}

;// CONCATENATED MODULE: ./.build/secrets/commit-screen.js


/**
 * How a stage's commit treats a secret: the deliverable (or its partial) is Markdown for people
 * and the next stages, so the secret is redacted in place and the work survives; any other
 * file is refused whole, since an edited source file or fixture would no longer be what the
 * agent wrote. A symlink whose target, or a path whose name, holds one is refused. Each
 * finding is added to `withheld` as one line naming the file and the kind, never the value.
 */
function commitScreen(scanner, deliverables, withheld) {
    return (path, content, kind) => {
        const inPath = scanner.find(path);
        if (inPath.length > 0) {
            withheld.push(`a file was not committed: its path holds ${inWords(inPath)}`);
            return { refuse: `its path holds ${inWords(inPath)}` };
        }
        const text = content.toString('utf8');
        const found = scanner.redact(text);
        if (found.kinds.length === 0)
            return { content };
        const what = inWords(found.kinds);
        if (kind === 'file' && deliverables.includes(path)) {
            withheld.push(`${path}: ${what} redacted`);
            return { content: external_node_buffer_.Buffer.from(found.text, 'utf8') };
        }
        withheld.push(`${path}: not committed, it holds ${what}`);
        return { refuse: `it holds ${what}` };
    };
}

;// CONCATENATED MODULE: ./.build/pipeline/agent-workspace.js


/**
 * The tree as the agent finds it: its CLI's configuration (`.claude/`, `CLAUDE.md`, ...) as
 * the trusted commit has it, not as the issue branch does (an earlier agent or a push could
 * have put settings there that send the key elsewhere or run hooks), and the handoff folder
 * ready for its deliverable. Returns warnings.
 */
async function prepareAgentTree(o) {
    const onBranch = await agentConfigAt(o.repo, o.baseSha);
    const skipped = await putAgentConfig({
        repo: o.repo,
        tree: o.tree,
        commit: o.trustedCommit,
        replacing: onBranch.keys()
    });
    const warnings = skipped.map((p) => `${p} was not given to the agent: a symlink or a file is in its way on the branch`);
    if (!(await makeFolders(o.tree, HANDOFF_DIR))) {
        warnings.push(`${HANDOFF_DIR} could not be made: a symlink or a file is in its way`);
    }
    return warnings;
}
/**
 * After a stage that ran in the action's own tree (isolation: none): the agent configuration
 * goes back to what the branch's head has, and what the agent left there that was refused
 * goes, so the next stage starts from the branch.
 */
async function restoreBranchConfig(o) {
    const given = await agentConfigAt(o.repo, o.trustedCommit);
    await putAgentConfig({
        repo: o.repo,
        tree: o.repo,
        commit: o.head,
        replacing: [...given.keys(), ...o.refused]
    });
}

;// CONCATENATED MODULE: ./.build/pipeline/tracker-files.js



// The local tracker's issue files and run records: the tracker's, never a stage's. They sit
// uncommitted in the user's checkout while a local stage runs, so every stage finds them.
const TRACKER_DIRS = ['.itervox/issues', '.itervox/runs'];
/** Each regular file under the tracker's folders, by repo-relative path, to its content's hash. */
function snapshotTrackerFiles(repo) {
    const out = {};
    const walk = (rel) => {
        let names;
        try {
            names = (0,external_node_fs_.readdirSync)((0,external_node_path_.join)(repo, rel));
        }
        catch {
            return;
        }
        for (const name of names) {
            const path = `${rel}/${name}`;
            const hash = fileHash(repo, path);
            if (hash === 'dir')
                walk(path);
            else if (hash)
                out[path] = hash;
        }
    };
    for (const dir of TRACKER_DIRS)
        walk(dir);
    return out;
}
/**
 * The commit's refusals without the tracker's files the agent left as they were before the
 * stage: being refused is no news about them. Any it added, changed or removed still count.
 */
function withoutUntouchedTrackerFiles(repo, before, dropped) {
    return dropped.filter((d) => !TRACKER_DIRS.some((dir) => d.path.startsWith(`${dir}/`)) ||
        before[d.path] === undefined ||
        fileHash(repo, d.path) !== before[d.path]);
}
function fileHash(repo, path) {
    try {
        const st = (0,external_node_fs_.lstatSync)((0,external_node_path_.join)(repo, path));
        if (st.isDirectory())
            return 'dir';
        if (!st.isFile())
            return null;
        return (0,external_node_crypto_.createHash)('sha256')
            .update((0,external_node_fs_.readFileSync)((0,external_node_path_.join)(repo, path)))
            .digest('hex');
    }
    catch {
        return null;
    }
}

;// CONCATENATED MODULE: ./.build/prompt/bindings.js
/**
 * Snake-case bindings as itervox templates expect them. Optional fields are present and null,
 * so `{% if issue.url %}` works and printing one gives an empty string rather than an error.
 */
function templateBindings(input) {
    const { issue } = input;
    return {
        issue: {
            id: issue.id,
            identifier: issue.identifier,
            title: issue.title,
            description: issue.description,
            state: issue.state,
            labels: issue.labels,
            url: issue.url || null,
            branch_name: issue.branchName ?? null,
            created_at: issue.createdAt ?? null,
            updated_at: issue.updatedAt ?? null,
            comments: (issue.comments ?? []).map((c) => ({
                body: c.body,
                author_name: c.author,
                created_at: c.createdAt
            }))
        },
        attempt: input.attempt,
        run: { timestamp: input.run.timestamp, handoff_path: input.run.handoffPath },
        trigger: {
            type: input.trigger.type,
            state: input.trigger.state,
            automation: input.trigger.automation
        },
        profile: input.profile
    };
}

;// CONCATENATED MODULE: ./.build/prompt/template.js


// A prompt template renders in milliseconds to some KiB. These bounds stop a hostile or
// mistaken one (`{% for i in (1..100000000) %}`, an append that doubles a string in a loop)
// long before it uses up the runner: liquidjs charges every range, array and string it builds
// against memoryLimit, and checks the clock between the tags it renders. Each is per call.
const PARSE_LIMIT_CHARS = 1_000_000;
const RENDER_LIMIT_MS = 2000;
const MEMORY_LIMIT = 10_000_000;
// Output is not charged, and a loop can repeat one long string cheaply: its length is checked.
const OUTPUT_LIMIT_CHARS = 16_000_000;
const TOO_LONG = `renders to more than ${millions(OUTPUT_LIMIT_CHARS)} characters; loop over less`;
// liquidjs's limit messages, and V8's when a string outgrows what it can hold, said plainly.
const LIMITS = {
    'parse length limit exceeded': `is longer than ${millions(PARSE_LIMIT_CHARS)} characters; shorten it`,
    'template render limit exceeded': `takes more than ${RENDER_LIMIT_MS / 1000} s to render; loop over less`,
    'memory alloc limit exceeded': `builds more than ${millions(MEMORY_LIMIT)} values or characters; use smaller ranges and shorter strings`,
    'Invalid string length': TOO_LONG
};
let engine;
/**
 * The Liquid engine, loaded and set up when a template is first rendered: a job that renders
 * none (a skipped event, the post step) never loads liquidjs.
 */
function liquid() {
    engine ??= __webpack_require__.e(/* import() */ 694).then(__webpack_require__.t.bind(__webpack_require__, 8694, 19)).then(({ Liquid }) => {
        const made = new Liquid({
            strictVariables: true,
            strictFilters: true,
            // `{% if issue.priority %}` and `| default:` are how templates guard optional fields.
            lenientIf: true,
            ownPropertyOnly: true,
            parseLimit: PARSE_LIMIT_CHARS,
            renderLimit: RENDER_LIMIT_MS,
            memoryLimit: MEMORY_LIMIT
        });
        // Templates come from WORKFLOW.md and profile files on the default branch; still, a
        // template must never reach the file system, so the tags that would read one are errors.
        for (const tag of ['include', 'render', 'layout']) {
            made.registerTag(tag, {
                parse() {
                    throw new Error(`{% ${tag} %} is not supported: templates cannot include files`);
                },
                render() { }
            });
        }
        return made;
    });
    return engine;
}
/** A template's mistake; `variable` names the undefined variable it uses, if that is it. */
class TemplateError extends errors/* UserError */.yo {
    variable;
    constructor(message, location, variable) {
        super(message, location);
        this.variable = variable;
    }
}
/** Renders strictly: an undefined variable or filter is a user error at the template's line. */
async function renderTemplate(src, bindings) {
    const engine = await liquid();
    let out;
    try {
        out = await engine.parseAndRender(src.text, bindings);
    }
    catch (err) {
        throw templateError(src, err, bindings);
    }
    if (out.length > OUTPUT_LIMIT_CHARS) {
        throw new errors/* UserError */.yo(`${src.what}: ${TOO_LONG}`, { file: src.file, line: src.line });
    }
    return out;
}
function templateError(src, err, bindings) {
    const pos = err.token?.getPosition?.();
    // liquidjs appends ", line:L, col:C" (and sometimes a source excerpt) to its messages.
    const reason = (err.message.split('\n')[0] ?? '').replace(/, line:\d+, col:\d+$/, '');
    const line = pos ? src.line + pos[0] - 1 : src.line;
    const col = pos ? pos[1] : undefined;
    const variable = /^undefined variable: (.+)$/.exec(reason)?.[1];
    const message = Object.hasOwn(LIMITS, reason)
        ? LIMITS[reason]
        : `${reason}; ${hint(reason, variable, bindings)}`;
    return new TemplateError(`${src.what}: ${message}`, { file: src.file, line, col }, variable);
}
function hint(reason, variable, bindings) {
    if (variable !== undefined) {
        const near = closest(variable, bindingNames(bindings));
        const guess = near === undefined ? '' : `did you mean ${near}? Otherwise `;
        return `${guess}use one of issue.*, attempt, run.timestamp, run.handoff_path, trigger.*, profile, or guard it with {% if %} or | default: "..."`;
    }
    if (reason.startsWith('undefined filter'))
        return 'use a standard Liquid filter';
    if (reason.includes('cannot include files'))
        return 'put the text in the template itself';
    return 'fix the Liquid syntax';
}
/** `issue.title`, `run.handoff_path`, `profile`, ...: each binding and each field of one. */
function bindingNames(bindings) {
    return Object.entries(bindings).flatMap(([name, value]) => value && typeof value === 'object' && !Array.isArray(value)
        ? Object.keys(value).map((field) => `${name}.${field}`)
        : [name]);
}
function millions(n) {
    return n % 1_000_000 === 0 ? `${n / 1_000_000} million` : String(n);
}

;// CONCATENATED MODULE: ./.build/prompt/stage-prompt.js






// itervox renders this when WORKFLOW.md has no body.
const EMPTY_BODY = 'You are working on an issue.';
/**
 * The prompt in itervox's order: rendered body, Prior Agent Handoffs, Run Context, SOUL.md,
 * INSTRUCTIONS.md, the automation's instructions; blocks joined by a blank line.
 */
async function buildStagePrompt(input) {
    const { config, profile, automation } = input;
    const path = handoffPath(input.timestamp, profile.name);
    const templates = [
        config.body,
        profile.soulText,
        profile.instructionsText,
        automation?.instructions ?? ''
    ];
    const { issue, warning } = cleanIssue(input.issue, templateTitles(templates));
    const bindings = templateBindings({
        issue,
        attempt: input.attempt,
        run: { timestamp: input.timestamp, handoffPath: path },
        trigger: {
            type: 'issue_entered_state',
            state: issue.state,
            automation: automation?.id ?? null
        },
        profile: profile.name
    });
    const body = config.body
        ? await renderTemplate({ text: config.body, file: config.file, line: config.bodyLine, what: 'prompt template' }, bindings)
        : EMPTY_BODY;
    const soul = await renderTemplate({ text: profile.soulText, file: profile.soulFile, line: 1, what: 'SOUL.md' }, bindings);
    const instructions = await renderTemplate({
        text: profile.instructionsText,
        file: profile.instructionsFile,
        line: 1,
        what: 'INSTRUCTIONS.md'
    }, bindings);
    const overlay = automation?.instructions
        ? await renderTemplate({
            text: automation.instructions,
            file: config.file,
            line: automation.instructionsLine ?? 1,
            what: `automation ${automation.id} instructions`
        }, bindings)
        : '';
    const blocks = [
        body,
        input.handoffBlock,
        renderRunContext(input.timestamp, path),
        soul,
        instructions,
        overlay,
        ...(input.sections ?? [])
    ];
    const warnings = warning ? [`the issue's text: ${warning}`] : [];
    return { prompt: blocks.filter((b) => b.trim() !== '').join('\n\n'), handoffPath: path, warnings };
}
// The headings the templates write are the prompt's structure as much as the pipeline's own:
// an issue must not forge `## Handoff Protocol` either. Liquid in a heading is left out, so
// `## Issue {{ issue.identifier }}` guards every heading that starts with "Issue".
function templateTitles(templates) {
    return templates
        .flatMap((t) => headingTitles(t))
        .map((title) => title.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, ' ').trim())
        .filter((title) => title !== '');
}
/**
 * The issue as the templates may print it: what a person does not see removed, and every line
 * that would read as one of the prompt's headings or markers escaped. Each field is one value
 * a template prints, so its first and last lines count as a heading's title too.
 */
function cleanIssue(issue, titles) {
    const counts = (0,sanitize/* emptyCounts */.W1)();
    let forged = 0;
    const clean = (text) => {
        const r = (0,sanitize/* sanitizeUntrusted */._2)(text);
        (0,sanitize/* addCounts */.c5)(counts, r.counts);
        const n = neutralizeForgedLines(r.text, { value: true, titles });
        forged += n.count;
        return n.text;
    };
    const optional = (text) => text === undefined ? undefined : clean(text);
    const cleaned = {
        ...issue,
        id: clean(issue.id),
        identifier: clean(issue.identifier),
        title: clean(issue.title),
        description: clean(issue.description),
        labels: issue.labels.map(clean),
        url: clean(issue.url),
        branchName: optional(issue.branchName),
        createdAt: optional(issue.createdAt),
        updatedAt: optional(issue.updatedAt),
        comments: issue.comments?.map((c) => ({
            author: clean(c.author),
            body: clean(c.body),
            createdAt: clean(c.createdAt)
        }))
    };
    const parts = [(0,sanitize/* describeSanitizeCounts */.jw)(counts)];
    if (forged > 0) {
        parts.push(`escaped ${forged} line${forged === 1 ? '' : 's'} imitating the prompt's headings`);
    }
    return { issue: cleaned, warning: parts.filter((p) => p !== '').join('; ') };
}

;// CONCATENATED MODULE: ./.build/pipeline/stage-prompt.js



/**
 * The stage's prompt from the handoffs committed at `commit` (never from the worktree) that
 * were not committed at `since`, where the branch left its base branch.
 */
async function promptForStage(o) {
    const ownPath = handoffPath(o.timestamp, o.profile.name);
    let block = { text: '', included: [], dropped: 0, bytes: 0, warnings: [] };
    let truncatedFile;
    if (o.commit) {
        const built = await buildHandoffBlock(sharedObjects(o.repo), { head: o.commit, since: o.since }, { ...o.config.handoff, ownPath });
        block = built;
        truncatedFile = built.truncatedFile;
    }
    const stage = await buildStagePrompt({
        config: o.config,
        profile: o.profile,
        automation: o.automation,
        issue: o.issue,
        attempt: o.attempt,
        timestamp: o.timestamp,
        handoffBlock: block.text,
        sections: o.sections
    });
    return {
        prompt: stage.prompt,
        handoffPath: stage.handoffPath,
        figures: {
            bytes: Buffer.byteLength(stage.prompt),
            included: block.included,
            dropped: block.dropped,
            blockBytes: block.bytes,
            truncatedFile
        },
        warnings: [...block.warnings, ...stage.warnings]
    };
}

;// CONCATENATED MODULE: ./.build/pipeline/stage.js



















/** Where an isolated agent's prompt file is, in its HOME. */
const PROMPT_IN_HOME = '.itervox/prompt.md';
function contextPathOf(workDir) {
    return (0,external_node_path_.join)(workDir, 'stage.json');
}
/** Prepare the prompt, run the agent, then finalise: the middle of DESIGN.md's story. */
async function runStage(input) {
    const prepared = await promptForStage({
        repo: input.repo,
        commit: input.baseSha,
        since: input.forkSha,
        config: input.config,
        profile: input.profile,
        automation: input.automation,
        issue: input.issue,
        attempt: input.attempt,
        timestamp: input.timestamp,
        sections: input.sections
    });
    if (input.dryRun) {
        return { dryRun: true, ...prepared };
    }
    (0,external_node_fs_.mkdirSync)(input.workDir, { recursive: true, mode: 0o700 });
    const contextPath = contextPathOf(input.workDir);
    const ctx = {
        repo: input.repo,
        branch: input.branch,
        baseSha: input.baseSha,
        trustedCommit: input.trustedCommit,
        created: input.created,
        issue: input.issue.id,
        profile: input.profile.name,
        runId: input.runId,
        timestamp: input.timestamp,
        handoffPath: prepared.handoffPath,
        requiredSections: input.profile.requiredSections,
        maxFileBytes: input.config.handoff.maxFileBytes,
        commitPaths: input.profile.commitPaths,
        secretNames: input.profile.env,
        workflowPath: input.workflowPath,
        startedAt: new Date().toISOString(),
        key: input.key,
        phase: 'agent'
    };
    // Isolation first: a runner that cannot isolate (no sudo) stops before a model proxy
    // listens, which nothing would close and which would keep the step alive.
    const isolated = input.isolate
        ? await openIsolated(await input.isolate(), input, prepared.prompt)
        : undefined;
    const treeWarnings = isolated?.warnings ?? [];
    if (isolated)
        ctx.sandbox = isolated.handedOver;
    else {
        ctx.snapshot = await snapshotGitDir(input.repo);
        ctx.trackerFiles = snapshotTrackerFiles(input.repo);
        treeWarnings.push(...(await prepareAgentTree({ ...input, tree: input.repo })));
    }
    saveStageContext(contextPath, ctx);
    let end;
    try {
        const agent = await runAgent({
            argv: input.profile.argv,
            cwd: isolated?.handedOver.tree ?? input.repo,
            ...(isolated ? { sandbox: isolated.sandbox } : {}),
            prompt: prepared.prompt,
            contract: {
                handoffPath: prepared.handoffPath,
                runTimestamp: input.timestamp,
                profile: input.profile.name,
                issue: input.issue.identifier,
                promptFile: isolated
                    ? (0,external_node_path_.join)(isolated.sandbox.home, PROMPT_IN_HOME)
                    : (0,external_node_path_.join)(input.workDir, 'prompt.md')
            },
            parentEnv: input.parentEnv,
            declaredEnv: input.profile.env,
            logPath: (0,external_node_path_.join)(input.workDir, 'agent.log'),
            stallTimeoutMs: input.config.agent.stallTimeoutMs,
            deadlineMs: input.config.agent.turnTimeoutMs,
            maxTurns: input.config.agent.maxTurns,
            signal: input.signal,
            killGraceMs: input.killGraceMs,
            onActivity: input.onActivity,
            onStart: ({ pid }) => saveStageContext(contextPath, { ...ctx, agentPgid: pid })
        });
        end = { outcome: agent.outcome, reason: agent.reason, agent };
    }
    catch (err) {
        end = { outcome: 'failed', reason: `the agent could not run: ${err.message}` };
    }
    if (isolated) {
        ctx.tree = await isolated.close(input.killGraceMs ?? 5000);
        saveStageContext(contextPath, ctx);
    }
    const finalised = await finaliseStage(ctx, end, input.secrets);
    saveStageContext(contextPath, {
        ...ctx,
        phase: 'committed',
        committed: {
            sha: finalised.commit.sha,
            outcome: finalised.outcome,
            reason: finalised.reason,
            handoffPath: finalised.handoffPath
        }
    });
    return {
        dryRun: false,
        prompt: prepared.prompt,
        figures: prepared.figures,
        contextPath,
        ...finalised,
        warnings: [...prepared.warnings, ...treeWarnings, ...finalised.warnings]
    };
}
/**
 * For isolation: user, the agent user with its own clone and HOME (the prompt file and the
 * CLI's settings in it) and the model proxy in front of its key. `close` ends every process of
 * the agent user, takes its tree back, then stops the proxy.
 */
async function openIsolated(isolation, input, prompt) {
    // The action keeps its own copy of what the agent was given; the agent's goes with it.
    (0,external_node_fs_.writeFileSync)((0,external_node_path_.join)(input.workDir, 'prompt.md'), prompt, { mode: 0o600 });
    const preset = presetFor(input.profile.argv, { maxTurns: 0, isRoot: false }).name;
    const found = await setUpModelAccess(preset, input.parentEnv);
    const access = found && !('missing' in found) ? found : undefined;
    const warnings = found && 'missing' in found
        ? [`profile ${input.profile.name}: ${found.missing}, so its agent has no model key`]
        : [];
    const open = await openSandbox(isolation, {
        repo: input.repo,
        branch: input.branch,
        workDir: input.workDir,
        prepareTree: async (tree) => {
            warnings.push(...(await prepareAgentTree({ ...input, tree })));
        },
        homeFiles: [{ path: PROMPT_IN_HOME, content: prompt }, ...(access?.files ?? [])],
        model: { set: access?.env ?? {}, unset: access?.hidden ?? [] }
    }).catch(async (err) => {
        await access?.proxy.close();
        throw err;
    });
    return {
        ...open,
        warnings,
        close: async (graceMs) => {
            const tree = await open.close(graceMs);
            await access?.proxy.close();
            return tree;
        }
    };
}
/**
 * After the agent (and every process of its group) is gone: put `.git` back, check the
 * deliverable, turn a failed run's file into its partial, and commit what the profile may
 * write. Runs in the main step, or in the `post:` step when the main step was cancelled.
 */
async function finaliseStage(ctx, end, secrets) {
    const warnings = [];
    const withheld = [];
    const gitDir = ctx.snapshot ? await restoreGitDir(ctx.snapshot) : null;
    // An isolated agent's files are read from its tree, taken back once it was gone; one that
    // left no tree (it moved its own away) leaves only what the stage writes for it.
    const files = ctx.sandbox ? (ctx.tree ?? (await emptyTree(ctx))) : ctx.repo;
    let { outcome } = end;
    // The reason may quote the agent (its last error line); it goes into the commit message.
    let reason = secrets.redact(end.reason).text;
    let path = ctx.handoffPath;
    if (outcome === 'succeeded') {
        const check = await checkDeliverable(files, ctx.handoffPath, {
            maxBytes: ctx.maxFileBytes,
            requiredSections: ctx.requiredSections
        });
        if (!check.ok) {
            outcome = 'failed';
            reason = `the deliverable is not acceptable: ${check.problem}`;
        }
    }
    if (isUnfinished(outcome)) {
        const partial = await markPartial(files, ctx.handoffPath, { profile: ctx.profile, outcome, detail: reason, at: new Date() }, { maxBytes: ctx.maxFileBytes });
        warnings.push(...partial.warnings);
        path = partial.path;
    }
    else if (outcome === 'input_required') {
        // The paused agent's file stays as it is, to be extended on resume; kept only if sound.
        const check = await checkDeliverable(files, ctx.handoffPath, { maxBytes: ctx.maxFileBytes });
        if (!check.ok)
            path = null;
    }
    const own = ctx.handoffPath.slice(HANDOFF_DIR.length + 1).replace(/\.md$/, '');
    const givenConfig = ctx.trustedCommit
        ? await agentConfigAt(ctx.repo, ctx.trustedCommit)
        : undefined;
    const committed = await commitAllowed({
        repo: ctx.repo,
        ...(files !== ctx.repo ? { workTree: files } : {}),
        branch: ctx.branch,
        baseSha: ctx.baseSha,
        deliverablePaths: path ? [path] : [],
        // Without its tree, nothing the agent had may be taken for deleted.
        allowGlobs: ctx.sandbox && !ctx.tree ? [] : ctx.commitPaths,
        // Earlier handoffs are immutable: every other file in the handoff folder is refused.
        forbiddenGlobs: [
            `${HANDOFF_DIR}/!(${own}.md|${own}.partial.md)`,
            `${HANDOFF_DIR}/*/**`,
            ...TRACKER_DIRS.map((dir) => `${dir}/**`),
            ctx.workflowPath
        ],
        ...(givenConfig ? { givenConfig } : {}),
        screen: commitScreen(secrets, path ? [path] : [], withheld),
        message: `itervox(${ctx.profile}): ${outcome} stage for ${ctx.issue}`,
        trailers: stageTrailers({
            profile: ctx.profile,
            run: ctx.runId,
            outcome,
            key: ctx.key,
            handoff: path ?? undefined,
            reason
        })
    });
    const commit = ctx.trackerFiles
        ? {
            ...committed,
            dropped: withoutUntouchedTrackerFiles(ctx.repo, ctx.trackerFiles, committed.dropped)
        }
        : committed;
    if (!ctx.sandbox && ctx.trustedCommit) {
        await restoreBranchConfig({
            repo: ctx.repo,
            head: commit.sha ?? ctx.baseSha,
            trustedCommit: ctx.trustedCommit,
            refused: commit.dropped.map((d) => d.path).filter(isAgentConfig)
        });
    }
    const committedPath = path && commit.committed.includes(path) ? path : null;
    const refused = commit.dropped.find((d) => d.path === path);
    if (refused)
        warnings.push(`${path} was not committed: ${refused.reason}`);
    return {
        outcome,
        reason,
        agent: end.agent,
        handoffPath: committedPath,
        commit,
        gitDir,
        withheld,
        warnings
    };
}
/** A stand-in for a tree the agent did not leave: empty, so only the partial is in it. */
async function emptyTree(ctx) {
    const dir = (0,external_node_path_.join)((0,external_node_path_.dirname)(ctx.sandbox?.returnTo ?? ctx.repo), 'no-agent-tree');
    await (0,promises_.rm)(dir, { recursive: true, force: true });
    await (0,promises_.mkdir)(dir, { recursive: true, mode: 0o700 });
    return dir;
}

;// CONCATENATED MODULE: ./.build/pipeline/job.js





















// How the record says a decision's effects failed (and are owed).
const HALTED = 'the next step (';
// Shown on the issue when a deliverable could not be pushed anywhere; the summary has it all.
const UNSAVED_IN_COMMENT = 3000;
/**
 * The one job loop, for every tracker and adapter: trigger → decide → plan → branch → stage →
 * settle → the decision's effects → the record. The record of intent is written before any
 * effect, and every run first finishes what the last one left owed, so no failure after the
 * agent leaves the pipeline stopped without saying so. When the agent's command cannot be run,
 * the stage does not start: the job says so on the issue and throws CommandUnavailableError.
 */
async function runJob(input) {
    const started = Date.now();
    const withheld = [];
    const j = {
        ...input,
        tracker: guardedTracker(input.tracker, input.secrets, (line) => withheld.push(line))
    };
    const t = j.trigger;
    const result = (r) => ({
        refused: [],
        warnings: [],
        finishedOwed: 0,
        durationMs: Date.now() - started,
        ...r,
        withheld: [...withheld]
    });
    const authorization = await j.tracker.authorize(t);
    if (!authorization.allowed)
        return result({ outcome: 'denied', reason: authorization.reason });
    let issue = await j.tracker.getIssue(t.issue);
    let record = (await j.tracker.loadRecord(issue)) ?? emptyRecord();
    const owed = await finishOwed(j, issue, record);
    issue = owed.issue;
    record = owed.record;
    const finishedOwed = owed.performed;
    const quietEnd = async (outcome, reason) => {
        if (owed.changed)
            await j.tracker.saveRecord(issue, record);
        const done = finishedOwed ? `; finished ${finishedOwed} step(s) an earlier run owed` : '';
        return result({
            outcome,
            reason: reason + done,
            issue,
            state: issue.state ?? undefined,
            finishedOwed,
            stateAfter: issue.state
        });
    };
    const decision = decideStage(j.config, t, issue);
    if ('skip' in decision)
        return quietEnd('skipped', decision.skip);
    const { state, automation } = decision;
    const plan = planStage({
        config: j.config,
        record,
        state,
        automation,
        trigger: {
            source: t.source,
            actorIsBot: isBot(t.actor.login, t.actor.type),
            ...(t.wake ? { wake: t.wake } : {}),
            ...(t.reply ? { reply: t.reply } : {})
        },
        runId: j.run.id,
        chain: j.tracker.wakes
    });
    if ('skip' in plan)
        return quietEnd('skipped', plan.skip);
    const where = await j.tracker.branchFor(issue);
    if ('deny' in where)
        return quietEnd('denied', where.deny);
    const prepared = await j.workspace.prepare(where.branch);
    const key = {
        issue: issue.id,
        state,
        entry: plan.entry,
        kind: plan.kind,
        profile: plan.profile,
        attempt: plan.attempt,
        round: plan.round,
        resume: plan.resume
    };
    const landed = await j.workspace.findLanded(prepared, key);
    const profile = j.config.agent.profiles[plan.profile];
    // A stand-in stage (the loop's tests) runs no command.
    if (!landed && !j.dryRun && !j.stage) {
        const unavailable = await checkCommand(j, profile, prepared.repo);
        if (unavailable) {
            // Nothing of the stage happened: no commit, no move, no retry counted. The issue says why.
            if (owed.changed)
                await j.tracker.saveRecord(issue, record);
            await noticeCannotStart(j, issue, { state, profile: plan.profile }, unavailable.format());
            throw unavailable;
        }
    }
    j.onStart?.({ issue, state, plan, branch: prepared.branch, recovered: landed !== null });
    const startedAt = new Date();
    const timestamp = plan.timestamp ?? runTimestamp(startedAt);
    const run = `${j.run.id}/${j.run.attempt}`;
    const common = {
        issue,
        state,
        plan,
        branch: prepared.branch,
        finishedOwed
    };
    let stage;
    let contextPath;
    let published = null;
    let figures;
    if (landed) {
        j.log?.(`${prepared.branch} already holds this stage's commit ${landed.sha.slice(0, 12)}; not running the agent again`);
        stage = recoveredStage(landed);
        published = { commit: landed.sha };
    }
    else {
        const staged = await j.workspace.around(prepared, () => (j.stage ?? runStage)({
            key,
            config: j.config,
            profile,
            automation,
            issue,
            attempt: plan.attempt > 0 ? plan.attempt : null,
            repo: prepared.repo,
            branch: prepared.branch,
            baseSha: prepared.baseSha,
            forkSha: prepared.forkSha,
            trustedCommit: j.trustedCommit,
            created: prepared.created,
            runId: run,
            timestamp,
            workflowPath: j.workflowPath,
            workDir: j.workDir,
            parentEnv: j.parentEnv,
            secrets: j.secrets,
            ...(j.isolate ? { isolate: j.isolate } : {}),
            sections: pipelineSections(plan, profile.allowedActions, moveScope(j.config, state, profile)),
            ...(j.signal ? { signal: j.signal } : {}),
            ...(j.killGraceMs !== undefined ? { killGraceMs: j.killGraceMs } : {}),
            ...(j.onActivity ? { onActivity: j.onActivity } : {}),
            ...(j.dryRun ? { dryRun: true } : {})
        }));
        figures = staged.figures;
        if (staged.dryRun) {
            return result({
                ...common,
                outcome: 'skipped',
                reason: 'dry run: the prompt is below; no agent ran',
                prompt: staged.prompt,
                figures,
                warnings: staged.warnings
            });
        }
        stage = withoutSecrets(staged, j.secrets);
        withheld.push(...stage.withheld);
        if (stage.commit.sha) {
            j.log?.(`the stage ended ${stage.outcome}; publishing ${stage.commit.sha.slice(0, 12)} to ${prepared.branch}`);
            published = await j.workspace.publish(prepared, stage.commit.sha, `${prepared.branch}-rescue-${j.run.id}-${j.run.attempt}`.replace(/[^A-Za-z0-9/._-]/g, '-'));
        }
        contextPath = staged.contextPath;
        markPhase(contextPath, 'published');
    }
    const commit = published && 'commit' in published ? published.commit : undefined;
    const rescuedTo = published && 'commit' in published ? published.rescuedTo : undefined;
    const unpublished = unpublishedReason(published, prepared, plan.profile);
    const unsaved = published && 'failed' in published && stage.handoffPath && stage.commit.sha
        ? await unsavedText(j, stage.commit.sha, stage.handoffPath)
        : undefined;
    const warnings = [...stage.warnings];
    let pullRequest;
    if (commit && !rescuedTo && !issue.isPullRequest) {
        const pr = await j.tracker.publish(issue, {
            branch: prepared.branch,
            baseBranch: prepared.baseBranch,
            commit,
            created: prepared.created,
            ...(record.pullRequest !== undefined ? { known: record.pullRequest } : {})
        });
        pullRequest = pr.pullRequest;
        if (pr.problem)
            warnings.push(`no pull request: ${pr.problem}`);
    }
    const settled = await settleStage({
        readCommitted: (c, p, max) => j.workspace.readCommitted(c, p, max),
        config: j.config,
        automation,
        state,
        plan,
        record,
        result: stage,
        commit: commit ?? null,
        run,
        ...(j.run.url ? { runUrl: j.run.url } : {}),
        startedAt,
        timestamp,
        ...(unpublished ? { unpublished } : {}),
        ...(rescuedTo ? { rescuedTo } : {})
    });
    const { next } = settled;
    const effects = effectsOf({
        next,
        state,
        entry: settled.record.entry,
        ...(settled.record.continuation?.step ? { step: settled.record.continuation.step } : {}),
        profile: plan.profile,
        run,
        wakes: j.tracker.wakes,
        startsStage: (s) => findAutomation(j.config, s) !== undefined,
        ...(stage.outcome === 'succeeded' && commit && stage.handoffPath && !unpublished
            ? { requests: settled.requests, deliverable: { commit, path: stage.handoffPath } }
            : {}),
        ...(pullRequest ? { pullRequest: pullRequest.number } : {}),
        replied: plan.reply !== undefined,
        runLine: j.tracker.runLine(prepared.branch) + unsavedBlock(unsaved),
        replyHint: j.tracker.replyHint(issue)
    });
    const intent = {
        ...settled.record,
        owed: { run, effects },
        ...(pullRequest ? { pullRequest: pullRequest.number } : {})
    };
    let summary = effects_describe(next);
    const done = {
        ...common,
        outcome: stage.outcome,
        reason: stage.reason,
        ...(commit ? { commit } : {}),
        ...(stage.handoffPath ? { handoffPath: stage.handoffPath } : {}),
        ...(rescuedTo ? { rescuedTo } : {}),
        ...(pullRequest ? { pullRequest } : {}),
        ...(figures ? { figures } : {}),
        ...(stage.agent?.stats ? { agentStats: stage.agent.stats } : {}),
        ...(stage.agent?.resultText ? { resultText: stage.agent.resultText } : {}),
        ...(unsaved ? { unsaved } : {}),
        next,
        requests: settled.requests,
        refused: settled.refused,
        warnings
    };
    // Intent before effects: if the record cannot be written, nothing is carried out (a re-run
    // finds the stage's commit and decides again), and the issue says so.
    try {
        await j.tracker.saveRecord(issue, intent);
    }
    catch (err) {
        const why = (0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(err));
        const notice = await noticeUnrecorded(j, issue, why, prepared.branch);
        markPhase(contextPath, 'done');
        return result({
            ...done,
            summary: `${summary}; not carried out, because the record could not be written`,
            record: settled.record,
            stateAfter: issue.state,
            failure: `the pipeline's record could not be written (${why}); ${notice}re-run the job to continue`
        });
    }
    try {
        const carried = await carryOut({
            tracker: j.tracker,
            workspace: j.workspace,
            issue,
            effects,
            resendWakes: true,
            maxFileBytes: j.config.handoff.maxFileBytes
        });
        if (next.kind === 'move' && carried.state !== null && carried.state !== next.to) {
            summary += `; the issue was moved to "${carried.state}" meanwhile; left it there`;
        }
        markPhase(contextPath, 'done');
        return result({
            ...done,
            summary,
            record: intent,
            stateAfter: carried.state,
            ...(unpublished ? { failure: unpublished } : {})
        });
    }
    catch (err) {
        const why = (0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(err));
        const halted = `${HALTED}${summary}) failed: ${why}`;
        // The record still says what is owed; a re-run or the next event carries it out.
        await j.tracker.setFlag(issue, 'needs-attention', true).catch(() => undefined);
        await j.tracker.saveRecord(issue, { ...intent, halted }).catch(() => undefined);
        markPhase(contextPath, 'done');
        return result({
            ...done,
            summary: `${summary}; halted`,
            record: { ...intent, halted },
            stateAfter: issue.state,
            failure: `${halted}; re-run the job to finish it`
        });
    }
}
/** Carries out what an earlier run's decision still owes; the record afterwards owes nothing. */
async function finishOwed(j, issue, record) {
    if (!record.owed)
        return { issue, record, performed: 0, changed: false };
    const carried = await carryOut({
        tracker: j.tracker,
        workspace: j.workspace,
        issue,
        effects: record.owed.effects,
        resendWakes: record.owed.run.split('/')[0] === j.run.id || (record.halted?.startsWith(HALTED) ?? false),
        maxFileBytes: j.config.handoff.maxFileBytes
    });
    const after = { ...record };
    delete after.owed;
    const wasHalted = after.halted?.startsWith(HALTED) ?? false;
    if (wasHalted)
        delete after.halted;
    if (carried.performed > 0) {
        j.log?.(`carried out ${carried.performed} step(s) that run ${record.owed.run} owed`);
    }
    let labels = issue.labels;
    if (wasHalted && hasFlag(labels, 'needs-attention')) {
        await j.tracker.setFlag(issue, 'needs-attention', false);
        labels = withFlag(labels, 'needs-attention', false);
    }
    return {
        issue: { ...issue, state: carried.state, labels },
        record: after,
        performed: carried.performed,
        changed: carried.performed > 0 || wasHalted
    };
}
/** A stage whose commit an earlier run already landed: judged as that run judged it. */
function recoveredStage(landed) {
    // A landed commit is an agent run's; its trailer is text anyone could have written.
    const outcome = AGENT_OUTCOMES.find((o) => o === landed.outcome) ?? 'failed';
    return {
        outcome,
        reason: landed.reason || `recovered from commit ${landed.sha.slice(0, 12)}`,
        handoffPath: landed.handoffPath,
        commit: {
            sha: landed.sha,
            committed: landed.handoffPath ? [landed.handoffPath] : [],
            dropped: []
        },
        gitDir: null,
        withheld: [],
        warnings: [`recovered from ${landed.sha.slice(0, 12)}, which run ${landed.run} pushed`]
    };
}
/**
 * The agent's own words that travel on (its question goes into a comment and the record, its
 * final text into the log) with every secret redacted, each finding added to `withheld`.
 */
function withoutSecrets(stage, secrets) {
    const agent = stage.agent;
    if (!agent)
        return stage;
    const lines = [];
    const clean = (where, text) => text === undefined ? undefined : redactNoting(secrets, where, text, (l) => lines.push(l));
    const question = clean("the agent's question", agent.question);
    const resultText = clean("the agent's final text", agent.resultText);
    return {
        ...stage,
        agent: {
            ...agent,
            reason: secrets.redact(agent.reason).text,
            ...(question !== undefined ? { question } : {}),
            ...(resultText !== undefined ? { resultText } : {})
        },
        withheld: [...stage.withheld, ...lines]
    };
}
function unpublishedReason(published, prepared, profile) {
    if (!published)
        return undefined;
    if ('failed' in published) {
        return `the ${profile} stage's work could not be pushed anywhere (${published.failed}); its deliverable is in the job summary`;
    }
    if (published.rescuedTo) {
        return `${prepared.branch} refused the push (${published.refusal ?? 'refused'}); the ${profile} stage's work is on branch ${published.rescuedTo}`;
    }
    return undefined;
}
async function unsavedText(j, commit, path) {
    const text = await j.workspace.readCommitted(commit, path, j.config.handoff.maxFileBytes);
    return text === null ? undefined : { path, text };
}
function unsavedBlock(unsaved) {
    if (!unsaved)
        return '';
    return `\n\n<details><summary>${unsaved.path}</summary>\n\n${(0,untrusted_text/* fenced */.OF)((0,untrusted_text/* clip */.$Q)(unsaved.text, UNSAVED_IN_COMMENT), '~', 'markdown')}\n\n</details>`;
}
/** Tells whoever finishes an interrupted job (the post step) how far this one got. */
function markPhase(contextPath, phase) {
    const ctx = contextPath ? loadStageContext(contextPath) : null;
    if (contextPath && ctx)
        saveStageContext(contextPath, { ...ctx, phase });
}
/** Why the profile's agent could not start here, or null when it can. */
async function checkCommand(j, profile, cwd) {
    // An isolated agent's user must be able to run the file: that needs the user.
    const isolation = j.isolate ? await j.isolate() : undefined;
    return commandUnavailable({
        profile,
        configFile: j.config.file,
        cwd,
        pathVar: j.parentEnv.PATH,
        ...(isolation ? { cannotRun: (file) => cannotRunAs(file, isolation.user.uid) } : {})
    });
}
async function noticeCannotStart(j, issue, stage, line) {
    const body = [
        `**The ${stage.profile} stage could not start**, so the issue stays in "${(0,untrusted_text/* oneLine */.TN)(stage.state)}" and nothing was committed:`,
        (0,untrusted_text/* fenced */.OF)(line),
        'Fix that, then start the stage again.',
        j.tracker.runLine(null)
    ]
        .filter(Boolean)
        .join('\n\n');
    await j.tracker
        .comment(issue, { key: `itervox:cannot-start:${j.run.id}.${j.run.attempt}`, body })
        .catch(() => undefined);
}
/** Says on the issue that the record could not be written; returns what it managed, as words. */
async function noticeUnrecorded(j, issue, why, branch) {
    const body = `**The itervox pipeline could not save its record** (${why}), so it did not go on. The stage's work is on \`${branch}\`; re-run the job to continue.\n\n${j.tracker.runLine(branch)}`;
    const said = await j.tracker
        .comment(issue, { key: `itervox:unrecorded:${j.run.id}.${j.run.attempt}`, body })
        .then(() => true)
        .catch(() => false);
    const flagged = await j.tracker
        .setFlag(issue, 'needs-attention', true)
        .then(() => true)
        .catch(() => false);
    return said || flagged ? 'the issue says so; ' : '';
}

;// CONCATENATED MODULE: ./.build/pipeline/status-view.js







/** The most record text `readRecordFromComment` accepts. */
const MAX_RECORD_BYTES = 64 * 1024;
// GitHub refuses comment bodies over 65,536 characters; we stay well below, counting bytes.
const COMMENT_BUDGET = 60_000;
// The record gets at most half of that, so the table and the question always fit beside it.
const RECORD_BUDGET = 32 * 1024;
const RECORD_OPEN = '<!-- itervox:record ';
const RECORD_CLOSE = ' -->';
const MAX_STATE_LABEL = 80;
const MAX_PROFILE_LABEL = 60;
const MAX_REASON = 300;
const MAX_HALTED = 500;
const MAX_QUESTION = 4000;
/**
 * A Mermaid `flowchart LR` of the pipeline: every state an enabled automation starts from or
 * moves to, plus the completion and failed states; `state -->|profile| next` per move, a dashed
 * `retries spent` edge from each working state to the failed state, a dashed review loop when
 * `auto_review` is on, and `current` (matched case-insensitively, like labels) styled.
 */
function pipelineDiagram(config, current) {
    const nodes = new Map();
    const node = (state) => {
        const key = stateKey(state);
        let n = nodes.get(key);
        if (!n) {
            n = { id: `s${nodes.size}`, label: state };
            nodes.set(key, n);
        }
        return n.id;
    };
    const edges = new Set();
    const automations = config.automations.filter((a) => a.enabled);
    for (const a of automations) {
        for (const state of a.states) {
            const from = node(state);
            if (a.moveToState) {
                edges.add(`${from} -->|"${mermaidText(a.profile, MAX_PROFILE_LABEL)}"| ${node(a.moveToState)}`);
            }
        }
    }
    const { completionState, failedState } = config.tracker;
    if (completionState)
        node(completionState);
    const failed = failedState ? node(failedState) : null;
    const reviewer = config.agent.autoReview ? config.agent.reviewerProfile : undefined;
    for (const a of automations) {
        for (const state of a.states) {
            const from = node(state);
            if (reviewer && a.profile !== reviewer) {
                edges.add(`${from} -.->|"${mermaidText(`${reviewer} FAIL`, MAX_PROFILE_LABEL)}"| ${from}`);
            }
            if (failed && failed !== from)
                edges.add(`${from} -.->|"retries spent"| ${failed}`);
        }
    }
    const marked = current ? node(current) : null;
    const lines = ['flowchart LR'];
    for (const n of nodes.values())
        lines.push(`  ${n.id}["${mermaidText(n.label, MAX_STATE_LABEL)}"]`);
    for (const e of edges)
        lines.push(`  ${e}`);
    if (marked) {
        lines.push('  classDef current fill:#fff4ce,stroke:#9a6700,stroke-width:3px');
        lines.push(`  class ${marked} current`);
    }
    return lines.join('\n');
}
/** A Markdown table of the record's stages, oldest first; every cell is escaped and capped. */
function stageTable(record, options = {}) {
    const stages = chronological(record.stages);
    if (stages.length === 0)
        return '_No stage has run yet._';
    const shown = Math.max(0, Math.min(stages.length, options.maxRows ?? stages.length));
    const rows = stages.slice(stages.length - shown).map((s) => {
        const cells = [
            utcTime(s.startedAt),
            (0,untrusted_text/* cellText */.Ie)(s.state),
            (0,untrusted_text/* cellText */.Ie)(s.profile),
            runKind(s),
            (0,untrusted_text/* cellText */.Ie)(s.outcome) + ((0,untrusted_text/* oneLine */.TN)(s.reason) ? ` — ${(0,untrusted_text/* cellText */.Ie)(s.reason, MAX_REASON)}` : ''),
            formatDuration(s.durationMs),
            agentFigures(s.agent),
            deliverable(s.handoffPath, options.blobUrl),
            status_view_link((0,untrusted_text/* cellText */.Ie)(s.run, 40), s.runUrl)
        ];
        return `| ${cells.join(' | ')} |`;
    });
    const hidden = stages.length - shown;
    return [
        ...(hidden > 0 ? [`_${hidden} earlier stage${hidden === 1 ? '' : 's'} not shown._`, ''] : []),
        '| Started (UTC) | State | Profile | Kind | Outcome | Duration | Agent | Deliverable | Run |',
        '|---|---|---|---|---|---|---|---|---|',
        ...rows
    ].join('\n');
}
/**
 * The issue's one living status comment: marker, heading, current state, the diagram, the
 * stage table, what the pipeline waits for or why it halted, and the record itself in a
 * final hidden comment. It stays under GitHub's comment size limit: the oldest table rows go
 * first, then the diagram; the record is made to fit on its own (see `fitRecord`).
 */
function renderStatusComment(o) {
    if (!/^[A-Za-z0-9][A-Za-z0-9:._]*(?:-[A-Za-z0-9:._]+)*$/.test(o.marker)) {
        throw new Error(`status comment marker "${o.marker}" cannot sit in an HTML comment`);
    }
    const head = [
        `<!-- ${o.marker} -->`,
        `### itervox handoff: ${plainText(o.issueRef)}`,
        '',
        `**Current state:** ${o.record.state === null ? '_not started_' : (0,untrusted_text/* cellText */.Ie)(o.record.state, MAX_STATE_LABEL)}`,
        ...(o.warning ? ['', `> **Warning:** ${o.warning}`] : [])
    ];
    const tail = withheldLines(o.record);
    const w = o.record.waiting;
    if (w) {
        if (tail.length > 0)
            tail.push('');
        tail.push(`**Waiting for input:** ${(0,untrusted_text/* cellText */.Ie)(w.profile, MAX_PROFILE_LABEL)} (in ${(0,untrusted_text/* cellText */.Ie)(w.state, MAX_STATE_LABEL)}) asks the question below. A person with write access answers with a comment on this issue, and the stage resumes with that answer.`, '', fencedQuestion(w.question));
    }
    const refused = refusedRequests(o.record);
    if (refused.length > 0) {
        if (tail.length > 0)
            tail.push('');
        tail.push('**Refused requests:**', '', ...refused);
    }
    if (o.record.halted !== undefined) {
        if (tail.length > 0)
            tail.push('');
        tail.push(`**Halted:** ${(0,untrusted_text/* cellText */.Ie)(o.record.halted, MAX_HALTED) || 'no reason given'}`);
    }
    const recordLine = `${RECORD_OPEN}${fitRecord(o.record)}${RECORD_CLOSE}`;
    const assemble = (rows, diagram) => [
        ...head,
        '',
        diagram
            ? '```mermaid\n' + pipelineDiagram(o.config, o.record.state) + '\n```'
            : '_The pipeline diagram is too large for this comment._',
        '',
        stageTable(o.record, { blobUrl: o.blobUrl, maxRows: rows }),
        ...(tail.length > 0 ? ['', ...tail] : []),
        '',
        recordLine
    ].join('\n');
    let rows = o.record.stages.length;
    let body = assemble(rows, true);
    while (external_node_buffer_.Buffer.byteLength(body) > COMMENT_BUDGET && rows > 0) {
        rows = Math.floor(rows / 2);
        body = assemble(rows, true);
    }
    return external_node_buffer_.Buffer.byteLength(body) > COMMENT_BUDGET ? assemble(0, false) : body;
}
const MAX_REFUSED_SHOWN = 5;
/** The newest requests agents made that were not carried out, as list items. */
function refusedRequests(record) {
    const lines = chronological(record.stages).flatMap((s) => (Array.isArray(s.refused) ? s.refused : []).map((r) => `- ${(0,untrusted_text/* cellText */.Ie)(s.profile, MAX_PROFILE_LABEL)} in ${(0,untrusted_text/* cellText */.Ie)(s.state, MAX_STATE_LABEL)}: ${(0,untrusted_text/* cellText */.Ie)(r, MAX_REASON)}`));
    return lines.slice(-MAX_REFUSED_SHOWN);
}
/**
 * The record from a status comment's final hidden comment, or null when there is none or it
 * is malformed, too large or not shaped like a record. Never throws: the body is untrusted
 * (anyone with write access can edit a comment).
 */
function readRecordFromComment(body) {
    if (typeof body !== 'string')
        return null;
    const at = body.lastIndexOf(RECORD_OPEN);
    if (at < 0)
        return null;
    const rest = body.slice(at + RECORD_OPEN.length);
    // Our JSON holds no '-', so the first ' -->' closes it; only whitespace may follow.
    const end = rest.indexOf(RECORD_CLOSE);
    if (end < 0 || rest.slice(end + RECORD_CLOSE.length).trim() !== '')
        return null;
    const json = rest.slice(0, end);
    if (json.length > MAX_RECORD_BYTES || external_node_buffer_.Buffer.byteLength(json) > MAX_RECORD_BYTES)
        return null;
    // The writer escapes all of these; a raw one means the text was not written by us.
    if (/[<>-]/.test(json))
        return null;
    let value;
    try {
        value = JSON.parse(json);
    }
    catch {
        return null;
    }
    return parseRecord(value);
}
/**
 * The record as one line of JSON that cannot end its HTML comment early: every `-`, `<` and
 * `>` is written as a `\u` escape (numbers are clamped to non-negative integers, so none of
 * those characters appear outside strings). Over the budget, reasons and the question are
 * shortened, then the oldest stages dropped; the counters always survive.
 */
function fitRecord(record) {
    const full = encodeRecord(record);
    if (external_node_buffer_.Buffer.byteLength(full) <= RECORD_BUDGET)
        return full;
    const trimmed = {
        ...record,
        stages: [],
        ...(record.waiting
            ? { waiting: { ...record.waiting, question: (0,untrusted_text/* clip */.$Q)(record.waiting.question, MAX_QUESTION) } }
            : {}),
        ...(record.halted !== undefined ? { halted: (0,untrusted_text/* clip */.$Q)(record.halted, MAX_HALTED) } : {})
    };
    const base = external_node_buffer_.Buffer.byteLength(encodeRecord(trimmed));
    const stages = record.stages.map((s) => ({ ...s, reason: (0,untrusted_text/* clip */.$Q)(s.reason, MAX_REASON) }));
    let room = RECORD_BUDGET - base;
    let keep = 0;
    for (let i = stages.length - 1; i >= 0; i--) {
        const size = external_node_buffer_.Buffer.byteLength(encodeRecord(stages[i])) + 1;
        if (size > room)
            break;
        room -= size;
        keep++;
    }
    trimmed.stages = stages.slice(stages.length - keep);
    if (room >= 0)
        return encodeRecord(trimmed);
    // Only absurdly long names get here; 200 code points of anything fit many times over.
    const short = (s) => (0,untrusted_text/* clip */.$Q)(s, 200);
    return encodeRecord({
        v: 1,
        state: record.state === null ? null : short(record.state),
        entry: record.entry,
        transitions: record.transitions,
        round: record.round,
        ...(record.visited ? { visited: record.visited.map(short) } : {}),
        ...(record.sentBack ? { sentBack: { ...record.sentBack, by: short(record.sentBack.by) } } : {}),
        ...(record.pendingMove !== undefined ? { pendingMove: short(record.pendingMove) } : {}),
        stages: [],
        ...(record.waiting
            ? {
                waiting: {
                    ...record.waiting,
                    state: short(record.waiting.state),
                    profile: short(record.waiting.profile),
                    timestamp: short(record.waiting.timestamp),
                    question: short(record.waiting.question)
                }
            }
            : {}),
        ...(record.halted !== undefined ? { halted: short(record.halted) } : {}),
        ...(record.continuation ? { continuation: record.continuation } : {}),
        ...(record.owed ? { owed: record.owed } : {}),
        ...(record.pullRequest !== undefined ? { pullRequest: record.pullRequest } : {})
    });
}
function encodeRecord(value) {
    const json = JSON.stringify(value, (_key, v) => typeof v === 'number' ? (Number.isFinite(v) && v > 0 ? Math.round(v) : 0) : v);
    return json.replace(/[<>-]/g, (c) => `\\u00${c.charCodeAt(0).toString(16)}`);
}
/** Stages oldest first: by start time where it parses, otherwise where the record put them. */
function chronological(stages) {
    let last = -Infinity;
    const keyed = stages.map((s, i) => {
        const t = Date.parse(String(s.startedAt));
        if (!Number.isNaN(t))
            last = t;
        return { s, i, t: Number.isNaN(t) ? last : t };
    });
    return keyed.sort((a, b) => a.t - b.t || a.i - b.i).map((k) => k.s);
}
/**
 * A Mermaid label for use inside `"…"`: anything but letters, digits and a few inert marks
 * becomes a `#code;` entity, so quotes, brackets, pipes, `%%` directives, `<`/`>` and
 * backticks (Markdown strings) can never reach the parser.
 */
function mermaidText(text, max) {
    const flat = (0,untrusted_text/* clip */.$Q)((0,untrusted_text/* oneLine */.TN)(text), max) || '(none)';
    return flat.replace(/[^\p{L}\p{N} _.,'-]/gu, (c) => `#${c.codePointAt(0)};`);
}
/** Our own text (the issue reference): escaped, but `#12` still links. */
function plainText(text) {
    return (0,untrusted_text/* oneLine */.TN)(text).replace(/[&<>|`\\[\]]/g, (c) => `&#${c.charCodeAt(0)};`);
}
// Lines of the newest stages that had secrets withheld; the record keeps up to ten a stage.
const MAX_WITHHELD_STAGES = 5;
/** One line per stage whose secrets were kept out of its commit, comments or record. */
function withheldLines(record) {
    const stages = chronological(record.stages).filter((s) => s.withheld?.length);
    return stages.slice(-MAX_WITHHELD_STAGES).flatMap((s, i) => {
        const what = (s.withheld ?? []).map((w) => (0,untrusted_text/* cellText */.Ie)(w, 200)).join('; ');
        return [
            ...(i > 0 ? [''] : []),
            `**Secrets withheld** (${(0,untrusted_text/* cellText */.Ie)(s.profile, MAX_PROFILE_LABEL)}, run ${(0,untrusted_text/* cellText */.Ie)(s.run, 40)}): ${what}. Rotate them if they are real.`
        ];
    });
}
/** The question, capped, in a fence it cannot close. */
function fencedQuestion(text) {
    return (0,untrusted_text/* fenced */.OF)((0,untrusted_text/* clip */.$Q)((0,sanitize/* sanitizeUntrusted */._2)(String(text ?? '')).text, MAX_QUESTION));
}
/** e.g. `work, attempt 2` or `review, attempt 1, round 2`; attempts count from 1 here. */
function runKind(s) {
    const n = (v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null);
    const attempt = n(s.attempt);
    const round = n(s.round);
    return (`${(0,untrusted_text/* cellText */.Ie)(s.kind)}, attempt ${attempt === null ? '?' : attempt + 1}` +
        (round ? `, round ${round + 1}` : ''));
}
function utcTime(iso) {
    const t = Date.parse(String(iso));
    if (Number.isNaN(t))
        return (0,untrusted_text/* cellText */.Ie)(iso, 40);
    return new Date(t).toISOString().slice(0, 19).replace('T', ' ');
}
// Only a plain handoff path is linked: a forged `../..` path must not turn our link elsewhere.
const HANDOFF_FILE = /^\.itervox\/handoff\/[A-Za-z0-9._-]+\.md$/;
function deliverable(path, blobUrl) {
    if (!path)
        return '';
    const linkable = blobUrl && HANDOFF_FILE.test(path) && !path.includes('..');
    return linkable ? status_view_link((0,untrusted_text/* cellText */.Ie)(path.split('/').pop()), blobUrl(path)) : (0,untrusted_text/* cellText */.Ie)(path);
}
function status_view_link(text, url) {
    const safe = safeUrl(url);
    return safe ? `[${text}](${safe})` : text;
}
/** http(s) URLs only, with everything that could end a Markdown link percent-encoded. */
function safeUrl(raw) {
    if (typeof raw !== 'string' || raw.length > 2000)
        return null;
    let url;
    try {
        url = new URL(raw);
    }
    catch {
        return null;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        return null;
    return url.href.replace(/[()<>"'`|[\]\\\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js
var github = __webpack_require__(1351);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/utils.js + 20 modules
var utils = __webpack_require__(8665);
;// CONCATENATED MODULE: ./.build/tracker/github-retry.js
// Which failed GitHub requests are sent again, and after how long. Rate limits wait as long as
// GitHub asks (within a bound); 5xx answers and requests that got no answer back off
// exponentially, but only when sending again cannot do a write twice.


/** GitHub's advice when a secondary limit names no wait: at least a minute. */
const SECONDARY_FALLBACK_SECONDS = 60;
/** An Octokit `request` hook that sends a request again while the policy allows it. */
function retrying(policy) {
    return async (request, options) => {
        for (let attempt = 1;; attempt++) {
            try {
                return await request(options);
            }
            catch (e) {
                const wait = waitBeforeRetry(e, attempt, policy);
                if (wait === undefined) {
                    noteAttempts(e, attempt);
                    throw e;
                }
                await (0,external_node_timers_promises_.setTimeout)(wait * policy.secondMs);
            }
        }
    };
}
/** Seconds to wait before sending the request again; undefined: fail now. */
function waitBeforeRetry(e, attempt, p) {
    if (!isHttpFailure(e))
        return undefined;
    const failure = classifyFailure(e);
    if (failure.kind === 'answered')
        return undefined;
    let what;
    let wait;
    if (failure.kind === 'rate-limit') {
        what = `GitHub ${failure.what}`;
        wait =
            failure.retryAfter ??
                (failure.what === 'secondary rate limit' ? SECONDARY_FALLBACK_SECONDS : backoff(attempt));
    }
    else {
        // A rate limit refuses a request before GitHub acts on it; a 5xx or a lost answer may come
        // after it acted, so only a request that is safe to repeat is sent again.
        if (!isRepeatable(e) && (failure.kind === 'server' || failure.sent))
            return undefined;
        what = failure.kind === 'server' ? `GitHub ${e.status}` : 'no answer from GitHub';
        wait = (failure.kind === 'server' ? failure.retryAfter : undefined) ?? backoff(attempt);
    }
    const again = attempt <= p.retries && wait <= p.maxRetryAfter;
    const request = e.request;
    p.log(`${what} on ${request?.method} ${request?.url}: ` +
        (again ? `retrying in ${round(wait)}s (retry ${attempt} of ${p.retries})` : 'giving up'));
    return again ? wait : undefined;
}
/** 1, 2, 4… seconds, each shortened by up to half at random so retries do not bunch up. */
function backoff(attempt) {
    return 2 ** (attempt - 1) * (0.5 + Math.random() / 2);
}
function round(seconds) {
    return Number.isInteger(seconds) ? String(seconds) : seconds.toFixed(1);
}

;// CONCATENATED MODULE: ./.build/tracker/github-client.js
// The one Octokit the GitHub adapter uses: @actions/github's client (runner proxy, user agent),
// with a timeout on every request, the retries github-retry.ts allows, writes sent one at a
// time, and a count of every HTTP request it sends.




const DEFAULT_TIMEOUT_MS = 30_000;
function createGitHubClient(opts) {
    let sent = 0;
    const baseFetch = utils/* defaults */.NT.request?.fetch ?? globalThis.fetch;
    const fetchOnce = timedFetch(baseFetch, opts.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const countingFetch = (input, init) => {
        sent++;
        return fetchOnce(input, init);
    };
    const octokit = (0,github/* getOctokit */.Q)(opts.token, {
        baseUrl: opts.apiUrl.replace(/\/+$/, ''),
        userAgent: opts.userAgent ?? 'itervox-handoff-action',
        request: { ...utils/* defaults */.NT.request, fetch: countingFetch }
    });
    const send = retrying({
        retries: (opts.retry ?? true) ? (opts.retries ?? 3) : 0,
        secondMs: opts.secondMs ?? 1000,
        maxRetryAfter: opts.maxRetryAfter ?? 60,
        log: opts.log ?? (() => undefined)
    });
    // GitHub asks for writes from one token to be made one at a time (its secondary limits);
    // a write waits for the one before it, retries included, but not for any fixed spacing.
    let writes = Promise.resolve();
    octokit.hook.wrap('request', (request, options) => {
        if (options.method === 'GET' || options.method === 'HEAD')
            return send(request, options);
        const turn = writes.then(() => send(request, options));
        writes = turn.catch(() => undefined);
        return turn;
    });
    return { octokit, requests: () => sent };
}

;// CONCATENATED MODULE: ./.build/tracker/label-states.js
// On GitHub every state is a label, matched case-insensitively (itervox's convention). These
// pure rules read the state from an issue's labels and compute the labels after a move.


/** The known state a label stands for, spelled as WORKFLOW.md spells it; undefined if none. */
function stateOfLabel(label, states) {
    return states.find((s) => sameState(s, label));
}
/**
 * The one state an issue's labels put it in, or null when no label is a state.
 * @param issue how to name the issue in the error, e.g. `#42`
 */
function stateFromLabels(labels, states, issue) {
    const found = labels.filter((l) => stateOfLabel(l, states) !== undefined);
    if (found.length > 1) {
        const names = found.map((l) => JSON.stringify(l)).join(' and ');
        throw new errors/* UserError */.yo(`issue ${issue} has ${found.length} state labels, ${names}; remove all but one so its state is clear`);
    }
    const [label] = found;
    return label === undefined ? null : (stateOfLabel(label, states) ?? null);
}
/** The labels after moving to `to`: every label that is not a state, then `to`. */
function labelsAfterMove(labels, states, to) {
    return [...labels.filter((l) => stateOfLabel(l, states) === undefined), to];
}

;// CONCATENATED MODULE: ./.build/tracker/github.js
// The GitHub tracker: issues whose states are labels, the collaborator permission of whoever
// triggered a stage, the issue's draft pull request, the living status comment, and the
// repository_dispatch that starts the next stage. Each method spends as few requests as it can.





const PERMISSIONS = ['admin', 'maintain', 'write', 'triage', 'read', 'none'];
/** Status comments carry `<!-- marker -->` as their first line; markers are plain words. */
const github_MARKER = /^[A-Za-z0-9][A-Za-z0-9:._-]*$/;
const MARKED = /^<!-- ([A-Za-z0-9][A-Za-z0-9:._-]*) -->$/;
const DISPATCH_MAX_KEYS = 10;
class GitHubTracker {
    octokit;
    countRequests;
    owner;
    repo;
    states;
    constructor(opts) {
        const client = createGitHubClient(opts);
        this.octokit = client.octokit;
        this.countRequests = client.requests;
        this.owner = opts.owner;
        this.repo = opts.repo;
        this.states = opts.states;
    }
    /** HTTP requests sent so far, retries included. */
    get requestCount() {
        return this.countRequests();
    }
    get where() {
        return { owner: this.owner, repo: this.repo };
    }
    /** Runs one API call; a failure becomes an error that says what to change. */
    async call(doing, permission, fn) {
        try {
            return await fn();
        }
        catch (e) {
            throw explainFailure(e, doing, permission);
        }
    }
    /** `42` or `#42`. */
    async getIssue(id) {
        const number = parseIssueNumber(id);
        const data = await this.call(`read issue #${number}`, 'issues: read', async () => {
            try {
                return (await this.octokit.rest.issues.get({ ...this.where, issue_number: number })).data;
            }
            catch (e) {
                if (isHttpFailure(e) && (e.status === 404 || e.status === 410)) {
                    throw new errors/* UserError */.yo(`issue #${number} does not exist in ${this.owner}/${this.repo}`);
                }
                throw e;
            }
        });
        const labels = data.labels.map((l) => (typeof l === 'string' ? l : (l.name ?? '')));
        return {
            id: String(data.number),
            number: data.number,
            identifier: `#${data.number}`,
            title: data.title,
            description: data.body ?? '',
            state: stateFromLabels(labels, this.states, `#${data.number}`),
            labels,
            url: data.html_url,
            isPullRequest: data.pull_request !== undefined,
            closed: data.state === 'closed',
            createdAt: data.created_at,
            updatedAt: data.updated_at
        };
    }
    /** The user's effective role on the repository; `none` for a non-collaborator. */
    async permissionOf(login) {
        return this.call(`read the permission of ${login}`, 'metadata: read', async () => {
            try {
                const { data } = await this.octokit.rest.repos.getCollaboratorPermissionLevel({
                    ...this.where,
                    username: login
                });
                // role_name tells maintain and triage apart; custom roles fall back to the base level.
                const role = PERMISSIONS.find((p) => p === data.role_name);
                return role ?? PERMISSIONS.find((p) => p === data.permission) ?? 'none';
            }
            catch (e) {
                if (isHttpFailure(e) && e.status === 404)
                    return 'none';
                throw e;
            }
        });
    }
    async getRepo() {
        const { data } = await this.call('read the repository', 'contents: read', () => this.octokit.rest.repos.get(this.where));
        return { defaultBranch: data.default_branch, fork: data.fork };
    }
    async getPull(number) {
        const data = await this.call(`read pull request #${number}`, 'pull-requests: read', async () => {
            try {
                return (await this.octokit.rest.pulls.get({ ...this.where, pull_number: number })).data;
            }
            catch (e) {
                if (isHttpFailure(e) && e.status === 404) {
                    throw new errors/* UserError */.yo(`pull request #${number} does not exist in ${this.owner}/${this.repo}`);
                }
                throw e;
            }
        });
        return {
            number: data.number,
            headRef: data.head.ref,
            headRepoFullName: data.head.repo?.full_name ?? null,
            baseRef: data.base.ref,
            draft: data.draft ?? false,
            state: data.state
        };
    }
    /**
     * The open pull request from `head` into `base`, created as a draft when there is none,
     * otherwise given the new body (left alone when the body is already that). With
     * `branchIsNew` (this run just pushed the branch, so no pull request can be open for it yet)
     * it creates without listing first; a concurrent run's pull request is still found and updated.
     */
    async upsertDraftPr(o) {
        if (!o.branchIsNew) {
            const existing = await this.findOpenPull(o.head, o.base);
            if (existing)
                return this.updatePullBody(existing, o.body);
        }
        try {
            return await this.createPull(o, true);
        }
        catch (e) {
            if (!isHttpFailure(e) || e.status !== 422)
                throw explainCreate(e, o.head);
            const message = apiMessage(e);
            if (/draft pull requests are not supported/i.test(message)) {
                return this.createPull(o, false).catch((e2) => {
                    throw explainCreate(e2, o.head);
                });
            }
            // Another run created it between our list and our create.
            if (/already exists/i.test(message)) {
                const raced = await this.findOpenPull(o.head, o.base);
                if (raced)
                    return this.updatePullBody(raced, o.body);
            }
            throw explainCreate(e, o.head);
        }
    }
    async findOpenPull(head, base) {
        const { data } = await this.call(`list pull requests from ${head}`, 'pull-requests: read', () => this.octokit.rest.pulls.list({
            ...this.where,
            state: 'open',
            head: `${this.owner}:${head}`,
            base
        }));
        const pr = data.find((p) => p.head.ref === head && p.base.ref === base);
        return pr ? { number: pr.number, url: pr.html_url, body: pr.body } : undefined;
    }
    async createPull(o, draft) {
        // Safe to send again: a second create is refused as "already exists", handled above.
        const { data } = await this.octokit.rest.pulls.create({
            request: { idempotent: true },
            ...this.where,
            head: o.head,
            base: o.base,
            title: o.title,
            body: o.body,
            ...(draft ? { draft: true } : {})
        });
        return { number: data.number, url: data.html_url, created: true };
    }
    async updatePullBody(pr, body) {
        if (pr.body !== body) {
            await this.call(`update pull request #${pr.number}`, 'pull-requests: write', () => this.octokit.rest.pulls.update({ ...this.where, pull_number: pr.number, body }));
        }
        return { number: pr.number, url: pr.url, created: false };
    }
    /**
     * Moves an issue from one state label to another in one write: its labels become every
     * non-state label plus `to` (GitHub creates a label that does not exist yet). The labels are
     * re-read first, so a label added meanwhile is kept and a move someone else made is not
     * undone: when the issue is no longer in `from` (and not already in `to`), nothing changes.
     * `from` null means: move whatever state the issue is in.
     */
    async moveState(issue, from, to, allStates) {
        const labels = await this.issueLabels(issue);
        const present = labels.filter((l) => stateOfLabel(l, allStates) !== undefined);
        const only = present.length === 1 ? present[0] : undefined;
        if (only !== undefined && sameState(only, to))
            return { moved: false, current: to };
        if (from !== null && !present.some((l) => sameState(l, from))) {
            const current = only === undefined ? null : (stateOfLabel(only, allStates) ?? null);
            return { moved: false, current };
        }
        const next = labelsAfterMove(labels, allStates, to);
        await this.call(`set the labels of #${issue}`, 'issues: write', () => this.octokit.rest.issues.setLabels({ ...this.where, issue_number: issue, labels: next }));
        return { moved: true, current: to };
    }
    /** The labels on an issue, all of them (an issue rarely has more than one page). */
    async issueLabels(issue) {
        const labels = await this.call(`read the labels of #${issue}`, 'issues: read', () => this.octokit.paginate(this.octokit.rest.issues.listLabelsOnIssue, {
            ...this.where,
            issue_number: issue,
            per_page: 100
        }));
        return labels.map((l) => l.name);
    }
    /** Adds labels; returns every label the issue has afterwards. */
    async addLabels(issue, labels) {
        const { data } = await this.call(`add labels to #${issue}`, 'issues: write', () => this.octokit.rest.issues.addLabels({
            // Adding a label twice is the same as once.
            request: { idempotent: true },
            ...this.where,
            issue_number: issue,
            labels
        }));
        return data.map((l) => l.name);
    }
    /** Removes a label; a label the issue does not carry is not an error. */
    async removeLabel(issue, name) {
        await this.call(`remove a label from #${issue}`, 'issues: write', async () => {
            try {
                await this.octokit.rest.issues.removeLabel({ ...this.where, issue_number: issue, name });
            }
            catch (e) {
                if (!isHttpFailure(e) || e.status !== 404)
                    throw e;
            }
        });
    }
    async comment(issue, body) {
        const { data } = await this.call(`comment on #${issue}`, 'issues: write', () => this.octokit.rest.issues.createComment({ ...this.where, issue_number: issue, body }));
        return { id: data.id, url: data.html_url };
    }
    /**
     * The living comment for `marker`: the first comment a bot wrote whose first line is
     * `<!-- marker -->` (anyone can type the marker into a comment of their own, so people's
     * comments never count). Null when there is none yet.
     */
    async findComment(issue, marker) {
        const head = markerLine(marker);
        return this.call(`read the comments of #${issue}`, 'issues: read', async () => {
            const pages = this.octokit.paginate.iterator(this.octokit.rest.issues.listComments, {
                ...this.where,
                issue_number: issue,
                per_page: 100
            });
            for await (const { data } of pages) {
                const mine = data.find((c) => c.user?.type === 'Bot' && (c.body ?? '').split('\n', 1)[0]?.trim() === head);
                if (mine)
                    return { id: mine.id, url: mine.html_url, body: mine.body ?? '' };
            }
            return null;
        });
    }
    /**
     * Every comment on the issue whose first line is a `<!-- marker -->` line, with its author:
     * one listing serves the status record and every keyed comment of a job.
     */
    async markedComments(issue) {
        return this.call(`read the comments of #${issue}`, 'issues: read', async () => {
            const all = await this.octokit.paginate(this.octokit.rest.issues.listComments, {
                ...this.where,
                issue_number: issue,
                per_page: 100
            });
            const out = [];
            for (const c of all) {
                const m = MARKED.exec((c.body ?? '').split('\n', 1)[0]?.trim() ?? '');
                if (!m?.[1] || !c.user)
                    continue;
                out.push({
                    id: c.id,
                    url: c.html_url,
                    body: c.body ?? '',
                    marker: m[1],
                    author: c.user.login,
                    bot: c.user.type === 'Bot'
                });
            }
            return out;
        });
    }
    /** The login this token acts as (an installation token's bot, e.g. `my-app[bot]`). */
    async viewerLogin() {
        const data = await this.call('read who the token acts as', 'metadata: read', () => this.octokit.graphql('query { viewer { login } }', {
            // A query changes nothing.
            request: { idempotent: true }
        }));
        return data.viewer.login;
    }
    /**
     * Edits the living comment for `marker` in place, or creates it. Pass what `findComment`
     * returned to save reading the comments again; an unchanged body costs no write.
     */
    async upsertComment(issue, marker, body, known) {
        const full = `${markerLine(marker)}\n${body}`;
        const found = known === undefined ? await this.findComment(issue, marker) : known;
        if (!found)
            return this.comment(issue, full);
        if (found.body !== full) {
            await this.call(`update comment ${found.id}`, 'issues: write', () => this.octokit.rest.issues.updateComment({ ...this.where, comment_id: found.id, body: full }));
        }
        return { id: found.id, url: found.url };
    }
    /** Sends a repository_dispatch (unlike a label change, it starts workflows with GITHUB_TOKEN). */
    async dispatch(eventType, payload) {
        if (Object.keys(payload).length > DISPATCH_MAX_KEYS) {
            throw new Error(`a repository_dispatch payload holds at most ${DISPATCH_MAX_KEYS} keys`);
        }
        await this.call(`send the ${eventType} repository_dispatch`, 'contents: write', () => this.octokit.rest.repos.createDispatchEvent({
            // A wake-up sent twice is harmless (the second finds its step already run); one never
            // sent would stop the pipeline.
            request: { idempotent: true },
            ...this.where,
            event_type: eventType,
            client_payload: payload
        }));
    }
}
function markerLine(marker) {
    if (!github_MARKER.test(marker)) {
        throw new Error(`status comment marker ${JSON.stringify(marker)} is not a plain word`);
    }
    return `<!-- ${marker} -->`;
}
function explainCreate(e, head) {
    return explainFailure(e, `create a pull request for ${head}`, 'pull-requests: write');
}
function parseIssueNumber(id) {
    const m = /^#?([1-9][0-9]{0,9})$/.exec(id.trim());
    if (!m)
        throw new errors/* UserError */.yo(`${JSON.stringify(id)} is not a GitHub issue number; give it as 42 or #42`);
    return Number(m[1]);
}

// EXTERNAL MODULE: ./.build/pipeline/names.js
var names = __webpack_require__(9641);
;// CONCATENATED MODULE: ./.build/tracker/authorize.js
// Authorise the human, not the event: a label proves nothing (triage users and issue forms apply
// labels too), so whoever caused a stage must hold write, maintain or admin on the repository.
// Bots are refused unless WORKFLOW.md lists them by name; a listed bot is allowed.

const ALLOWED = ['admin', 'maintain', 'write'];
async function authorizeActor(o) {
    const who = JSON.stringify(o.actor);
    if (!o.actor)
        return { allowed: false, reason: 'the event names no actor to authorise' };
    if (isBot(o.actor, o.actorType)) {
        const listed = (o.allowedBots ?? []).some((b) => b.toLowerCase() === o.actor.toLowerCase());
        // An app's bot is not a collaborator, so the list is the whole decision for bots.
        if (listed)
            return { allowed: true };
        return {
            allowed: false,
            reason: `${who} is a bot and not in the allowed bots; add it there to let it start stages`
        };
    }
    const permission = await o.tracker.permissionOf(o.actor);
    if (ALLOWED.includes(permission))
        return { allowed: true };
    return {
        allowed: false,
        reason: permission === 'none'
            ? `${who} is not a collaborator on this repository; stages need write, maintain or admin`
            : `${who} has ${permission} permission on this repository; stages need write, maintain or admin`
    };
}

;// CONCATENATED MODULE: ./.build/tracker/github-port.js
// GitHub issues behind the pipeline's Tracker port: states are labels, the record lives in the
// one living status comment written by the token's own identity, keyed comments are found by
// their marker line, and the next stage is woken by repository_dispatch.






/** The first line of the one living status comment per issue. */
const STATUS_MARKER = 'itervox:status';
/** The identity of the default `GITHUB_TOKEN`. */
const ACTIONS_BOT = 'github-actions[bot]';
class GitHubPort {
    o;
    wakes;
    api;
    states;
    /** Per issue: the marked comments by this token's identity, and the living status comment. */
    seen = new Map();
    identity;
    constructor(o) {
        this.o = o;
        this.api = o.api;
        this.wakes = o.chain;
        this.states = knownStates(o.config);
    }
    authorize(trigger) {
        return authorizeActor({
            tracker: this.api,
            actor: trigger.actor.login,
            actorType: trigger.actor.type,
            // A repository_dispatch can only be sent with write access to this repository: the
            // pipeline's own wake-ups arrive from the job token's bot.
            allowedBots: [
                ...this.o.config.tracker.allowedBots,
                ...(trigger.source === 'wake' ? [ACTIONS_BOT] : [])
            ]
        });
    }
    getIssue(id) {
        return this.api.getIssue(id);
    }
    async branchFor(issue) {
        if (!issue.isPullRequest)
            return { branch: `itervox/${issue.id}` };
        const pull = await this.api.getPull(Number(issue.id));
        if (pull.headRepoFullName !== `${this.o.owner}/${this.o.repo}`) {
            return { deny: "the pull request's head is in a fork; stages never run on fork code" };
        }
        return { branch: pull.headRef };
    }
    /**
     * The record from the status comment written by the identity this token acts as. Anyone can
     * type the marker, and any other bot (renovate[bot], say) can post it: such comments are
     * ignored, so only the pipeline writes the pipeline's state.
     */
    async loadRecord(issue) {
        const number = Number(issue.id);
        const marked = (await this.api.markedComments(number)).filter((c) => c.bot);
        const mine = await this.byOurIdentity(marked);
        const living = mine.find((c) => c.marker === STATUS_MARKER) ?? null;
        this.seen.set(number, { keys: new Set(mine.map((c) => c.marker)), living });
        return living ? readRecordFromComment(living.body) : null;
    }
    async saveRecord(issue, record) {
        const number = Number(issue.id);
        const seen = this.seen.get(number);
        const status = renderStatusComment({
            config: this.o.config,
            record,
            issueRef: issue.identifier,
            marker: STATUS_MARKER,
            ...(this.o.warning ? { warning: this.o.warning } : {}),
            blobUrl: (path) => {
                const at = [...record.stages].reverse().find((s) => s.handoffPath === path)?.commit ?? 'HEAD';
                return this.blobUrl(at, path);
            }
        });
        // The marker line is added by the API wrapper.
        const body = status.split('\n').slice(1).join('\n');
        const written = await this.orCheck(number, STATUS_MARKER, () => this.api.upsertComment(number, STATUS_MARKER, body, seen ? seen.living : undefined));
        this.seen.set(number, {
            keys: seen?.keys ?? new Set([STATUS_MARKER]),
            living: { id: written.id, url: written.url, body: status }
        });
    }
    async moveState(issue, from, to) {
        const moved = await this.api.moveState(Number(issue.id), from, to, this.states);
        return { current: moved.current };
    }
    async comment(issue, c) {
        const target = c.pullRequest ?? Number(issue.id);
        const keys = c.pullRequest === undefined
            ? this.seen.get(target)?.keys
            : new Set((await this.byOurIdentity(await this.api.markedComments(target))).map((m) => m.marker));
        if (keys?.has(c.key))
            return;
        const who = c.agent ? `**${c.agent} (agent):**\n\n` : '';
        await this.orCheck(target, c.key, () => this.api.upsertComment(target, c.key, who + c.body, null));
        keys?.add(c.key);
    }
    /**
     * Runs a comment write; when its answer was lost, looks for the comment by its key and sends
     * it again only when it is not there, so a lost answer never posts twice.
     */
    async orCheck(target, key, write) {
        try {
            return await write();
        }
        catch (err) {
            if (faultKind(err) !== 'answer-lost')
                throw err;
            const mine = await this.byOurIdentity(await this.api.markedComments(target));
            const found = mine.find((m) => m.marker === key);
            return found ?? write();
        }
    }
    async setFlag(issue, flag, on) {
        if (on)
            await this.api.addLabels(Number(issue.id), [flag]);
        else
            await this.api.removeLabel(Number(issue.id), flag);
    }
    async wake(issue, w) {
        await this.api.dispatch(names/* DISPATCH_TYPE */.wb, {
            issue: issue.id,
            state: w.state,
            entry: w.entry,
            ...(w.step ? { step: w.step } : {})
        });
    }
    async publish(issue, o) {
        // The body is static (the trail is in the status comment and the files), so a pull request
        // the record already knows needs nothing.
        if (o.known !== undefined && !o.created) {
            return { pullRequest: { number: o.known, url: this.pullUrl(o.known) } };
        }
        try {
            const pr = await this.api.upsertDraftPr({
                head: o.branch,
                base: o.baseBranch,
                title: `itervox: ${issue.identifier} ${issue.title}`.slice(0, 250),
                body: `Pipeline branch for ${issue.identifier}, run by itervox handoff-action. Each stage's deliverable is under \`.itervox/handoff/\`; the issue's status comment lists them all.\n`,
                branchIsNew: o.created
            });
            return { pullRequest: { number: pr.number, url: pr.url } };
        }
        catch (err) {
            // The pipeline goes on without its pull request (e.g. when the repository forbids
            // Actions to open one); the job summary says why.
            return { problem: (0,errors/* messageOf */.bD)(err) };
        }
    }
    runLine() {
        return `[Run ${this.o.runId}](${this.o.runUrl})`;
    }
    replyHint() {
        return 'Reply in a comment (people with write access only); the stage resumes with your answer.';
    }
    blobUrl(commit, path) {
        return `${this.o.serverUrl}/${this.o.owner}/${this.o.repo}/blob/${commit}/${path}`;
    }
    pullUrl(number) {
        return `${this.o.serverUrl}/${this.o.owner}/${this.o.repo}/pull/${number}`;
    }
    /**
     * Marked comments by this token's identity. The default token is `github-actions[bot]`; only
     * when some other bot wrote a marker is the API asked who this token is (an App's bot).
     */
    async byOurIdentity(marked) {
        const bots = marked.filter((c) => c.bot);
        if (bots.every((c) => c.author === ACTIONS_BOT))
            return bots;
        this.identity ??= this.api.viewerLogin();
        const me = (await this.identity).toLowerCase();
        return bots.filter((c) => c.author.toLowerCase() === me);
    }
}

;// CONCATENATED MODULE: ./.build/action/agent-log.js


/**
 * Echoes an agent's output into the job log without letting it act on the runner. The runner
 * executes `::set-output`, `::save-state` and friends found at the start of any stdout line,
 * so every line is prefixed (a command must start the line) and the whole echo also sits
 * between `::stop-commands::` and a per-run random token the agent never sees. Each line goes
 * through `redact` first (the runner masks only the exact values it was told of).
 */
class AgentLogEcho {
    write;
    title;
    redact;
    token = (0,external_node_crypto_.randomBytes)(16).toString('hex');
    pending = '';
    open = false;
    constructor(write, title, redact) {
        this.write = write;
        this.title = title;
        this.redact = redact;
    }
    push(chunk) {
        this.pending += chunk;
        const lines = this.pending.split('\n');
        this.pending = lines.pop() ?? '';
        for (const line of lines)
            this.line(line);
    }
    close() {
        if (this.pending)
            this.line(this.pending);
        this.pending = '';
        if (this.open) {
            this.write(`::${this.token}::\n::endgroup::\n`);
            this.open = false;
        }
    }
    line(raw) {
        if (!this.open) {
            this.write(`::group::${this.title}\n::stop-commands::${this.token}\n`);
            this.open = true;
        }
        this.write(`│ ${this.redact((0,sanitize/* sanitizeUntrusted */._2)(raw).text)}\n`);
    }
}

;// CONCATENATED MODULE: ./.build/action/saved-context.js


/** The state key under which the main step tells the post step where the stage context is. */
const CONTEXT_STATE = 'context';
/**
 * Only a context file of our own user, that no other user can write, in a folder only we can
 * write: with isolation, nothing the agent user could have touched.
 */
function ownFile(path) {
    const uid = process.getuid?.();
    try {
        const file = lstatSync(path);
        const dir = lstatSync(dirname(path));
        return (file.isFile() &&
            file.uid === uid &&
            (file.mode & 0o022) === 0 &&
            dir.isDirectory() &&
            dir.uid === uid &&
            (dir.mode & 0o022) === 0);
    }
    catch {
        return false;
    }
}
/**
 * Whether the post step may have work to do: the main step saved a context of ours that does
 * not say `done`. A false answer is the one the full check (post-finish.ts) would give too: no
 * context, or one it would not read, or one that is done; it never trusts more than it.
 */
function unfinishedContext(path) {
    if (!path || !ownFile(path))
        return false;
    let value;
    try {
        value = JSON.parse(readFileSync(path, 'utf8'));
    }
    catch {
        return false;
    }
    return value?.phase !== 'done';
}

// EXTERNAL MODULE: ./.build/action/event.js
var action_event = __webpack_require__(4485);
;// CONCATENATED MODULE: ./.build/action/workflow-source.js




/**
 * WORKFLOW.md and the profile files it names, read from a commit of the default branch (never
 * the issue branch, where an agent could have edited them) through git objects only.
 */
async function loadWorkflowAt(repo, commit, workflowPath, env) {
    const objects = sharedObjects(repo);
    const text = await readRegularFile(objects, commit, workflowPath);
    if (text === null) {
        throw new errors/* UserError */.yo(`${workflowPath} is not on the default branch; commit it there (itervox-handoff init writes one) or set the workflow-file input`);
    }
    const opts = { file: workflowPath, env };
    // Which profile files WORKFLOW.md names is known only once it is parsed, and parsing wants
    // them at hand: the one pass stands in an empty text for each file and notes its path.
    // When the files are all there, their texts go into that pass's result; a missing file, or
    // any other mistake, takes a second pass, which reports every mistake.
    const wanted = new Set();
    let first;
    try {
        first = parseWorkflow(text, { ...opts, readFile: (p) => (wanted.add(p), '') });
    }
    catch {
        // Reported below.
    }
    const files = new Map();
    for (const p of wanted)
        files.set(p, await readRegularFile(objects, commit, p));
    if (first && [...files.values()].every((t) => t !== null)) {
        const profiles = withProfileTexts(first.config.agent.profiles, (p) => files.get(p) ?? '');
        const agent = { ...first.config.agent, profiles };
        return { ...first, config: { ...first.config, agent } };
    }
    return parseWorkflow(text, { ...opts, readFile: (p) => files.get(p) ?? null });
}
async function readRegularFile(objects, commit, path) {
    const slash = path.lastIndexOf('/');
    const dir = slash < 0 ? '' : path.slice(0, slash);
    // Only a plain relative path can name a committed file; parsing reports the others.
    const parts = slash < 0 ? [] : dir.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || /[\0\n\r]/.test(p)))
        return null;
    // The listing names the entry itself, so a symlink (or a path through one) is never followed.
    const listing = await objects.listTree(commit, dir);
    const entry = listing.entries.find((e) => e.name === path.slice(slash + 1));
    if (!entry || (entry.mode !== '100644' && entry.mode !== '100755'))
        return null;
    const blob = (await objects.readBlobs([entry.oid])).get(entry.oid);
    return blob ? blob.toString('utf8') : null;
}

;// CONCATENATED MODULE: ./.build/action/stage-job.js























// Cancellation gives the main step 7.5 s before SIGTERM: the agent gets a short grace so the
// commit and push still fit; the post step finishes whatever does not.
const CANCEL_GRACE_MS = 3000;
// The final text is capped where it is read; the log shows its start.
const MAX_RESULT_IN_LOG = 4000;
const NOT_ISOLATED = "isolation is none: the agent ran as the runner's user, with the job token and the runner's files within its reach; remove isolation: none to run it as a second user";
/** One GitHub event, through the one job loop: the GitHub adapter around `runJob`. */
async function runStageJob(s, signal) {
    try {
        return await stageJob(s, signal);
    }
    finally {
        await closeSharedObjects();
    }
}
async function stageJob(s, signal) {
    const started = Date.now();
    let secrets = maskedSecrets([], s.token);
    // Whatever the report says goes into the outputs, the summary and the log: none of it
    // may hold a secret, whoever wrote it.
    const report = (r) => secrets.redactDeep({
        refused: [],
        withheld: [],
        warnings: [],
        runUrl: s.runUrl,
        durationMs: Date.now() - started,
        ...r
    }).value;
    const info = (line) => core/* info */.pq(secrets.redact(line).text);
    const trigger = (0,action_event/* triggerFromEvent */.NO)(s.eventName, (0,action_event/* readEventOnce */.w8)(s.eventPath), {
        issue: s.issue,
        state: s.state
    });
    if (trigger.kind === 'skip')
        return report({ outcome: 'skipped', reason: trigger.reason });
    if (trigger.kind === 'deny')
        return report({ outcome: 'denied', reason: trigger.reason });
    if (trigger.pullRequest?.fork) {
        return report({
            outcome: 'denied',
            reason: "the pull request's head is in a fork; stages never run on fork code"
        });
    }
    const issueNumber = trigger.issue.replace(/^#/, '');
    if (!/^[1-9]\d{0,9}$/.test(issueNumber)) {
        throw new errors/* UserError */.yo(`issue "${trigger.issue}" is not an issue number; pass e.g. issue: 42`);
    }
    const defaultBranch = trigger.defaultBranch;
    if (!defaultBranch) {
        throw new errors/* UserError */.yo('the event payload names no default branch (repository.default_branch)');
    }
    const git = await minimumVersion();
    if (git.warning)
        core/* warning */.$e(git.warning);
    const auth = { serverUrl: s.serverUrl, token: s.token };
    const remoteUrl = `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}.git`;
    // The issue branch the stage will most likely work on is fetched with the default branch, in
    // one listing and one fetch; the workspace asks the remote again only if it is another.
    const likely = trigger.pullRequest?.headRef ?? `itervox/${issueNumber}`;
    const fetched = await fetchHeads({
        repo: s.workspace,
        branches: [
            defaultBranch,
            ...(await validateBranchName(likely).then(() => [likely], () => []))
        ],
        remoteUrl,
        auth
    });
    // WORKFLOW.md and the profiles come from the default branch, never from the issue branch.
    const trusted = fetched.heads.get(defaultBranch);
    if (!trusted) {
        throw new errors/* UserError */.yo(`the base branch "${defaultBranch}" does not exist on ${fetched.remote}`);
    }
    const { config, warnings } = await loadWorkflowAt(s.workspace, trusted, s.workflowFile, process.env);
    const configWarnings = warnings.map((w) => `${w.location.file}:${w.location.line}: ${w.message}`);
    // The profiles' `env` names more secrets: every variable any of them hands an agent.
    secrets = maskedSecrets(secretNamesOf(config), s.token);
    if (config.tracker.kind !== 'github') {
        throw new errors/* UserError */.yo(`${s.workflowFile}: tracker.kind is "${config.tracker.kind}"; the action works on GitHub issues, so set it to github`);
    }
    const api = new GitHubTracker({
        token: s.token,
        apiUrl: s.apiUrl,
        owner: s.repository.owner,
        repo: s.repository.repo,
        states: knownStates(config),
        log: info
    });
    const tracker = new GitHubPort({
        api,
        config,
        owner: s.repository.owner,
        repo: s.repository.repo,
        serverUrl: s.serverUrl,
        runId: s.runId,
        runUrl: s.runUrl,
        chain: s.chain,
        ...(s.isolation === 'none' ? { warning: NOT_ISOLATED } : {})
    });
    const workDir = (0,external_node_path_.join)(s.runnerTemp, 'itervox-handoff', `${s.runId}-${s.runAttempt}-${issueNumber}`);
    let isolation;
    const isolate = () => (isolation ??= isolationFor(s).then((iso) => {
        info(`the agent runs as ${iso.user.name} (uid ${iso.user.uid})${iso.closed.length ? `; closed to other users: ${iso.closed.join(', ')}` : ''}`);
        return iso;
    }));
    let echo;
    const seen = { events: 0, tools: 0, bytes: 0 };
    const r = await runJob({
        trigger: {
            source: trigger.source,
            issue: issueNumber,
            actor: trigger.actor,
            ...(trigger.label ? { label: trigger.label } : {}),
            ...(trigger.state ? { state: trigger.state } : {}),
            ...(trigger.wake ? { wake: trigger.wake } : {}),
            ...(trigger.reply ? { reply: trigger.reply } : {})
        },
        config,
        tracker,
        workspace: new RemoteWorkspace({
            repo: s.workspace,
            baseBranch: config.workspace.baseBranch ?? defaultBranch,
            auth,
            fetched
        }),
        run: { id: s.runId, attempt: s.runAttempt, url: s.runUrl },
        workDir,
        workflowPath: s.workflowFile,
        trustedCommit: trusted,
        parentEnv: process.env,
        secrets,
        ...(s.isolation === 'user' ? { isolate } : {}),
        signal,
        killGraceMs: CANCEL_GRACE_MS,
        dryRun: s.dryRun,
        log: info,
        onStart: ({ issue, state, plan, branch, recovered }) => {
            info(`${issue.identifier} is in "${state}": ${plan.kind === 'review' ? 'review by' : 'profile'} ${plan.profile}` +
                (plan.attempt > 0 ? `, attempt ${plan.attempt + 1}` : '') +
                (plan.reply ? `, resumed by @${plan.reply.author}'s reply` : '') +
                ` on ${branch}`);
            if (recovered)
                return;
            core/* saveState */.LZ(CONTEXT_STATE, contextPathOf(workDir));
            if (s.showAgentOutput) {
                const title = `agent output (${plan.profile}, secrets masked)`;
                echo = new AgentLogEcho((t) => process.stdout.write(t), title, secrets.lines());
            }
            else {
                info(`the agent's output goes to ${(0,external_node_path_.join)(workDir, 'agent.log')} on the runner only; show-agent-output: true prints it here, secrets masked`);
            }
        },
        onActivity: (e) => {
            if (e.kind === 'output' && e.text) {
                seen.bytes += Buffer.byteLength(e.text);
                echo?.push(e.text);
            }
            if (e.kind === 'event') {
                seen.events++;
                if (e.text?.startsWith('tool '))
                    seen.tools++;
            }
        }
    });
    echo?.close();
    if (r.agentStats)
        logAgentEnd(r, seen, secrets);
    info(`GitHub API requests: ${api.requestCount}`);
    return report({
        ...reportOf(r, s),
        warnings: [
            ...(s.isolation === 'none' && r.plan ? [NOT_ISOLATED] : []),
            ...configWarnings,
            ...r.warnings
        ],
        ...(r.next ? { status: statusOf(r, config) } : {})
    });
}
/**
 * What the log shows of an agent by default: how much it said, how it ended, and its final
 * text (the result event), masked and unable to run workflow commands.
 */
function logAgentEnd(r, seen, secrets) {
    const stats = r.agentStats;
    const figures = [
        `${seen.bytes} bytes of output`,
        ...(seen.events ? [`${seen.events} events (${seen.tools} tool calls)`] : []),
        ...(stats?.turns !== undefined ? [`${stats.turns} turns`] : [])
    ];
    core/* info */.pq(secrets.redact(`agent ended ${r.outcome}: ${figures.join(', ')}`).text);
    if (!r.resultText)
        return;
    const result = new AgentLogEcho((t) => process.stdout.write(t), `agent result (${r.plan?.profile ?? 'agent'}, secrets masked)`, secrets.lines());
    result.push((0,untrusted_text/* clip */.$Q)(r.resultText, MAX_RESULT_IN_LOG));
    result.close();
}
/** The agent user, and the runner's own folders closed to it. */
function isolationFor(s) {
    if (process.platform !== 'linux') {
        throw new errors/* UserError */.yo(`isolation: user runs the agent as a second Unix user on Linux runners only; this one is ${process.platform}, so set isolation: none`);
    }
    const home = process.env.HOME;
    const installation = runnerInstallation(process.execPath);
    return startIsolation({
        user: s.agentUser,
        protect: [
            ...(home ? [home] : []),
            (0,external_node_path_.dirname)(s.workspace),
            s.workspace,
            s.runnerTemp,
            ...(installation ? [installation] : [])
        ]
    });
}
function reportOf(r, s) {
    let next = r.summary ?? (r.next ? effects_describe(r.next) : undefined);
    if (next &&
        s.chain === 'none' &&
        r.next &&
        r.next.kind !== 'stop' &&
        r.next.kind !== 'escalate' &&
        r.next.kind !== 'wait') {
        next += '; chain is none: start the next stage by hand';
    }
    const blob = (commit, path) => `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}/blob/${commit}/${path}`;
    return {
        outcome: r.outcome,
        reason: r.reason,
        ...(r.issue ? { issue: r.issue.id, issueUrl: r.issue.url } : {}),
        ...(r.state ? { state: r.state } : {}),
        ...(r.plan ? { profile: r.plan.profile } : {}),
        ...(r.branch ? { branch: r.branch } : {}),
        ...(r.commit ? { commit: r.commit } : {}),
        ...(r.handoffPath ? { handoffPath: r.handoffPath } : {}),
        ...(r.handoffPath && r.commit ? { handoffUrl: blob(r.commit, r.handoffPath) } : {}),
        ...(r.pullRequest ? { pullRequest: r.pullRequest } : {}),
        ...(r.next?.kind === 'move' && r.stateAfter ? { nextState: r.stateAfter } : {}),
        ...(r.next?.kind === 'escalate' && r.next.to ? { nextState: r.next.to } : {}),
        ...(next ? { next } : {}),
        ...(r.figures ? { figures: r.figures } : {}),
        ...(r.prompt !== undefined ? { prompt: r.prompt } : {}),
        ...(r.agentStats ? { agentStats: r.agentStats } : {}),
        ...(r.failure ? { failure: r.failure } : {}),
        ...(r.unsaved ? { unsaved: r.unsaved } : {}),
        refused: r.refused,
        withheld: r.withheld
    };
}
function statusOf(r, config) {
    if (!r.record)
        return undefined;
    return `### Pipeline\n\n\`\`\`mermaid\n${pipelineDiagram(config, r.record.state)}\n\`\`\`\n\n${stageTable(r.record)}`;
}

;// CONCATENATED MODULE: ./.build/action/main-step.js








/** The main step, once main.ts has said what it starts: the stage, its report and outputs. */
async function mainStep() {
    const controller = new AbortController();
    // On cancel the runner sends SIGINT, then SIGTERM 7.5 s later, to this process only: the
    // agent's process group is ended here and its work saved (the post step finishes the rest).
    const onSignal = (signal) => {
        if (controller.signal.aborted)
            return;
        core/* warning */.$e(`received ${signal}: ending the agent and saving its work as a partial`);
        controller.abort();
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    try {
        const report = await runStageJob(readSettings(), controller.signal);
        core/* info */.pq(`outcome: ${report.outcome}${report.reason ? ` (${(0,untrusted_text/* oneLine */.TN)(report.reason)})` : ''}`);
        await publishReport(report);
        if (isUnfinished(report.outcome)) {
            core/* setFailed */.C1(`stage ${report.outcome}: ${(0,untrusted_text/* oneLine */.TN)(report.reason)}`);
        }
        else if (report.failure) {
            core/* setFailed */.C1((0,untrusted_text/* oneLine */.TN)(report.failure));
        }
    }
    catch (err) {
        // The runner's masks cover known values; a key recognised by its shape needs the scanner.
        const secrets = maskedSecrets([], core/* getInput */.V4('github-token'));
        const failure = failureLine(err);
        const message = secrets.redact((0,untrusted_text/* oneLine */.TN)(failure.line)).text;
        if (failure.ours)
            core/* debug */.Yz(secrets.redact(err?.stack ?? String(err)).text);
        await publishReport({
            outcome: 'failed',
            reason: message,
            refused: [],
            withheld: [],
            warnings: []
        }).catch(() => { });
        core/* setFailed */.C1(message);
    }
}


/***/ })

};
