export const id = 902;
export const ids = [902];
export const modules = {

/***/ 5902:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  reconcileRepository: () => (/* binding */ reconcileRepository),
  summaryLine: () => (/* binding */ summaryLine)
});

// EXTERNAL MODULE: ./.build/config/lookup.js
var lookup = __webpack_require__(5351);
// EXTERNAL MODULE: ./.build/errors.js
var errors = __webpack_require__(9243);
// EXTERNAL MODULE: ./.build/pipeline/job-timeout.js
var job_timeout = __webpack_require__(8696);
// EXTERNAL MODULE: ./.build/pipeline/record.js
var record = __webpack_require__(2108);
;// CONCATENATED MODULE: ./.build/pipeline/stage-owed.js


/**
 * What the scheduled reconcile starts for an issue in `state`, judged from its record alone:
 * the stage of an entry no job has run (a label event that started nothing, a wake-up that was
 * lost or queued), the same-state step the record asks for, or the effects of a decision that
 * were never carried out. A wake-up sent for nothing is harmless (plan.ts skips it); one never
 * sent leaves the pipeline stopped. Pure.
 */
function owedWake(o) {
    const { config, state } = o;
    if (!state)
        return { skip: 'carries no state' };
    const automation = (0,lookup/* findAutomation */.B2)(config, state);
    if (!automation)
        return { skip: `no automation starts in "${state}"` };
    if (!config.agent.profiles[automation.profile]?.enabled) {
        return { skip: `profile ${automation.profile} is disabled` };
    }
    const r = o.record ?? (0,record/* emptyRecord */.FR)();
    if (r.owed && owesEffects(r, state)) {
        const run = r.owed.run;
        const wake = r.owed.effects.find((e) => e.kind === 'wake');
        const key = `${r.entry}-o-${word(run)}`;
        const why = `owes what run ${run} decided`;
        // The job finishes the owed effects first (the move among them), then runs the stage
        // their wake-up was for.
        if (wake)
            return { wake: wakeOf(wake), key, why };
        return { wake: { state, entry: r.entry }, key, why };
    }
    if (r.state === null || !(0,lookup/* sameState */.yY)(r.state, state)) {
        // Only a person's move puts the issue in a state its record did not enter.
        const entry = r.entry + 1;
        return {
            wake: { state, entry },
            key: String(entry),
            why: `no stage started on entering "${state}"`
        };
    }
    if (r.halted !== undefined)
        return { skip: 'the pipeline stopped; a person decides what next' };
    if (r.waiting?.entry === r.entry)
        return { skip: 'a stage waits for an answer' };
    const inEntry = r.stages.filter((s) => s.entry === r.entry);
    const c = r.continuation;
    if (c && c.entry === r.entry && (0,lookup/* sameState */.yY)(c.state, state)) {
        const profile = c.kind === 'review' ? (config.agent.reviewerProfile ?? c.profile) : c.profile;
        const ran = inEntry.some((s) => s.kind === c.kind && s.profile === profile && s.attempt === c.attempt && s.round === c.round);
        if (ran)
            return { skip: 'the step the record asks for ran' };
        // A continuation without a step name is from before wake-ups named theirs: none matches it.
        if (c.step === undefined)
            return { skip: 'the step the record asks for has no wake-up name' };
        return {
            wake: { state, entry: r.entry, step: c.step },
            key: `${r.entry}-s-${word(c.step)}`,
            why: `${c.kind === 'review' ? 'a review' : `attempt ${c.attempt}`} by ${profile} is due`
        };
    }
    if (inEntry.length === 0) {
        return {
            wake: { state, entry: r.entry },
            key: String(r.entry),
            why: 'no stage ran for this entry'
        };
    }
    return { skip: 'a stage finished for this entry' };
}
/**
 * The decision's effects are known to have failed, or its move was never made (the job ended
 * between writing the record and moving the issue, which is still where the move starts).
 */
