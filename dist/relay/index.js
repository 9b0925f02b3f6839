// The optional Linear webhook relay: turns a Linear issue's state change into the
// repository_dispatch that starts its stage, seconds after the change instead of at the next
// scheduled reconcile. One file with no imports, written against web-standard Request, Response,
// fetch and Web Crypto only, so it runs unchanged on Cloudflare Workers, Deno, Vercel, Netlify
// and Node 20 (dist/relay/index.js is this file compiled). Everything in a request is untrusted
// until the signature over the raw body checks out, and its text is still untrusted after.
// Must equal DISPATCH_TYPE in src/pipeline/names.ts (a test checks): the workflow `init` writes
// listens for this type only. Repeated here so that this file stays importable on its own.
const DISPATCH_TYPE = 'itervox-handoff';
// An Issue event carries the issue with its description; a megabyte is far above any real one.
const BODY_MAX_BYTES = 1024 * 1024;
// Linear sends webhookTimestamp when it delivers; older deliveries may be replays.
const TIMESTAMP_SKEW_MS = 60_000;
// Linear wants an answer within 5 s and retries otherwise; the rest of the work takes
// milliseconds.
const GITHUB_TIMEOUT_MS = 3_500;
// Delivery ids remembered per instance; a serverless instance may be recycled at any time, so
// this only saves repeated dispatches, which are harmless anyway.
const DELIVERIES_KEPT = 1000;
const IDENTIFIER = /^[A-Za-z0-9]{1,20}-[1-9][0-9]{0,9}$/;
const REPOSITORY = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;
const SIGNATURE = /^[0-9a-fA-F]{64}$/;
const STATE_NAME = /^[^\p{Cc}\p{Cf}\p{Zl}\p{Zp}]{1,100}$/u;
/**
 * A `(request) => Promise<Response>` handler for Linear's webhook. Answers 200 for anything
 * Linear need not send again (relayed, a duplicate, or not a state change), 4xx for a request
 * that is not a fresh, signed delivery, and 5xx when GitHub did not take the dispatch (Linear
 * then retries the delivery).
 */
export function linearRelay(o) {
    if (!o.secret)
        throw new Error('the relay needs the Linear webhook signing secret');
    if (!o.githubToken)
        throw new Error('the relay needs a GitHub token with contents: write');
    if (!REPOSITORY.test(o.repository)) {
        throw new Error('the relay needs the repository as owner/name');
    }
    const api = (o.githubApiUrl || 'https://api.github.com').replace(/\/+$/, '');
    const log = o.log ?? ((line) => console.log(line));
    const key = crypto.subtle.importKey('raw', new TextEncoder().encode(o.secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
    // Insertion-ordered, so the first entry is the oldest. A delivery is added when its dispatch
    // starts and removed again if the dispatch fails, so Linear's retry is relayed.
    const deliveries = new Set();
    const answer = (status, body, delivery) => {
        const id = delivery ? ` ${shown(delivery)}` : '';
        log(`linear relay${id}: ${status} ${String(body.reason ?? body.relayed ?? '')}`);
        return Response.json(body, { status });
    };
    return async (request) => {
        if (request.method !== 'POST') {
            return answer(405, { relayed: false, reason: 'Linear webhooks are POST requests' });
        }
        const raw = await readCapped(request, BODY_MAX_BYTES);
        if (!raw) {
            return answer(413, { relayed: false, reason: `the body is over ${BODY_MAX_BYTES} bytes` });
        }
        const signature = request.headers.get('linear-signature');
        if (!signature || !SIGNATURE.test(signature.trim())) {
            return answer(401, { relayed: false, reason: 'no Linear-Signature of 64 hex digits' });
        }
        // HMAC verify compares in constant time.
        const signed = await crypto.subtle.verify('HMAC', await key, hexBytes(signature.trim()), raw);
        if (!signed) {
            return answer(401, {
                relayed: false,
                reason: 'Linear-Signature does not match the body (is the secret the webhook shows?)'
            });
        }
        let event;
        try {
            event = JSON.parse(new TextDecoder().decode(raw));
        }
        catch {
            return answer(400, { relayed: false, reason: 'the body is not JSON' });
        }
        const e = record(event);
        const sent = e.webhookTimestamp;
        if (typeof sent !== 'number' || !(Math.abs(Date.now() - sent) <= TIMESTAMP_SKEW_MS)) {
            return answer(401, {
                relayed: false,
                reason: `webhookTimestamp is not within ${TIMESTAMP_SKEW_MS / 1000} s of now (a replay, or a clock far off)`
            });
        }
        const delivery = request.headers.get('linear-delivery')?.trim() ?? '';
        if (!delivery)
            return answer(400, { relayed: false, reason: 'no Linear-Delivery header' });
        const skip = (reason) => answer(200, { relayed: false, reason }, delivery);
        if (e.type !== 'Issue' || e.action !== 'update') {
            return skip(`a ${shown(e.type)} ${shown(e.action)} event is not an issue state change`);
        }
        if (!Object.hasOwn(record(e.updatedFrom), 'stateId')) {
            return skip("the update does not change the issue's state");
        }
        const data = record(e.data);
        const issue = typeof data.identifier === 'string' ? data.identifier : '';
        if (!IDENTIFIER.test(issue))
            return skip('the event names no issue identifier like ENG-123');
        if (o.team && issue.slice(0, issue.lastIndexOf('-')).toUpperCase() !== o.team.toUpperCase()) {
            return skip(`${issue} is not in team ${shown(o.team)}`);
        }
        if (deliveries.has(delivery))
            return skip('this delivery was relayed already');
        // The stage checks the state against Linear's live one and skips a stale wake-up, and it
        // runs one stage per entry into a state however many wake-ups arrive: a repeated dispatch
        // (two instances, a replayed body under a new delivery id) costs a short job, nothing more.
        // The new state's name makes a wake-up that arrives after a later move skip; a name that
        // is not plain text is left out (the stage then uses the live state).
        const name = record(data.state).name;
        const state = typeof name === 'string' && STATE_NAME.test(name) ? name.trim() : undefined;
        deliveries.add(delivery);
        if (deliveries.size > DELIVERIES_KEPT)
            deliveries.delete(deliveries.values().next().value);
        const failure = await dispatch(api, o, { issue, ...(state ? { state } : {}) });
        if (failure) {
            deliveries.delete(delivery);
            return answer(failure.status, { relayed: false, reason: failure.reason }, delivery);
        }
        return answer(200, { relayed: true, issue, ...(state ? { state } : {}) }, delivery);
    };
}
/** The relay configured from environment variables, for platforms that hand over an env. */
export function relayFromEnv(env) {
    return linearRelay({
        secret: env.LINEAR_WEBHOOK_SECRET ?? '',
        githubToken: env.GITHUB_TOKEN ?? '',
        repository: env.GITHUB_REPOSITORY ?? '',
        ...(env.GITHUB_API_URL ? { githubApiUrl: env.GITHUB_API_URL } : {}),
        ...(env.LINEAR_TEAM ? { team: env.LINEAR_TEAM } : {})
    });
}
let fromEnv;
/** A Cloudflare Worker (or any `export default { fetch }` platform): the secrets are its env. */
export default {
    async fetch(request, env) {
        if (fromEnv?.env !== env) {
            try {
                fromEnv = { env, handler: relayFromEnv(env) };
            }
            catch (err) {
                // Which setting is missing, so the deployment's owner sees it in Linear's webhook log.
                return Response.json({ relayed: false, reason: err.message }, { status: 500 });
            }
        }
        return fromEnv.handler(request);
    }
};
/** Sends the wake-up; undefined when GitHub took it, else the answer to give Linear. */
async function dispatch(api, o, payload) {
    let res;
    try {
        res = await fetch(`${api}/repos/${o.repository}/dispatches`, {
            method: 'POST',
            headers: {
                accept: 'application/vnd.github+json',
                authorization: `Bearer ${o.githubToken}`,
                'content-type': 'application/json',
                'user-agent': 'itervox-handoff-linear-relay',
                'x-github-api-version': '2022-11-28'
            },
            body: JSON.stringify({ event_type: DISPATCH_TYPE, client_payload: payload }),
            signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS)
        });
    }
    catch (err) {
        const late = err instanceof DOMException && err.name === 'TimeoutError';
        return {
            status: 504,
            reason: late
                ? `GitHub did not answer the dispatch within ${GITHUB_TIMEOUT_MS / 1000} s`
                : 'GitHub could not be reached for the dispatch'
        };
    }
    if (res.ok)
        return undefined;
    const why = res.status === 401
        ? 'the GitHub token is not valid'
        : res.status === 403 || res.status === 404
            ? `the GitHub token may not send dispatches to ${o.repository} (it needs contents: write)`
            : 'GitHub refused the dispatch';
    await res.body?.cancel();
    return { status: 502, reason: `${why} (HTTP ${res.status})` };
}
/** The body's bytes, or undefined when it is larger than `max`; stops reading at the cap. */
async function readCapped(request, max) {
    const declared = Number(request.headers.get('content-length') ?? '0');
    if (declared > max)
        return undefined;
    if (!request.body)
        return new Uint8Array(0);
    const reader = request.body.getReader();
    const chunks = [];
    let size = 0;
    for (;;) {
        const { done, value } = await reader.read();
        if (done)
            break;
        size += value.byteLength;
        if (size > max) {
            await reader.cancel();
            return undefined;
        }
        chunks.push(value);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
        out.set(c, at);
        at += c.byteLength;
    }
    return out;
}
function hexBytes(hex) {
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++)
        out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return out;
}
function record(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v)
        ? v
        : {};
}
/** Untrusted text for a reason or a log line: quoted, one line, at most 40 characters. */
function shown(v) {
    if (typeof v !== 'string')
        return v === undefined ? '(none)' : `(a ${typeof v})`;
    return JSON.stringify(clip(v.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' '), 40));
}
function clip(s, max) {
    const chars = Array.from(s);
    return chars.length <= max ? s : chars.slice(0, max - 1).join('') + '…';
}