function owesEffects(r, state) {
    if (r.halted?.startsWith(record/* HALTED_ON_EFFECTS */._Y))
        return true;
    return (r.owed?.effects ?? []).some((e) => e.kind === 'move' && (0,lookup/* sameState */.yY)(e.from, state) && !(0,lookup/* sameState */.yY)(e.to, state));
}
function wakeOf(e) {
    return { state: e.state, entry: e.entry, ...(e.step ? { step: e.step } : {}) };
}
/** A run id or step name as one word of a git ref. */
function word(text) {
    return text.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 80);
}

// EXTERNAL MODULE: ./.build/pipeline/untrusted-text.js
var untrusted_text = __webpack_require__(3935);
// EXTERNAL MODULE: external "node:crypto"
var external_node_crypto_ = __webpack_require__(7598);
// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 17 modules
var schemas = __webpack_require__(8816);
;// CONCATENATED MODULE: ./.build/tracker/dispatch-claims.js
// Claims on wake-ups, as refs in the repository (github-refs.ts): `refs/itervox/dispatch/
// <issue>/<key>` is created, create-only, before the reconcile sends that wake-up, so of two
// reconciles that overlap only one sends it. A claim older than a stage's job may take is taken
// over by a fast-forward from the head read (a lost wake-up is sent again later, once); a claim
// whose wake-up was served is deleted by the next reconcile.


const PREFIX = 'dispatch/';
const CLAIM = /^dispatch\/([1-9][0-9]{0,9})\/([A-Za-z0-9_-]{1,100})$/;
/** A holder's document: when it claimed, and which run. Read back as untrusted. */
const holderSchema = schemas/* object */.Ikc({ at: schemas/* string */.YjP().max(40), by: schemas/* string */.YjP().max(200) });
function refClaims(o) {
    const by = `${o.by} ${(0,external_node_crypto_.randomUUID)()}`.slice(0, 200);
    const now = o.now ?? (() => new Date());
    /** Heads listed by `held`: a claim known to exist is read, never created again. */
    const heads = new Map();
    let tree;
    return {
        async held() {
            const out = [];
            for (const h of await o.refs.list(PREFIX)) {
                const m = CLAIM.exec(h.ref);
                if (!m)
                    continue;
                heads.set(h.ref, h.sha);
                out.push({ issue: Number(m[1]), key: m[2] });
            }
            return out;
        },
        async take(issue, key) {
            const ref = `${PREFIX}${issue}/${key}`;
            const at = now();
            const doc = { at: at.toISOString(), by };
            let head = heads.get(ref);
            if (head === undefined) {
                tree ??= o.tree();
                if (await o.refs.create(ref, doc, { tree: await tree, at: doc.at }))
                    return true;
                head = (await o.refs.list(ref)).find((h) => h.ref === ref)?.sha;
                // Dropped between our create and our look: its wake-up was served.
                if (head === undefined)
                    return false;
            }
            const holder = await o.refs.read(head, holderSchema);
            const since = holder.data ? at.getTime() - Date.parse(holder.data.at) : Number.NaN;
            // A document that is not ours, or a time that is not one, holds nothing back.
            if (since <= o.staleAfterMs)
                return false;
            return (await o.refs.advance(ref, head, doc, { tree: holder.tree, at: doc.at })) !== undefined;
        },
        async drop(issue, key) {
            await o.refs.remove(`${PREFIX}${issue}/${key}`);
        }
    };
}

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js
var github = __webpack_require__(1351);
// EXTERNAL MODULE: ./node_modules/@actions/github/lib/utils.js + 20 modules
var utils = __webpack_require__(8665);
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

// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
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
                await (0,promises_.setTimeout)(wait * policy.secondMs);
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

;// CONCATENATED MODULE: ./.build/tracker/github-commits.js


const CREATE_COMMIT = `mutation ($input: CreateCommitOnBranchInput!) {
  createCommitOnBranch(input: $input) { commit { oid } }
}`;
const isGraphqlFailure = (e) => e instanceof Error && e.name === 'GraphqlResponseError';
class GitHubCommitSigner {
    octokit;
    where;
    constructor(octokit, where) {
        this.octokit = octokit;
        this.where = where;
    }
    async createCommit(c) {
        const doing = `create the stage's commit on ${c.branch}`;
        try {
            const data = await this.octokit.graphql(CREATE_COMMIT, {
                input: {
                    branch: {
                        repositoryNameWithOwner: `${this.where.owner}/${this.where.repo}`,
                        branchName: c.branch
                    },
                    expectedHeadOid: c.expectedHeadOid,
                    message: { headline: c.headline, ...(c.body ? { body: c.body } : {}) },
                    fileChanges: c.fileChanges
                },
                // Sent twice, the second finds the branch moved by the first: the caller sees its
                // own change there and takes it.
                request: { idempotent: true }
            });
            return { kind: 'ok', oid: data.createCommitOnBranch.commit.oid };
        }
        catch (e) {
            if (isGraphqlFailure(e)) {
                const errors = e.errors ?? [];
                if (errors.some((x) => x.type === 'STALE_DATA'))
                    return { kind: 'moved' };
                const said = errors.map((x) => x.message ?? x.type ?? '').join('; ');
                const hint = errors.some((x) => x.type === 'FORBIDDEN')
                    ? '; the token needs `permissions: contents: write`'
                    : '';
                return { kind: 'refused', why: `GitHub refused to ${doing}: ${said}${hint}` };
            }
            const err = explainFailure(e, doing, 'contents: write');
            const transient = err instanceof GitHubUnavailableError || err instanceof GitHubRateLimitedError;
            return { kind: transient ? 'transient' : 'refused', why: (0,errors/* messageOf */.bD)(err) };
        }
    }
}

;// CONCATENATED MODULE: ./.build/tracker/github-refs.js

/** Every record lives under this namespace; `ref` arguments are relative to it. */
const NAMESPACE = 'refs/itervox/';
/** A record's JSON is read back from a commit anyone with push access could have made. */
const MAX_MESSAGE_CHARS = 4096;
/** Who the record commits are by; a fixed identity and date make a commit's sha repeatable. */
const IDENT = { name: 'itervox-handoff', email: 'itervox-handoff@users.noreply.github.com' };
const PERMISSION = 'contents: write';
class GitHubRefs {
    octokit;
    where;
    constructor(octokit, where) {
        this.octokit = octokit;
        this.where = where;
    }
    /** The records whose ref starts with `prefix` (one request). */
    async list(prefix) {
        const full = NAMESPACE + prefix;
        const data = await this.call(`list the refs ${full}`, 'contents: read', async () => {
            const res = await this.octokit.rest.git.listMatchingRefs({
                ...this.where,
                ref: full.slice('refs/'.length)
            });
            return res.data;
        });
        return data
            .filter((r) => r.ref.startsWith(full) && r.object.type === 'commit')
            .map((r) => ({ ref: r.ref.slice(NAMESPACE.length), sha: r.object.sha }));
    }
    /** The commit `sha` and the document in its message (one request). */
    async read(sha, schema) {
        const data = await this.call(`read the record commit ${sha}`, 'contents: read', async () => {
            const res = await this.octokit.rest.git.getCommit({ ...this.where, commit_sha: sha });
            return res.data;
        });
        return { sha: data.sha, tree: data.tree.sha, data: parseRecord(data.message, schema) };
    }
    /** The tree of a commit known to exist, for the first commit of a new record (one request). */
    async treeOf(commit) {
        const data = await this.call(`read the commit ${commit}`, 'contents: read', async () => {
            const res = await this.octokit.rest.git.getCommit({ ...this.where, commit_sha: commit });
            return res.data;
        });
        return data.tree.sha;
    }
    /**
     * Creates the record `ref` holding `doc` (two requests). Returns the new head, or undefined
     * when the ref already exists (someone else holds it).
     */
    async create(ref, doc, w) {
        const sha = await this.commit(doc, w, []);
        const full = NAMESPACE + ref;
        try {
            await this.octokit.rest.git.createRef({ ...this.where, ref: full, sha });
            return sha;
        }
        catch (e) {
            if (isHttpFailure(e) && e.status === 422 && /already exists/i.test(apiMessage(e))) {
                return undefined;
            }
            const err = explainFailure(e, `create the ref ${full}`, PERMISSION);
            // The answer was lost, not the write: the ref says whether it was made, and by whom.
            if (err instanceof GitHubAnswerLostError)
                return (await this.head(ref)) === sha ? sha : undefined;
            throw err;
        }
    }
    /**
     * Moves the record `ref` from the head `from` to a child of it holding `doc` (two requests).
     * Returns the new head, or undefined when the ref is no longer at `from` (or is gone).
     */
    async advance(ref, from, doc, w) {
        const sha = await this.commit(doc, w, [from]);
        const full = NAMESPACE + ref;
        try {
            await this.octokit.rest.git.updateRef({
                ...this.where,
                ref: full.slice('refs/'.length),
                sha,
                force: false
            });
            return sha;
        }
        catch (e) {
            if (isHttpFailure(e) &&
                e.status === 422 &&
                /not a fast.forward|does not exist/i.test(apiMessage(e))) {
                return undefined;
            }
            throw explainFailure(e, `update the ref ${full}`, PERMISSION);
        }
    }
    /** Deletes the record `ref`; false when it did not exist (one request). */
    async remove(ref) {
        const full = NAMESPACE + ref;
        try {
            await this.octokit.rest.git.deleteRef({ ...this.where, ref: full.slice('refs/'.length) });
            return true;
        }
        catch (e) {
            if (isHttpFailure(e) && e.status === 422 && /does not exist/i.test(apiMessage(e))) {
                return false;
            }
            throw explainFailure(e, `delete the ref ${full}`, PERMISSION);
        }
    }
    async head(ref) {
        return (await this.list(ref)).find((h) => h.ref === ref)?.sha;
    }
    commit(doc, w, parents) {
        const ident = { ...IDENT, date: w.at };
        return this.call('create a record commit', PERMISSION, async () => {
            const res = await this.octokit.rest.git.createCommit({
                ...this.where,
                message: JSON.stringify(doc),
                tree: w.tree,
                parents,
                author: ident,
                committer: ident,
                // Same content, same sha: a retried create cannot make a second commit.
                request: { idempotent: true }
            });
            return res.data.sha;
        });
    }
    async call(doing, permission, fn) {
        try {
            return await fn();
        }
        catch (e) {
            throw explainFailure(e, doing, permission);
        }
    }
}
/** The document in a record commit's message; undefined when it is not one `schema` accepts. */
function parseRecord(message, schema) {
    if (message.length > MAX_MESSAGE_CHARS)
        return undefined;
    let json;
    try {
        json = JSON.parse(message);
    }
    catch {
        return undefined;
    }
    const parsed = schema.safeParse(json);
    return parsed.success ? parsed.data : undefined;
}

;// CONCATENATED MODULE: ./.build/tracker/label-states.js
// On GitHub every state is a label, matched case-insensitively (itervox's convention). These
// pure rules read the state from an issue's labels and compute the labels after a move.


/** The known state a label stands for, spelled as WORKFLOW.md spells it; undefined if none. */
function stateOfLabel(label, states) {
    return states.find((s) => (0,lookup/* sameState */.yY)(s, label));
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
const MARKER = /^[A-Za-z0-9][A-Za-z0-9:._-]*$/;
const MARKED = /^<!-- ([A-Za-z0-9][A-Za-z0-9:._-]*) -->$/;
const DISPATCH_MAX_KEYS = 10;
const READY_MUTATION = `mutation ($id: ID!, $body: String!) {
  updatePullRequest(input: { pullRequestId: $id, body: $body }) { pullRequest { number } }
  markPullRequestReadyForReview(input: { pullRequestId: $id }) { pullRequest { isDraft } }
}`;
class GitHubTracker {
    octokit;
    countRequests;
    owner;
    repo;
    states;
    whoAmI;
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
    /** Has GitHub create (and sign) stage commits, through this client's requests. */
    commitSigner() {
        return new GitHubCommitSigner(this.octokit, this.where);
    }
    /** Whether a workflow run has ended: completed, or unknown to GitHub (deleted). */
    async workflowRunEnded(runId) {
        try {
            const { data } = await this.octokit.rest.actions.getWorkflowRun({
                ...this.where,
                run_id: Number(runId)
            });
            return data.status === 'completed';
        }
        catch (e) {
            if (isHttpFailure(e) && e.status === 404)
                return true;
            throw explainFailure(e, `read workflow run ${runId}`, 'actions: read');
        }
    }
    /** Records kept as refs in the repository, through this client's requests. */
    refs() {
        return new GitHubRefs(this.octokit, this.where);
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
        return this.issueFrom(data);
    }
    /**
     * The open issues and pull requests carrying `label`, 100 to a request. (GitHub matches
     * label names in any case, as states are matched.)
     */
    async openIssuesLabelled(label) {
        const list = await this.call(`list the issues labelled "${label}"`, 'issues: read', () => this.octokit.paginate(this.octokit.rest.issues.listForRepo, {
            ...this.where,
            state: 'open',
            labels: label,
            per_page: 100
        }));
        return list.map((data) => {
            try {
                return this.issueFrom(data);
            }
            catch (e) {
                // One issue's labels (two states, say) are that issue's problem, not the listing's.
                if (e instanceof errors/* UserError */.yo)
                    return { number: data.number, problem: e.message };
                throw e;
            }
        });
    }
    issueFrom(data) {
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
    /** The commit the branch points at (one request). */
    async branchHead(branch) {
        const { data } = await this.call(`read the head of ${branch}`, 'contents: read', () => this.octokit.rest.git.listMatchingRefs({ ...this.where, ref: `heads/${branch}` }));
        const head = data.find((r) => r.ref === `refs/heads/${branch}`);
        if (!head)
            throw new errors/* UserError */.yo(`branch ${branch} does not exist in ${this.owner}/${this.repo}`);
        return head.object.sha;
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
            state: data.state,
            nodeId: data.node_id
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
        return pr
            ? { number: pr.number, url: pr.html_url, nodeId: pr.node_id, body: pr.body, created: false }
            : undefined;
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
        return { number: data.number, url: data.html_url, nodeId: data.node_id, created: true };
    }
    async updatePullBody(pr, body) {
        if (pr.body !== body) {
            await this.call(`update pull request #${pr.number}`, 'pull-requests: write', () => this.octokit.rest.pulls.update({ ...this.where, pull_number: pr.number, body }));
        }
        return { number: pr.number, url: pr.url, nodeId: pr.nodeId, created: false };
    }
    /**
     * Gives the pull request `body` and takes it out of draft, in one GraphQL request (REST
     * cannot change `draft`). A pull request that is no longer a draft is left as it is.
     */
    async readyPull(nodeId, body) {
        await this.call('mark the pull request ready for review', 'pull-requests: write', () => this.octokit.graphql(READY_MUTATION, {
            id: nodeId,
            body,
            // Both fields set a value, so sending them again changes nothing.
            request: { idempotent: true }
        }));
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
        if (only !== undefined && (0,lookup/* sameState */.yY)(only, to))
            return { moved: false, current: to };
        if (from !== null && !present.some((l) => (0,lookup/* sameState */.yY)(l, from))) {
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
        return (await this.viewer()).login;
    }
    /** Who the token acts as: an App's bot (`my-app[bot]`), a user, or github-actions[bot]. */
    async viewer() {
        this.whoAmI ??= this.call('read who the token acts as', 'metadata: read', () => this.octokit.graphql('query { viewer { login databaseId } }', 
        // A query changes nothing.
        { request: { idempotent: true } })).then((data) => data.viewer);
        return this.whoAmI;
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
    if (!MARKER.test(marker)) {
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

// EXTERNAL MODULE: ./.build/config/load.js + 9 modules
var load = __webpack_require__(8378);
// EXTERNAL MODULE: ./.build/pipeline/names.js
var names = __webpack_require__(9641);
// EXTERNAL MODULE: ./.build/pipeline/status-view.js + 1 modules
var status_view = __webpack_require__(5665);
// EXTERNAL MODULE: ./.build/pipeline/actor.js
var actor = __webpack_require__(9504);
;// CONCATENATED MODULE: ./.build/tracker/authorize.js
// Authorise the human, not the event: a label proves nothing (triage users and issue forms apply
// labels too), so whoever caused a stage must hold write, maintain or admin on the repository.
// Bots are refused unless WORKFLOW.md lists them by name; a listed bot is allowed.


const ALLOWED = ['admin', 'maintain', 'write'];
async function authorizeActor(o) {
    if (!o.actor)
        return { allowed: false, reason: 'the event names no actor to authorise' };
    // The login as GitHub shows it; whoever shows the reason escapes it.
    const who = `@${(0,untrusted_text/* oneLine */.TN)(o.actor)}`;
    if ((0,actor/* isBot */.w)(o.actor, o.actorType)) {
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
/**
 * The pull request's body is fixed (the trail is in the status comment and the files) until the
 * pipeline completes; then it closes the issue when merged.
 */
function pullBody(issue, complete) {
    const text = `Pipeline branch for ${issue.identifier}, run by itervox handoff-action. Each stage's deliverable is under \`.itervox/handoff/\`; the issue's status comment lists them all.\n`;
    return complete ? `${text}\nCloses ${issue.identifier}\n` : text;
}
class GitHubPort {
    o;
    wakes;
    api;
    states;
    /** Per issue: the marked comments by this token's identity, and the living status comment. */
    seen = new Map();
    constructor(o) {
        this.o = o;
        this.api = o.api;
        this.wakes = o.chain;
        this.states = (0,load/* knownStates */.uv)(o.config);
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
        return living ? (0,status_view/* readRecordFromComment */.Tb)(living.body) : null;
    }
    async saveRecord(issue, record) {
        const number = Number(issue.id);
        const seen = this.seen.get(number);
        const status = (0,status_view/* renderStatusComment */.uc)({
            config: this.o.config,
            record,
            issueRef: issue.identifier,
            marker: STATUS_MARKER,
            ...(this.o.warning ? { warning: this.o.warning } : {}),
            blobUrl: (commit, path) => this.blobUrl(commit, path)
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
        await sendWake(this.api, issue.id, w);
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
                body: pullBody(issue, false),
                branchIsNew: o.created
            });
            return { pullRequest: { number: pr.number, url: pr.url, node: pr.nodeId } };
        }
        catch (err) {
            // The pipeline goes on without its pull request (e.g. when the repository forbids
            // Actions to open one); the job summary says why.
            return { problem: (0,errors/* messageOf */.bD)(err) };
        }
    }
    async readyForReview(issue, pr) {
        const node = pr.node ?? (await this.api.getPull(pr.number)).nodeId;
        await this.api.readyPull(node, pullBody(issue, true));
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
        // The tracker asks once and keeps the answer.
        const me = (await this.api.viewerLogin()).toLowerCase();
        return bots.filter((c) => c.author.toLowerCase() === me);
    }
}
/** The pipeline's wake-up of an issue's stage: a repository_dispatch naming its entry. */
async function sendWake(api, issue, w) {
    await api.dispatch(names/* DISPATCH_TYPE */.wb, {
        issue,
        state: w.state,
        entry: w.entry,
        ...(w.step ? { step: w.step } : {})
    });
}

;// CONCATENATED MODULE: ./.build/tracker/github-reconcile.js
// The scheduled reconcile for GitHub issues: every open issue in a state that starts an
// automation is read once (its status comment's record), and what its record says it is owed
// (stage-owed.ts) is started by the same repository_dispatch the pipeline's own wake-up sends,
// once per owed step even when two reconciles overlap: a claim is taken before the dispatch.








async function reconcileIssues(o) {
    const { api, log } = o;
    const first = api.requestCount;
    const held = o.dryRun ? [] : await o.claims.held();
    /** Per issue looked at: the key of the wake-up it is owed (null: none); absent when it failed. */
    const owed = new Map();
    const failedIssues = new Set();
    let started = 0;
    for (const state of startStates(o.config)) {
        if (state.includes(',')) {
            // GitHub's label filter splits its value at commas.
            log(`"${state}": not looked at: a state label with a comma cannot be listed; rename it`);
            continue;
        }
        for (const found of await api.openIssuesLabelled(state)) {
            const n = 'problem' in found ? found.number : Number(found.id);
            if (owed.has(n) || failedIssues.has(n))
                continue;
            const before = api.requestCount;
            const cost = () => `${api.requestCount - before} requests`;
            if ('problem' in found) {
                // Nothing of this issue is started until a person makes its state clear.
                owed.set(n, null);
                log(`#${n}: not started: ${(0,untrusted_text/* oneLine */.TN)(found.problem)}`);
                continue;
            }
            const at = `#${n} ${found.state ?? state}`;
            try {
                const record = await o.port.loadRecord(found);
                const need = owedWake({ config: o.config, state: found.state, record });
                if ('skip' in need) {
                    owed.set(n, null);
                    log(`${at}: nothing to start (${need.skip}); ${cost()}`);
                    continue;
                }
                owed.set(n, need.key);
                const what = `${need.wake.state}, entry ${need.wake.entry}${need.wake.step ? `, step ${need.wake.step}` : ''}`;
                if (o.dryRun) {
                    started++;
                    log(`${at}: would start ${what} (${need.why})`);
                    continue;
                }
                if (!(await o.claims.take(n, need.key))) {
                    log(`${at}: another reconcile started ${what}; ${cost()}`);
                    continue;
                }
                await o.port.wake(found, need.wake);
                started++;
                log(`${at}: started ${what} (${need.why}); ${cost()}`);
            }
            catch (err) {
                failedIssues.add(n);
                owed.delete(n);
                log(`${at}: failed: ${(0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(err))}; ${cost()}`);
            }
        }
    }
    // A claim whose issue is now owed something else (or nothing, or is no longer open in a
    // state that starts a stage) was served: the next need has another key.
    for (const c of held) {
        if (failedIssues.has(c.issue) || owed.get(c.issue) === c.key)
            continue;
        try {
            await o.claims.drop(c.issue, c.key);
        }
        catch (err) {
            log(`#${c.issue}: the claim ${c.key} stays: ${(0,untrusted_text/* oneLine */.TN)((0,errors/* messageOf */.bD)(err))}`);
        }
    }
    return {
        issues: owed.size + failedIssues.size,
        started,
        failed: failedIssues.size,
        requests: api.requestCount - first
    };
}
/** The reconcile for one repository, with the GitHub client, port and claims it needs. */
function reconcileRepository(o) {
    const api = new GitHubTracker({
        ...o.client,
        owner: o.owner,
        repo: o.repo,
        states: (0,lookup/* knownStates */.uv)(o.config)
    });
    const port = new GitHubPort({
        api,
        config: o.config,
        owner: o.owner,
        repo: o.repo,
        serverUrl: o.serverUrl,
        runId: o.by,
        runUrl: o.serverUrl,
        chain: 'dispatch'
    });
    const refs = api.refs();
    const claims = refClaims({
        refs,
        tree: async () => o.tree ?? refs.treeOf(await api.branchHead((await api.getRepo()).defaultBranch)),
        by: o.by,
        staleAfterMs: o.staleAfterMs ?? (0,job_timeout/* stageJobMinutes */.$)(o.config).job * 60_000,
        ...(o.now ? { now: o.now } : {})
    });
    return reconcileIssues({ api, port, config: o.config, claims, dryRun: o.dryRun, log: o.log });
}
/** The summary line both the action and the CLI end with. */
function summaryLine(s, dryRun) {
    const started = dryRun ? `${s.started} would start` : `${s.started} stages started`;
    const failed = s.failed > 0 ? `, ${s.failed} failed` : '';
    return `reconcile: ${s.issues} issues looked at, ${started}${failed}, ${s.requests} requests`;
}
/** Every state an enabled automation starts in, once each, as WORKFLOW.md spells it. */
function startStates(config) {
    return config.automations
        .filter((a) => a.enabled)
        .flatMap((a) => a.states)
        .filter((s, i, all) => all.findIndex((t) => (0,lookup/* sameState */.yY)(t, s)) === i);
}


/***/ })

};
