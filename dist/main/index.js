import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 24:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");

/***/ }),

/***/ 161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

/***/ }),

/***/ 490:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   j: () => (/* binding */ actionInput)
/* harmony export */ });
/**
 * An action input as the runner passes it (INPUT_<NAME>, spaces as underscores) and as
 * @actions/core's getInput reads it: trimmed, empty when unset. Read without @actions/core so
 * that the main step's light entry can read inputs before the rest of the program loads.
 */
function actionInput(env, name) {
    return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}


/***/ }),

/***/ 963:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  k: () => (/* binding */ startEarlyFetch)
});

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(24);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(760);
;// CONCATENATED MODULE: external "node:fs/promises"
const promises_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs/promises");
// EXTERNAL MODULE: ./.build/errors.js
var errors = __nccwpck_require__(243);
;// CONCATENATED MODULE: ./.build/git/branch-name.js

/**
 * A branch name git accepts as it is (no `@{-1}` expansion, no leading dash), by the rules of
 * git-check-ref-format(1) for `refs/heads/<name>`. Names come from issues and pull requests,
 * so they are data: checked here and only ever passed as argv.
 */
function validateBranchName(name) {
    return isBranchName(name)
        ? Promise.resolve(name)
        : Promise.reject(new errors/* UserError */.yo(`"${name}" is not a valid branch name`));
}
function isBranchName(name) {
    return !(name === '' ||
        name === 'HEAD' ||
        name === '@' ||
        name.startsWith('-') ||
        name.endsWith('.') ||
        [...name].some((c) => c <= ' ' || c === '\x7f') ||
        /[~^:?*[\\]|\.\.|@\{/.test(name) ||
        name.split('/').some((part) => part === '' || part.startsWith('.') || part.endsWith('.lock')));
}

;// CONCATENATED MODULE: external "node:child_process"
const external_node_child_process_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:child_process");
// EXTERNAL MODULE: ./.build/clip.js
var clip = __nccwpck_require__(802);
;// CONCATENATED MODULE: ./.build/git/git-errors.js
// What a failed git command becomes: a GitError whose one line names the command and the last
// thing git said (credentials masked), or a DiskFullError when git could not write for want of
// space, which no retry mends.



/** git failed; carries the command (without the hardening prefix) and what git said. */
class git_errors_GitError extends Error {
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
class DiskFullError extends git_errors_GitError {
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
 * git does not always say why a write failed (a ref's lock file: "couldn't write '\u2026'"); on a
 * disk with next to no room left, that is why.
 */
const WRITE_FAILED = /couldn't write|could not write|unable to write|failed to write|write error|Unable to create|unable to create|cannot create/;
/** The error for a git command that failed in `cwd`. */
function gitFailure(cwd, args, code, stderr) {
    const full = diskFull(stderr, () => freeBytes(cwd));
    if (!full)
        return new git_errors_GitError(args, code, stderr);
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
    return (0,clip/* clip */.$)(`git ${args.slice(at).map(mask).join(' ')}`.replace(/\s+/g, ' '), 160);
}
/** The last thing git said, on one line, credentials masked. */
function lastLine(stderr) {
    const lines = stderr.split(/\r?\n|\r/).map((l) => l.trim());
    return (0,clip/* clip */.$)(mask(lines.filter(Boolean).at(-1) ?? '').replace(/\s+/g, ' '), 300);
}
/** Hides credentials git may echo: a URL's user and password, an auth header, a GitHub token. */
function mask(text) {
    return text
        .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@]+@/gi, '$1***@')
        .replace(/(authorization:\s*(?:basic|bearer|token)\s+)[^\s'"]+/gi, '$1***')
        .replace(/\b(?:gh[opsur]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,})/g, '***');
}

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
// The housekeeping git starts after a fetch or a commit (`maintenance run --auto`; `gc --auto`
// directly, before git 2.29) is one more process that a stage's one-job checkout never gains
// from. In a user's own clone (the CLI) their own git commands still keep it.
const NO_UPKEEP = ['-c', 'maintenance.auto=false', '-c', 'gc.auto=0'];
/** The base64 credential checkout uses; callers mask it (and the token) in logs. */
function git_basicCredential(token) {
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
        const child = (0,external_node_child_process_namespaceObject.execFile)(file, [...prefix, ...args], {
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
        args: [...HARDENING, ...NO_UPKEEP, '-c', `safe.directory=${cwd}`],
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
        GIT_CONFIG_VALUE_1: `AUTHORIZATION: basic ${git_basicCredential(auth.token)}`
    };
}
let resolved;
/**
 * Which git to run (see chooseGit), fixed for the life of this bundle at its first git, before
 * any agent ran; the main step's light entry, a bundle of its own, chooses by the same rule.
 */
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
async function lstat_lstatOrNull(p) {
    try {
        return await (0,promises_namespaceObject.lstat)(p);
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
    const gitDir = await lstat_lstatOrNull(external_node_path_.join(repo, '.git'));
    if (gitDir?.isDirectory()) {
        return ((await lstat_lstatOrNull(external_node_path_.join(repo, '.git', 'shallow')))?.size ?? 0) > 0;
    }
    const r = await git_git(repo, ['rev-parse', '--is-shallow-repository']);
    return r.stdout.trim() === 'true';
}

;// CONCATENATED MODULE: ./.build/git/fetch-branches.js







const DEFAULT_DEPTH = 100;
/**
 * Lists `branches` on the remote with one `ls-remote` and fetches those it has with one
 * `fetch` (shallow when the workspace is), making the repository first when there is none.
 * It starts nothing but git, so the main step's light entry can run it while the rest of the
 * program loads.
 */
async function fetchBranches(o) {
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
    if (present.length === 0)
        return { remote, asked, present };
    const depth = o.depth ?? DEFAULT_DEPTH;
    const shallow = fresh || (await isShallow(repo));
    const fetching = git_git(repo, [
        'fetch',
        '--no-tags',
        '--recurse-submodules=no',
        ...(shallow && depth > 0 ? [`--depth=${depth}`] : []),
        remote,
        ...present.map((name) => refspec(remote, name))
    ], { auth: o.auth });
    o.whileFetching?.();
    await fetching;
    return { remote, asked, present };
}
const tracking = (remote, name) => `refs/remotes/${remote}/${name}`;
const refspec = (remote, name) => `+refs/heads/${name}:${tracking(remote, name)}`;
function validateRemoteName(name) {
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) {
        throw new errors/* UserError */.yo(`"${name}" is not a valid remote name`);
    }
}
/** True when a new repository had to be made (nothing to reuse). */
async function ensureRepository(repo, remote, url) {
    const fresh = !(await lstat_lstatOrNull(external_node_path_.join(repo, '.git')));
    if (fresh) {
        await (0,promises_namespaceObject.mkdir)(repo, { recursive: true });
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
        await (0,promises_namespaceObject.rm)(external_node_path_.join(repo, '.git', lock), { force: true });
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

;// CONCATENATED MODULE: external "node:crypto"
const external_node_crypto_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:crypto");
;// CONCATENATED MODULE: ./.build/isolation/privilege.js



// System programs are taken from these directories only, never from PATH: `~/.local/bin`
// comes first on hosted runners' PATH.
const SYSTEM_DIRS = (/* unused pure expression or super */ null && (['/usr/sbin', '/usr/bin', '/sbin', '/bin']));
/** The absolute path of a system program, or undefined when none is installed. */
function privilege_systemProgram(name) {
    for (const dir of SYSTEM_DIRS) {
        const candidate = path.join(dir, name);
        try {
            accessSync(candidate, constants.X_OK);
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
    const sudo = privilege_systemProgram('sudo');
    if (!sudo)
        return null;
    const probe = spawnSync(sudo, ['-n', 'true'], { stdio: 'ignore', timeout: 10_000 });
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
        const child = execFile(file, args, { encoding: 'utf8', env: o.env ?? systemEnv() }, (err, stdout, stderr) => {
            const code = err ? (typeof err.code === 'number' ? err.code : 127) : 0;
            resolve({ code, stdout, stderr: stderr || (err && !stderr ? err.message : '') });
        });
        child.stdin?.on('error', () => { });
        child.stdin?.end(o.input);
    });
}
/** Runs `argv` as root; a failure becomes an Error whose message is git-free and one line. */
async function privilege_runAsRoot(p, argv, what) {
    const r = await run(asRoot(p, argv));
    if (r.code !== 0) {
        const detail = r.stderr.trim().split('\n').pop() ?? `exit code ${r.code}`;
        throw new Error(`could not ${what}: ${detail}`);
    }
    return r.stdout;
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
    for (const dir of new Set(dirs.filter((d) => path.isAbsolute(d)).map((d) => path.resolve(d)))) {
        if (SHARED.has(dir))
            continue;
        const st = await lstatOrNull(dir);
        if (!st?.isDirectory() || (st.mode & 0o007) === 0)
            continue;
        if (!root && st.uid !== process.getuid?.()) {
            throw new UserError(`${dir} is open to other users and not the runner's to close, so the agent user could read it; close it (chmod o-rwx) before the stage or set isolation: none`);
        }
        await chmod(dir, st.mode & 0o7770);
        closed.push(dir);
    }
    return closed;
}
/** The runner's installation folder, when this node is the runner's own (`externals/`). */
function runnerInstallation(execPath) {
    const at = execPath.split(external_node_path_.sep).lastIndexOf('externals');
    return at > 1 ? execPath.split(external_node_path_.sep).slice(0, at).join(external_node_path_.sep) : undefined;
}

;// CONCATENATED MODULE: ./.build/isolation/agent-user.js





/**
 * The agent user when the agent-user input is empty: one of this runner's own. Each job ends
 * every process of its agent user when it starts, so two runners on one host must never share
 * one. Runners take the host's name by default, so the name alone is not enough: a hash of it,
 * the tool cache and the runner's installation tells two installations apart. `itervox-`, at
 * most 14 characters of the runner's name, `-` and 8 hex digits: at most 31 characters, all in
 * useradd's safe set.
 */
function defaultAgentUser(env, execPath = process.execPath) {
    const runner = env.RUNNER_NAME ?? '';
    const install = [runner, env.RUNNER_TOOL_CACHE ?? '', runnerInstallation(execPath) ?? ''];
    const hash = (0,external_node_crypto_namespaceObject.createHash)('sha256').update(install.join('\0')).digest('hex').slice(0, 8);
    const slug = runner
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .slice(0, 14)
        .replace(/^-+|-+$/g, '');
    return `itervox-${slug || 'agent'}-${hash}`;
}
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
        throw new UserError(`agent-user "${name}" is not a valid user name; use lower-case letters, digits, - and _`);
    }
    let user = lookUser(name);
    if (!user) {
        const useradd = systemProgram('useradd');
        if (!useradd) {
            throw new UserError('isolation: user needs useradd to create the agent user and this runner has none; install it (passwd package) or set isolation: none');
        }
        await runAsRoot(p, [useradd, '--system', '--user-group', '--create-home', '--shell', '/usr/sbin/nologin', name], `create the agent user ${name}`);
        user = lookUser(name);
        if (!user)
            throw new Error(`the agent user ${name} was created but cannot be found`);
    }
    const problem = privilegeOf(user);
    if (problem) {
        throw new UserError(`agent-user ${name} ${problem}; give the action an unprivileged user of its own (agent-user input) or remove it so the action creates one`);
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
        return readFileSync(file, 'utf8').split('\n');
    }
    catch {
        return [];
    }
}

// EXTERNAL MODULE: ./.build/action/action-input.js
var action_input = __nccwpck_require__(490);
;// CONCATENATED MODULE: ./.build/action/identity-input.js

// "Name <email>", as git writes it. Angle brackets and line breaks in either part would change
// what git records (or be refused by it), so they are refused here, in one line.
const NAME_EMAIL = /^([^<>\r\n]*[^<>\s])\s*<([^<>\s@]+@[^<>\s@]+)>$/;
/** The identity an input names, or undefined when it is empty. */
function identityInput(name, text) {
    const trimmed = text.trim();
    if (!trimmed)
        return undefined;
    const m = NAME_EMAIL.exec(trimmed);
    if (!m?.[1] || !m[2]) {
        throw new errors/* UserError */.yo(`input ${name} is ${JSON.stringify(trimmed.slice(0, 200))}; use "Name <email>", e.g. "my-app[bot] <123456+my-app[bot]@users.noreply.github.com>"`);
    }
    return { name: m[1].trim(), email: m[2] };
}
/**
 * The commit identity of the token in use, as GitHub links commits to accounts: its login and
 * `<id>+<login>@users.noreply.github.com` (an App's `my-app[bot]`, or a person's).
 */
async function tokenIdentity(api) {
    const { login, databaseId } = await api.viewer();
    return { name: login, email: `${databaseId}+${login}@users.noreply.github.com` };
}

;// CONCATENATED MODULE: ./.build/action/inputs.js





/**
 * The settings, read and checked; nothing is printed (so the main step's light entry can read
 * them too): the main step masks the tokens first (tokensOf).
 */
function readSettings(env = process.env) {
    const input = (name) => (0,action_input/* actionInput */.j)(env, name);
    const token = input('github-token');
    if (!token) {
        throw new errors/* UserError */.yo('input github-token is empty; leave it unset to use ${{ github.token }}');
    }
    const mode = input('mode') || 'stage';
    if (mode !== 'stage' && mode !== 'reconcile') {
        throw new errors/* UserError */.yo(`input mode is "${mode}"; use stage or reconcile`);
    }
    const chain = input('chain') || 'dispatch';
    if (chain !== 'dispatch' && chain !== 'label' && chain !== 'none') {
        throw new errors/* UserError */.yo(`input chain is "${chain}"; use dispatch, label or none`);
    }
    const dryRun = booleanInput('dry-run', env);
    // Empty when the repository variable is unset.
    const paused = booleanInput('paused', env);
    const showAgentOutput = booleanInput('show-agent-output', env);
    const signCommits = booleanInput('sign-commits', env);
    const isolation = input('isolation') || 'user';
    if (isolation !== 'user' && isolation !== 'none') {
        throw new errors/* UserError */.yo(`input isolation is "${isolation}"; use user or none`);
    }
    const author = identityInput('commit-author', input('commit-author'));
    const committer = identityInput('commit-committer', input('commit-committer'));
    // The runner fills job-token with the job's GITHUB_TOKEN; a github-token other than it is
    // an App's or a person's, whose identity the stage asks for when it needs it.
    const jobToken = input('job-token');
    const repository = required(env, 'GITHUB_REPOSITORY');
    const [owner, repo, ...rest] = repository.split('/');
    if (!owner || !repo || rest.length > 0) {
        throw new errors/* UserError */.yo(`GITHUB_REPOSITORY is "${repository}"; expected owner/name`);
    }
    const serverUrl = env.GITHUB_SERVER_URL || 'https://github.com';
    const runId = env.GITHUB_RUN_ID || '0';
    return {
        mode,
        token,
        workflowFile: input('workflow-file') || 'WORKFLOW.md',
        issue: input('issue') || undefined,
        state: input('state') || undefined,
        chain,
        dryRun,
        paused,
        showAgentOutput,
        signCommits,
        isolation,
        agentUser: input('agent-user') || defaultAgentUser(env),
        ...(author ? { author } : {}),
        ...(committer ? { committer } : {}),
        ownToken: !jobToken || jobToken === token,
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
        hostedRunner: env.RUNNER_ENVIRONMENT === 'github-hosted',
        actor: env.GITHUB_ACTOR || '',
        ref: env.GITHUB_REF || ''
    };
}
/** The tokens among the inputs, and the form git sends the token in: to be masked at once. */
function tokensOf(env = process.env) {
    const token = actionInput(env, 'github-token');
    const jobToken = actionInput(env, 'job-token');
    return [...(token ? [token, basicCredential(token)] : []), ...(jobToken ? [jobToken] : [])];
}
function booleanInput(name, env = process.env) {
    const text = ((0,action_input/* actionInput */.j)(env, name) || 'false').toLowerCase();
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

// EXTERNAL MODULE: ./.build/tracker/linear-key.js
var linear_key = __nccwpck_require__(658);
;// CONCATENATED MODULE: ./.build/action/stage-start.js



/** Whether two plans fetch the same branches, into the same workspace, with the same token. */
function samePlan(a, b) {
    return (a.repo === b.repo &&
        a.remoteUrl === b.remoteUrl &&
        a.auth.serverUrl === b.auth.serverUrl &&
        a.auth.token === b.auth.token &&
        a.branches.length === b.branches.length &&
        a.branches.every((name, i) => name === b.branches[i]));
}
/**
 * The decision the stage takes from its settings and the event alone, before any git or
 * request. The main step's light entry takes it too, to start the fetch while the rest of the
 * program loads; a user's mistake here is a UserError.
 */
function stageStart(s, trigger) {
    if (trigger.kind !== 'run')
        return trigger;
    if (trigger.pullRequest?.fork) {
        return {
            kind: 'deny',
            reason: "the pull request's head is in a fork; stages never run on fork code"
        };
    }
    // The trigger holds the issue's canonical key (issueKey): a number, or a Linear key.
    const issueNumber = trigger.issue;
    const linearKey = linear_key/* LINEAR_KEY */.O.exec(issueNumber);
    const defaultBranch = trigger.defaultBranch;
    if (!defaultBranch) {
        throw new errors/* UserError */.yo('the event payload names no default branch (repository.default_branch)');
    }
    // The issue branch the stage will most likely work on is fetched with the default branch, in
    // one listing and one fetch; the workspace asks the remote again only if it is another.
    const likely = trigger.pullRequest?.headRef ??
        (linearKey
            ? `itervox/${linearKey[1].toLowerCase()}/${linearKey[2]}`
            : `itervox/${issueNumber}`);
    return {
        kind: 'run',
        trigger,
        issueNumber,
        linearKey,
        defaultBranch,
        fetch: {
            repo: s.workspace,
            branches: [defaultBranch, ...(isBranchName(likely) ? [likely] : [])],
            remoteUrl: `${s.serverUrl}/${s.repository.owner}/${s.repository.repo}.git`,
            auth: { serverUrl: s.serverUrl, token: s.token }
        }
    };
}

;// CONCATENATED MODULE: ./.build/action/early-fetch.js





/**
 * Starts the fetch the stage would start first, when the settings and the job's `trigger`
 * (jobTrigger) say a stage runs: loading the rest of the program (~100 ms of one core) then
 * overlaps git and the network. Anything the stage would refuse, report or do otherwise starts
 * nothing here.
 */
function startEarlyFetch(env, trigger) {
    let plan;
    try {
        const s = readSettings(env);
        if (s.mode !== 'stage' || !trigger)
            return undefined;
        const start = stageStart(s, trigger);
        if (start.kind !== 'run')
            return undefined;
        plan = start.fetch;
        // Only into a checkout: a workspace the fetch has to make a repository in would, after a
        // failure here, look like a checkout to the stage's own fetch.
        if (!(0,external_node_fs_.lstatSync)((0,external_node_path_.join)(plan.repo, '.git'), { throwIfNoEntry: false }))
            return undefined;
    }
    catch {
        // The stage says what is wrong, once it has loaded.
        return undefined;
    }
    let fetchUnderWay = () => { };
    const started = new Promise((resolve) => (fetchUnderWay = resolve));
    const fetching = fetchBranches({ ...plan, whileFetching: fetchUnderWay }).catch(() => undefined);
    void fetching.then(fetchUnderWay);
    return {
        take: (p) => (samePlan(p, plan) ? fetching : fetching.then(() => undefined)),
        started
    };
}


/***/ }),

/***/ 487:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  iC: () => (/* binding */ jobTrigger)
});

// UNUSED EXPORTS: readEvent, triggerFromEvent

// EXTERNAL MODULE: ./.build/errors.js
var errors = __nccwpck_require__(243);
// EXTERNAL MODULE: ./.build/action/action-input.js
var action_input = __nccwpck_require__(490);
// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __nccwpck_require__(24);
;// CONCATENATED MODULE: ./.build/files/read-capped.js


/** A user's file that cannot be used as it is; the message says what to change. */
class FileRefused extends errors/* UserError */.yo {
    reason;
    code;
    constructor(message, reason, file, 
    /** The system error code, when the system refused. */
    code) {
        super(message, { file });
        this.reason = reason;
        this.code = code;
        this.name = 'FileRefused';
    }
}
// O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (it changes
// nothing for regular files). O_NOCTTY: opening a terminal never makes it ours. Windows has
// neither flag.
const OPEN_FLAGS = external_node_fs_.constants.O_RDONLY | (external_node_fs_.constants.O_NONBLOCK ?? 0) | (external_node_fs_.constants.O_NOCTTY ?? 0);
const CHUNK = 64 * 1024;
/**
 * The bytes of the regular file at `path` (symlinks followed), refusing, without waiting or
 * reading, a FIFO, device, socket or directory, and refusing a file longer than `maxBytes`,
 * even one that grows while it is read. `display` names the file in messages.
 */
function readCappedFile(path, maxBytes, display = path) {
    let fd;
    try {
        fd = (0,external_node_fs_.openSync)(path, OPEN_FLAGS);
    }
    catch (e) {
        throw systemRefusal(e, display);
    }
    try {
        // fstat the descriptor, not the path: what was opened is what is judged.
        const st = (0,external_node_fs_.fstatSync)(fd);
        if (!st.isFile()) {
            throw new FileRefused(`${kindOf(st)}, not a regular file; replace it with a regular file`, 'not-a-file', display);
        }
        if (st.size > maxBytes)
            throw tooLarge(maxBytes, display);
        // Read to the end rather than trusting st.size: a file can grow after fstat.
        const chunks = [];
        let total = 0;
        for (;;) {
            const buf = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
            const n = (0,external_node_fs_.readSync)(fd, buf, 0, buf.length, null);
            if (n === 0)
                break;
            chunks.push(buf.subarray(0, n));
            total += n;
            if (total > maxBytes)
                throw tooLarge(maxBytes, display);
        }
        return Buffer.concat(chunks, total);
    }
    catch (e) {
        throw e instanceof FileRefused ? e : systemRefusal(e, display);
    }
    finally {
        (0,external_node_fs_.closeSync)(fd);
    }
}
/** readCappedFile as UTF-8 text (invalid sequences become U+FFFD, as readFileSync does). */
function readCappedText(path, maxBytes, display = path) {
    return readCappedFile(path, maxBytes, display).toString('utf8');
}
function systemRefusal(e, display) {
    const code = e.code ?? 'EIO';
    if (code === 'ENOENT' || code === 'ENOTDIR') {
        return new FileRefused('no such file; check the path', 'missing', display, code);
    }
    // Opening a socket (as /dev/stdin can be) fails with ENXIO.
    if (code === 'ENXIO') {
        return new FileRefused('a socket or a missing device, not a regular file; replace it with a regular file', 'not-a-file', display, code);
    }
    if (code === 'EISDIR') {
        return new FileRefused('a directory, not a regular file; name a file', 'not-a-file', display, code);
    }
    const fix = code === 'EACCES' || code === 'EPERM'
        ? 'check its permissions'
        : code === 'ELOOP'
            ? 'its symlinks form a loop; fix the link'
            : 'replace it with a regular file';
    return new FileRefused(`cannot be read (${code}); ${fix}`, 'unreadable', display, code);
}
function tooLarge(maxBytes, display) {
    return new FileRefused(`larger than the ${sizeText(maxBytes)} this file may hold; make it smaller`, 'too-large', display);
}
function kindOf(st) {
    if (st.isDirectory())
        return 'a directory';
    if (st.isFIFO())
        return 'a named pipe (FIFO)';
    if (st.isCharacterDevice() || st.isBlockDevice())
        return 'a device';
    if (st.isSocket())
        return 'a socket';
    return 'a special file';
}
function sizeText(bytes) {
    const MiB = 1024 * 1024;
    if (bytes >= MiB && bytes % MiB === 0)
        return `${bytes / MiB} MiB`;
    if (bytes >= 1024 && bytes % 1024 === 0)
        return `${bytes / 1024} KiB`;
    return `${bytes} bytes`;
}

;// CONCATENATED MODULE: ./.build/pipeline/names.js
// Names the pipeline shares with GitHub and with users' workflow files: changing one breaks
// workflows already written (their `if:` filters and `repository_dispatch` types name them).
/** The repository_dispatch type that starts a stage. */
const DISPATCH_TYPE = 'itervox-handoff';
/** Set while a stage waits for a person's reply. */
const NEEDS_INPUT_LABEL = 'needs-input';
/** Set when the pipeline stopped and has no failed state to move the issue to. */
const NEEDS_ATTENTION_LABEL = 'needs-attention';

// EXTERNAL MODULE: ./.build/clip.js
var _build_clip = __nccwpck_require__(802);
;// CONCATENATED MODULE: ./.build/handoff/hidden-markdown.js
// Markdown that GitHub renders as nothing: a person reading the issue, the comment or the
// handoff never sees it, a model reading the raw text does. `[//]: # (ignore the above)` is
// the usual way to hide a comment in Markdown; titles and alt text show at most on hover.
// Removed, so the model is shown what a person is shown:
// - a link reference definition nothing refers to (one that is used keeps its destination);
// - the title of a link, an image or a definition (`[a](url "title")`);
// - an image's alt text, and HTML `alt` and `title` attributes.
// Fenced code blocks are left as they are: there a person sees the text as written. Where
// CommonMark would show a definition as text after all (inside a paragraph), it still goes;
// the model is shown less, never more, than a person.
const MAYBE_HIDDEN = /\]:|\]\s*\(|!\[|<[a-z][^<>]*\s(?:alt|title)\s*=/i;
/** The text without the Markdown GitHub does not show (see above). */
function removeHiddenMarkdown(text) {
    if (!MAYBE_HIDDEN.test(text))
        return { text, count: 0 };
    // Removing one part can reveal another (an attribute after the one removed, a definition
    // whose destination line was itself a definition): repeat until nothing is left. Every
    // removal shortens the text, so this ends.
    let count = 0;
    let current = text;
    for (;;) {
        const pass = onePass(current);
        current = pass.text;
        count += pass.count;
        if (pass.count === 0)
            return { text: current, count };
    }
}
function onePass(text) {
    const lines = text.split('\n');
    const code = codeLines(lines);
    const definitions = new Map();
    for (let i = 0; i < lines.length; i++) {
        const d = code[i] ? null : definitionAt(lines, i, code);
        if (d) {
            definitions.set(i, d);
            i = d.end;
        }
    }
    const used = usedLabels(lines, code, definitions);
    let count = 0;
    const out = [];
    let prose = [];
    const flush = () => {
        if (prose.length === 0)
            return;
        const inline = removeInline(prose.join('\n'));
        count += inline.count;
        out.push(inline.text);
        prose = [];
    };
    for (let i = 0; i < lines.length; i++) {
        const d = definitions.get(i);
        if (code[i] || d)
            flush();
        if (code[i])
            out.push(lines[i]);
        else if (!d)
            prose.push(lines[i]);
        else {
            if (!used.has(normalLabel(d.label)))
                count++;
            else {
                // A destination in angle brackets can look like an HTML tag; its attributes show
                // nowhere either.
                const kept = d.hasTitle
                    ? `${d.prefix}[${d.label}]: ${d.destination}`
                    : lines.slice(i, d.end + 1).join('\n');
                const inline = removeAttributes(kept);
                count += inline.count + (d.hasTitle ? 1 : 0);
                out.push(inline.text);
            }
            i = d.end;
        }
    }
    flush();
    return { text: out.join('\n'), count };
}
/** Which lines belong to a fenced code block (its fences included). */
function codeLines(lines) {
    let fence = null;
    return lines.map((line) => {
        const m = /^[ \t]{0,3}(`{3,}|~{3,})(.*)$/.exec(line.replace(/^(?:[ \t]*>)*/, ''));
        if (fence) {
            const run = m?.[1];
            if (run && run[0] === fence.char && run.length >= fence.length && m[2].trim() === '') {
                fence = null;
            }
            return true;
        }
        if (m && !(m[1][0] === '`' && m[2].includes('`'))) {
            fence = { char: m[1][0], length: m[1].length };
            return true;
        }
        return false;
    });
}
const PREFIX = /^(?:[ \t]*(?:>|[-*+][ \t]|\d{1,9}[.)][ \t]))*[ \t]{0,3}/;
const DEFINITION_START = /^\[((?:[^[\]\\]|\\.){1,999})\]:(.*)$/;
const DESTINATION = /^[ \t]*(<(?:[^<>\n\\]|\\.)*>|[^\s<]\S*)/;
const stripQuote = (line) => line.replace(/^(?:[ \t]*>)*[ \t]*/, '');
/** The link reference definition starting at line `i`, as CommonMark reads one. */
function definitionAt(lines, i, code) {
    const line = lines[i];
    const prefix = PREFIX.exec(line)?.[0] ?? '';
    const m = DEFINITION_START.exec(line.slice(prefix.length));
    if (!m || m[1].trim() === '')
        return null;
    let end = i;
    let rest = m[2];
    if (rest.trim() === '') {
        const next = lines[i + 1];
        if (next === undefined || code[i + 1] || next.trim() === '')
            return null;
        end = i + 1;
        rest = stripQuote(next);
    }
    const dest = DESTINATION.exec(rest);
    if (!dest)
        return null;
    const base = { prefix, label: m[1], destination: dest[1] };
    const after = rest.slice(dest[0].length);
    if (after.trim() === '') {
        // A title may start on the next line; if it is not one, that line is a paragraph.
        const next = lines[end + 1];
        const titleEnd = next === undefined || code[end + 1]
            ? null
            : titleEndLine(lines, end + 1, stripQuote(next), code);
        return titleEnd === null
            ? { ...base, hasTitle: false, end }
            : { ...base, hasTitle: true, end: titleEnd };
    }
    if (!/^[ \t]/.test(after))
        return null;
    const titleEnd = titleEndLine(lines, end, after, code);
    return titleEnd === null ? null : { ...base, hasTitle: true, end: titleEnd };
}
/** The line a title starting in `text` (on line `index`) closes on, or null when it is none. */
function titleEndLine(lines, index, text, code) {
    const s = text.trimStart();
    const open = s[0];
    if (open !== '"' && open !== "'" && open !== '(')
        return null;
    const close = open === '(' ? ')' : open;
    let line = index;
    let chunk = s.slice(1);
    for (;;) {
        for (let k = 0; k < chunk.length; k++) {
            const c = chunk[k];
            if (c === '\\')
                k++;
            else if (c === close)
                return chunk.slice(k + 1).trim() === '' ? line : null;
            else if (open === '(' && c === '(')
                return null;
        }
        line++;
        const next = lines[line];
        if (next === undefined || code[line] || next.trim() === '')
            return null;
        chunk = stripQuote(next);
    }
}
const normalLabel = (label) => label.trim().replace(/\s+/g, ' ').toLowerCase();
/** Labels the shown text refers to: any `[\u2026]` outside code and definitions. */
function usedLabels(lines, code, defs) {
    const used = new Set();
    for (let i = 0; i < lines.length; i++) {
        const d = defs.get(i);
        if (d) {
            i = d.end;
            continue;
        }
        if (code[i])
            continue;
        for (const m of lines[i].matchAll(/\[((?:[^[\]\\]|\\.)+)\]/g)) {
            used.add(normalLabel(m[1]));
        }
    }
    return used;
}
// A title runs on over lines, never over a blank one.
const TITLE = String.raw `(?:"(?:[^"\\\n]|\\.|\n(?![ \t]*\n))*"|'(?:[^'\\\n]|\\.|\n(?![ \t]*\n))*'|\((?:[^()\\\n]|\\.|\n(?![ \t]*\n))*\))`;
const LINK_DEST = String.raw `(?:<(?:[^<>\n\\]|\\.)*>|(?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.)*\))+)`;
const LINK_TITLE = new RegExp(String.raw `(\]\([ \t]*\n?[ \t]*)(${LINK_DEST})(?:[ \t]+\n?|\n)[ \t]*${TITLE}([ \t]*\n?[ \t]*\))`, 'g');
const IMAGE_ALT = /(?<!\\)!\[(?:[^[\]\\\n]|\\.)+\](?=[([])/g;
const HTML_ATTRIBUTE = /(<[a-z][a-z0-9-]*(?:\s[^<>]*?)?)\s(?:alt|title)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+)/gi;
function removeInline(text) {
    let count = 0;
    const out = text
        .replace(LINK_TITLE, (_m, open, dest, close) => {
        count++;
        return open + dest + close;
    })
        .replace(IMAGE_ALT, () => {
        count++;
        return '![]';
    });
    const attributes = removeAttributes(out);
    return { text: attributes.text, count: count + attributes.count };
}
function removeAttributes(text) {
    let count = 0;
    const out = text.replace(HTML_ATTRIBUTE, (_m, tag) => {
        count++;
        return tag;
    });
    return { text: out, count };
}

;// CONCATENATED MODULE: ./.build/handoff/sanitize.js

function emptyCounts() {
    return {
        invisible: 0,
        bidi: 0,
        tag: 0,
        control: 0,
        htmlComments: 0,
        fullWidth: 0,
        hiddenMarkdown: 0
    };
}
function addCounts(into, more) {
    into.invisible += more.invisible;
    into.bidi += more.bidi;
    into.tag += more.tag;
    into.control += more.control;
    into.htmlComments += more.htmlComments;
    into.fullWidth += more.fullWidth;
    into.hiddenMarkdown += more.hiddenMarkdown;
    return into;
}
/** e.g. `removed 3 invisible and 2 tag characters and 1 HTML comment`; '' when nothing changed. */
function describeSanitizeCounts(c) {
    const chars = [
        [c.invisible, 'invisible'],
        [c.bidi, 'bidi-control'],
        [c.tag, 'tag'],
        [c.control, 'control']
    ]
        .filter(([n]) => n > 0)
        .map(([n, what]) => `${n} ${what}`);
    const removed = [];
    if (chars.length > 0) {
        const total = c.invisible + c.bidi + c.tag + c.control;
        removed.push(`${listing(chars)} character${total === 1 ? '' : 's'}`);
    }
    if (c.htmlComments > 0) {
        removed.push(`${c.htmlComments} HTML comment${c.htmlComments === 1 ? '' : 's'}`);
    }
    if (c.hiddenMarkdown > 0) {
        removed.push(`${c.hiddenMarkdown} hidden Markdown part${c.hiddenMarkdown === 1 ? '' : 's'}`);
    }
    const parts = [];
    if (removed.length > 0)
        parts.push(`removed ${removed.join(' and ')}`);
    if (c.fullWidth > 0) {
        parts.push(`mapped ${c.fullWidth} full-width character${c.fullWidth === 1 ? '' : 's'} to ASCII`);
    }
    return parts.join('; ');
}
function listing(items) {
    const last = items.at(-1) ?? '';
    return items.length === 1 ? last : `${items.slice(0, -1).join(', ')} and ${last}`;
}
// Anything the slow path would change; most text has none of it and is returned as is.
// The class lists single code points (some are combining marks), nothing combined is meant.
const NEEDS_WORK = 
// eslint-disable-next-line no-misleading-character-class
/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uff01-\uff5e\uffa0\ufff9-\ufffb\ud800-\udfff]|<!--/;
function removalKind(cp) {
    if (cp < 0x20)
        return cp === 0x09 || cp === 0x0a ? null : 'control';
    if (cp >= 0x7f && cp <= 0x9f)
        return 'control';
    if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069))
        return 'bidi';
    if (cp >= 0xe0000 && cp <= 0xe007f)
        return 'tag';
    if (cp >= 0xd800 && cp <= 0xdfff)
        return 'control';
    if ((cp >= 0x200b && cp <= 0x200f) ||
        (cp >= 0x2060 && cp <= 0x206f) ||
        (cp >= 0xfff9 && cp <= 0xfffb) ||
        (cp >= 0xe0100 && cp <= 0xe01ef) ||
        cp === 0xfeff ||
        cp === 0x00ad ||
        cp === 0x180e ||
        cp === 0x034f ||
        cp === 0x061c ||
        cp === 0x115f ||
        cp === 0x1160 ||
        cp === 0x3164 ||
        cp === 0xffa0) {
        return 'invisible';
    }
    return null;
}
const isVariationSelector = (cp) => cp >= 0xfe00 && cp <= 0xfe0f;
/**
 * Cleans text that came from outside (an issue, a comment, an earlier agent's deliverable) so
 * nothing in it is hidden from a human reader but visible to a model: invisible, format, bidi
 * and tag characters and control characters go, CRLF and lone CR become LF, full-width ASCII
 * becomes ASCII, and HTML comments are removed. A comment is also found when removing other
 * characters (or another comment) brings `<!--` together, so the result never contains one.
 * One emoji variation selector after a character is kept; runs of them (a known way to smuggle
 * bytes) are not. Then the Markdown GitHub renders as nothing goes too (`removeHiddenMarkdown`).
 */
function sanitizeUntrusted(input) {
    const counts = emptyCounts();
    const chars = NEEDS_WORK.test(input) ? removeHiddenCharacters(input, counts) : input;
    const markdown = removeHiddenMarkdown(chars);
    counts.hiddenMarkdown = markdown.count;
    const removed = counts.invisible +
        counts.bidi +
        counts.tag +
        counts.control +
        counts.htmlComments +
        counts.hiddenMarkdown;
    return { text: markdown.text, removed, counts };
}
function removeHiddenCharacters(input, counts) {
    const out = [];
    let inComment = false;
    // The last two characters seen inside a comment, to find `-->`.
    let c1 = '';
    let c2 = '';
    let lastWasSelector = false;
    for (let i = 0; i < input.length; i++) {
        let cp = input.charCodeAt(i);
        if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < input.length) {
            const lo = input.charCodeAt(i + 1);
            if (lo >= 0xdc00 && lo <= 0xdfff) {
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                i++;
            }
        }
        if (cp === 0x0d) {
            if (input.charCodeAt(i + 1) === 0x0a)
                continue;
            cp = 0x0a;
        }
        const kind = removalKind(cp);
        if (kind) {
            counts[kind]++;
            continue;
        }
        if (isVariationSelector(cp)) {
            if (lastWasSelector || inComment || out.length === 0) {
                counts.invisible++;
                continue;
            }
        }
        if (cp >= 0xff01 && cp <= 0xff5e) {
            counts.fullWidth++;
            cp -= 0xfee0;
        }
        const ch = String.fromCodePoint(cp);
        if (inComment) {
            if (ch === '>' && c1 === '-' && c2 === '-') {
                inComment = false;
                const last = out[out.length - 1];
                lastWasSelector = last !== undefined && isVariationSelector(last.codePointAt(0));
            }
            c2 = c1;
            c1 = ch;
            continue;
        }
        out.push(ch);
        lastWasSelector = isVariationSelector(cp);
        const n = out.length;
        if (ch === '-' && n >= 4 && out[n - 2] === '-' && out[n - 3] === '!' && out[n - 4] === '<') {
            out.length = n - 4;
            inComment = true;
            counts.htmlComments++;
            c1 = c2 = '';
        }
    }
    return out.join('');
}

;// CONCATENATED MODULE: ./.build/pipeline/untrusted-text.js


// Untrusted text (agent output, reasons, names, replies) shown in a log line, a comment, the
// job summary or a prompt: one set of helpers, so every place escapes the same way.
/** One line: hidden characters and HTML comments gone, every line break and run of space folded. */
function oneLine(text) {
    return sanitizeUntrusted(String(text ?? ''))
        .text.replace(/\s+/g, ' ')
        .trim();
}
// Cutting is plain text, not escaping: it lives below every layer (git/ uses it too) and is
// offered here with the helpers that need it.

/**
 * Inline Markdown: characters that make tables, HTML, code spans or links become entities,
 * and `@`/`#` get a word joiner so no one is mentioned and no issue linked.
 */
function inlineMarkdown(text) {
    return text.replace(/[&<>|`\\[\]@#]/g, (c) => c === '@' || c === '#' ? `${c}\u2060` : `&#${c.charCodeAt(0)};`);
}
/**
 * An agent's Markdown, for a comment in its name: it reads the same, but a word joiner after
 * each `@`, after a `<` that could open a tag or an HTML comment, and between `!` and `[` means
 * no one is mentioned, no raw HTML is rendered, and no image is fetched (an image URL carries
 * whatever an injected agent put in it to that host the moment anyone opens the issue). Code
 * spans and blocks are treated the same: telling them apart as GitHub does is not needed.
 */
function agentMarkdown(text) {
    return text.replace(/@|<(?=[A-Za-z/!?])|!(?=\[)/g, (c) => `${c}\u2060`);
}
/** One table cell (or any inline spot) of untrusted text. */
function cellText(text, max = 200) {
    return inlineMarkdown(clip(oneLine(text), max));
}
/** A fenced block whose fence is longer than any run of its character inside the text. */
function fenced(text, char = '`', info = 'text') {
    let longest = 0;
    for (const m of text.matchAll(char === '`' ? /`+/g : /~+/g))
        longest = Math.max(longest, m[0].length);
    const fence = char.repeat(Math.max(3, longest + 1));
    return `${fence}${info}\n${text}\n${fence}`;
}

// EXTERNAL MODULE: ./.build/tracker/linear-key.js
var linear_key = __nccwpck_require__(658);
;// CONCATENATED MODULE: ./.build/action/issue-key.js
// The one spelling of the issue a manual run or a dispatch names, taken where the input or the
// payload is read: `#42`, ` 42` and `42` are issue 42, `eng-7` is ENG-7. Everything after reads
// this key alone, as the workflow's concurrency group does (init declares the manual run's
// `issue` input a number, so GitHub hands the group 42 too).



const GITHUB_NUMBER = /^#?\s*([1-9][0-9]{0,9})$/;
/** The issue's canonical key: a GitHub issue number, or a Linear key with its team in capitals. */
function issueKey(given) {
    const text = String(given).trim();
    const number = GITHUB_NUMBER.exec(text);
    if (number)
        return number[1];
    const linear = linear_key/* LINEAR_KEY */.O.exec(text);
    if (linear)
        return `${linear[1].toUpperCase()}-${linear[2]}`;
    throw new errors/* UserError */.yo(`issue "${(0,_build_clip/* clip */.$)(oneLine(text), 60)}" is not an issue number or a Linear issue key; pass e.g. issue: 42 or issue: ENG-123`);
}

;// CONCATENATED MODULE: ./.build/pipeline/pause.js
const PAUSED_LABEL = 'itervox-paused';
const REPOSITORY_PAUSE = 'paused for the whole repository by the variable ITERVOX_PAUSED (the action input paused); unset it and the scheduled reconcile resumes where the pipeline was';
/** Why new stages of an issue with these labels are held, or undefined when they are not. */
function pausedBy(labels, paused) {
    if (labels.some((l) => l.toLowerCase() === PAUSED_LABEL)) {
        return `paused by the ${PAUSED_LABEL} label; remove it to resume where the pipeline was`;
    }
    if (paused)
        return REPOSITORY_PAUSE;
    return undefined;
}
/** Why new stages are held while a person's closing of the pull request stands. */
function pausedByClosedPull(pr) {
    return `paused because pull request #${pr} was closed without merging; reopen it to resume where the pipeline was`;
}
/**
 * A stage of the issue was held by the label (not the repository's switch, nor a closed pull
 * request), and none has started since: whoever took the label off decides whether it
 * resumes. A reason worded otherwise (a record from another version) counts as the label's, so
 * the doubt keeps the issue paused.
 */
function heldByLabel(record) {
    return (record.paused !== undefined &&
        record.paused !== REPOSITORY_PAUSE &&
        record.pausedByClosedPull === undefined);
}
/**
 * The record once a stage was held by the switch (`why`; `closedPull` when it is the closed
 * pull request), or started (undefined).
 */
function withPause(record, why, closedPull) {
    const next = { ...record };
    if (why === undefined)
        delete next.paused;
    else
        next.paused = why;
    if (why === undefined || closedPull === undefined)
        delete next.pausedByClosedPull;
    else
        next.pausedByClosedPull = closedPull;
    return next;
}

;// CONCATENATED MODULE: ./.build/action/event.js







/**
 * All a wake-up may say: which issue, the state and entry it was sent for, and the name of the
 * owed step it wakes. What runs is read from the issue's record.
 */
const WAKE_KEYS = new Set(['issue', 'state', 'entry', 'step']);
// GitHub caps webhook payloads at 25 MB.
const EVENT_MAX_BYTES = 32 * 1024 * 1024;
const FIX = 'GITHUB_EVENT_PATH must name the event file the runner wrote';
/** The event payload file: a JSON object, or a UserError naming the file. */
function readEvent(path) {
    let text;
    try {
        text = readCappedText(path, EVENT_MAX_BYTES);
    }
    catch (err) {
        // The refusal says what the file is; what to change is always the path.
        const what = err.message.split(';')[0];
        throw new errors/* UserError */.yo(`cannot use the event payload (${what}); ${FIX}`, { file: path });
    }
    let value;
    try {
        value = JSON.parse(text);
    }
    catch (err) {
        // V8 quotes part of the text after the reason, or gives an offset: the reason is shown, the
        // offset becomes the line and column.
        const message = err.message;
        const offset = /at position (\d+)/.exec(message);
        const reason = message.replace(/, (\.\.\.)?".*$|( in JSON)? at position \d+.*$/s, '');
        throw new errors/* UserError */.yo(`the event payload is not JSON (${(0,_build_clip/* clip */.$)(oneLine(reason), 80)}); ${FIX}`, offset ? { file: path, ...lineAndColumn(text, Number(offset[1])) } : { file: path });
    }
    if (!isRecord(value)) {
        const what = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
        throw new errors/* UserError */.yo(`the event payload is ${what}, not a JSON object; ${FIX}`, { file: path });
    }
    return value;
}
/**
 * The trigger of the job the runner describes (its event file, and the issue and state
 * inputs), read once by the main step's light entry for its first line and its early fetch.
 * Undefined when it cannot be read: the stage, another bundle, reads it again and says why.
 */
function jobTrigger(env) {
    const path = env.GITHUB_EVENT_PATH;
    if (!path)
        return undefined;
    const input = (name) => (0,action_input/* actionInput */.j)(env, name) || undefined;
    try {
        return triggerFromEvent(env.GITHUB_EVENT_NAME ?? '', readEvent(path), {
            issue: input('issue'),
            state: input('state')
        });
    }
    catch {
        return undefined;
    }
}
/**
 * A person reopened the pull request of an issue's pipeline (head `itervox/<number>` in this
 * repository): the issue resumes what its record says is owed, as when `itervox-paused` is
 * taken off.
 */
function reopenedPull(payload, actor, defaultBranch) {
    const head = record(record(payload.pull_request).head);
    const issue = /^itervox\/([1-9][0-9]{0,9})$/.exec(str(head.ref) ?? '')?.[1];
    const own = str(record(head.repo).full_name) === str(record(payload.repository).full_name);
    if (!issue || !own) {
        return {
            kind: 'skip',
            reason: "the reopened pull request is no issue's pipeline (head itervox/<number> in this repository)"
        };
    }
    return { kind: 'run', source: 'label', issue, actor, defaultBranch, resume: true };
}
/**
 * Maps a GitHub event to a stage trigger. Overrides are the action's `issue` and `state`
 * inputs, which a workflow fills from `workflow_dispatch` inputs or a dispatch payload.
 * A payload field of the wrong type counts as absent.
 */
function triggerFromEvent(eventName, payload, overrides) {
    const sender = record(payload.sender);
    const actor = { login: str(sender.login) ?? '', type: str(sender.type) ?? 'User' };
    const repository = record(payload.repository);
    const defaultBranch = str(repository.default_branch);
    const action = str(payload.action);
    const text = (v) => typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : undefined;
    switch (eventName) {
        case 'issues':
        case 'pull_request':
        case 'pull_request_target': {
            const removed = str(record(payload.label).name)?.toLowerCase();
            const unpaused = issueNumber(record(payload.issue).number);
            if (eventName === 'issues' &&
                action === 'unlabeled' &&
                removed === PAUSED_LABEL &&
                unpaused) {
                return {
                    kind: 'run',
                    source: 'label',
                    issue: String(unpaused),
                    actor,
                    defaultBranch,
                    resume: true
                };
            }
            if (eventName === 'pull_request' && action === 'reopened') {
                return reopenedPull(payload, actor, defaultBranch);
            }
            if (action !== 'labeled') {
                return {
                    kind: 'skip',
                    reason: `${eventName} event ${shown(action)} does not start a stage; only "labeled" does`
                };
            }
            const label = str(record(payload.label).name);
            if (!label)
                return { kind: 'skip', reason: 'the labeled event carries no label' };
            // The issue or pull request the label went on, and when (its `updated_at`).
            const labelled = (number, on) => {
                const at = timeOf(on.updated_at);
                const run = { kind: 'run', source: 'label', issue: String(number), label };
                return { ...run, ...(at ? { at } : {}), actor, defaultBranch };
            };
            if (eventName === 'issues') {
                const number = issueNumber(record(payload.issue).number);
                if (!number)
                    return { kind: 'skip', reason: 'the issues event carries no issue number' };
                return labelled(number, record(payload.issue));
            }
            const pr = record(payload.pull_request);
            const number = issueNumber(pr.number);
            const head = record(pr.head);
            const headRef = str(head.ref);
            if (!number || !headRef) {
                return { kind: 'skip', reason: 'the pull_request event carries no pull request' };
            }
            const headRepo = str(record(head.repo).full_name);
            return {
                ...labelled(number, pr),
                pullRequest: {
                    number,
                    headRef,
                    fork: !headRepo || headRepo !== str(repository.full_name)
                }
            };
        }
        case 'workflow_dispatch': {
            const inputs = record(payload.inputs);
            const given = overrides.issue ?? text(inputs.issue);
            if (!given) {
                return {
                    kind: 'skip',
                    reason: 'workflow_dispatch without an issue: set the action input issue'
                };
            }
            const state = overrides.state ?? text(inputs.state);
            return {
                kind: 'run',
                source: 'workflow_dispatch',
                issue: issueKey(given),
                state,
                actor,
                defaultBranch
            };
        }
        case 'repository_dispatch': {
            if (action !== DISPATCH_TYPE) {
                return {
                    kind: 'skip',
                    reason: `repository_dispatch of type ${shown(action)} is not ${DISPATCH_TYPE}`
                };
            }
            const client = record(payload.client_payload);
            const extra = Object.keys(client).filter((k) => !WAKE_KEYS.has(k));
            if (extra.length > 0) {
                return {
                    kind: 'deny',
                    reason: `the ${DISPATCH_TYPE} dispatch carries ${extra
                        .slice(0, 3)
                        .map((k) => (0,_build_clip/* clip */.$)(oneLine(k), 40))
                        .join(', ')}; a wake-up names only issue, state, entry and step, and what runs comes from the issue's record`
                };
            }
            const given = overrides.issue ?? text(client.issue);
            if (!given)
                return { kind: 'skip', reason: `the ${DISPATCH_TYPE} dispatch carries no issue` };
            const state = overrides.state ?? text(client.state);
            const entry = client.entry;
            const step = typeof client.step === 'string' && /^[A-Za-z0-9._-]{1,80}$/.test(client.step)
                ? client.step
                : undefined;
            const wake = typeof entry === 'number' && Number.isInteger(entry) && entry >= 0 && entry < 1e9
                ? { entry, ...(step ? { step } : {}) }
                : undefined;
            return {
                kind: 'run',
                source: 'wake',
                issue: issueKey(given),
                state,
                actor,
                defaultBranch,
                ...(wake ? { wake } : {})
            };
        }
        case 'issue_comment': {
            if (action !== 'created') {
                return { kind: 'skip', reason: `issue_comment ${shown(action)} does not answer a stage` };
            }
            const number = issueNumber(record(payload.issue).number);
            const comment = record(payload.comment);
            const body = str(comment.body);
            if (!number || !body)
                return { kind: 'skip', reason: 'the comment event carries no issue or text' };
            return {
                kind: 'run',
                source: 'comment',
                issue: String(number),
                actor,
                defaultBranch,
                reply: { body, author: str(record(comment.user).login) ?? actor.login }
            };
        }
        default:
            return { kind: 'skip', reason: `the ${eventName} event does not start a stage` };
    }
}
function lineAndColumn(text, offset) {
    const before = text.slice(0, offset);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, col: offset - lineStart + 1 };
}
function isRecord(v) {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}
/** `v` when it is a JSON object, else an empty one: a missing or mistyped level reads as absent. */
function record(v) {
    return isRecord(v) ? v : {};
}
/** An ISO time from the payload, as GitHub writes it; anything else is no time. */
function timeOf(v) {
    const t = str(v);
    return t && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(t) && !Number.isNaN(Date.parse(t)) ? t : undefined;
}
function str(v) {
    return typeof v === 'string' ? v : undefined;
}
function issueNumber(v) {
    return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}
/** The payload's action in a skip reason: quoted, on one line, short. */
function shown(action) {
    return action === undefined ? '(with no action)' : JSON.stringify((0,_build_clip/* clip */.$)(oneLine(action), 60));
}


/***/ }),

/***/ 455:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  g: () => (/* binding */ loadSteps)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(760);
;// CONCATENATED MODULE: external "node:url"
const external_node_url_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:url");
;// CONCATENATED MODULE: ./.build/action/load-steps.js


/**
 * The steps' code, from the one bundle beside this step's own (dist/steps/index.js next to
 * dist/main and dist/post), so that the two steps do not each carry a copy of the program.
 * The path is built at run time and the import left to node: a bundler would otherwise pull the
 * whole program into this light entry again.
 */
async function loadSteps() {
    const here = (0,external_node_path_.dirname)((0,external_node_url_namespaceObject.fileURLToPath)(import.meta.url));
    const bundle = (0,external_node_url_namespaceObject.pathToFileURL)((0,external_node_path_.join)(here, '..', 'steps', 'index.js')).href;
    return (await import(/* webpackIgnore: true */ bundle));
}


/***/ }),

/***/ 764:
/***/ ((__webpack_module__, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(__webpack_module__, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(161);
/* harmony import */ var _early_fetch_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(963);
/* harmony import */ var _event_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(487);
/* harmony import */ var _load_steps_js__WEBPACK_IMPORTED_MODULE_3__ = __nccwpck_require__(455);
/* harmony import */ var _start_line_js__WEBPACK_IMPORTED_MODULE_4__ = __nccwpck_require__(328);





// The job's log says at once what starts; the rest of the program (~2 MB of JavaScript: the
// GitHub client, the schemas, the templates) loads after that line, while git fetches what the
// stage needs first. @actions/core is part of that rest, as it brings an HTTP client with it:
// its info is a line on stdout.
const trigger = (0,_event_js__WEBPACK_IMPORTED_MODULE_2__/* .jobTrigger */ .iC)(process.env);
process.stdout.write(`${(0,_start_line_js__WEBPACK_IMPORTED_MODULE_4__/* .startLine */ .F)(process.env, trigger)}${node_os__WEBPACK_IMPORTED_MODULE_0__.EOL}`);
const early = (0,_early_fetch_js__WEBPACK_IMPORTED_MODULE_1__/* .startEarlyFetch */ .k)(process.env, trigger);
// Listing the remote's branches takes the main thread little, and loading takes it whole: the
// fetch is started first, so that git and the network work while the program loads. A remote
// that never answers the listing holds the stage here as it would hold it later.
await early?.started;
const { mainStep } = await (0,_load_steps_js__WEBPACK_IMPORTED_MODULE_3__/* .loadSteps */ .g)();
await mainStep(early);

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 328:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   F: () => (/* binding */ startLine)
/* harmony export */ });
// Runner-set names (an action's owner/name@ref, an event's name) and numbers; anything else is
// left out of the line, which is printed before any secret is masked.
const NAME = /^[\w.@/-]{1,200}$/;
const NUMBER = /^\d{1,20}$/;
/**
 * The main step's first log line, said before the rest of the program loads: which action at
 * which ref starts, for which event, issue and run, from what the runner provides.
 */
function startLine(env, trigger) {
    const ref = [env.GITHUB_ACTION_REPOSITORY, env.GITHUB_ACTION_REF].filter(Boolean).join('@');
    const event = env.GITHUB_EVENT_NAME ?? '';
    const named = trigger?.kind === 'run' ? trigger.issue.replace(/^#/, '') : '';
    const issue = /^[1-9]\d{0,9}$/.test(named) ? named : undefined;
    const run = env.GITHUB_RUN_ID ?? '';
    const attempt = env.GITHUB_RUN_ATTEMPT ?? '';
    const parts = [
        NAME.test(event) ? `${event} event` : 'an event',
        ...(issue ? [`issue #${issue}`] : []),
        ...(NUMBER.test(run) ? [`run ${run}${NUMBER.test(attempt) ? ` attempt ${attempt}` : ''}`] : [])
    ];
    return `itervox handoff${NAME.test(ref) ? ` ${ref}` : ''} starting: ${parts.join(', ')}`;
}


/***/ }),

/***/ 802:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   $: () => (/* binding */ clip)
/* harmony export */ });
/** At most `max` code points, with an ellipsis when cut. */
function clip(text, max) {
    const points = Array.from(text);
    return points.length <= max ? text : points.slice(0, max - 1).join('') + '\u2026';
}


/***/ }),

/***/ 243:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   yo: () => (/* binding */ UserError)
/* harmony export */ });
/* unused harmony exports formatLocation, UserErrors, messageOf */
/**
 * A mistake the user can fix. It prints as one line, `file:line:col: message`, and the
 * message says what to change; adapters print it without a stack trace.
 */
class UserError extends Error {
    location;
    constructor(message, location) {
        super(message);
        this.location = location;
        this.name = 'UserError';
    }
    /** The one line shown to the user. */
    format() {
        const where = this.location ? formatLocation(this.location) : '';
        return where ? `${where}: ${this.message}` : this.message;
    }
}
function formatLocation(loc) {
    let out = loc.file;
    if (loc.line !== undefined) {
        out += `:${loc.line}`;
        if (loc.col !== undefined)
            out += `:${loc.col}`;
    }
    return out;
}
/** Many user mistakes found at once (e.g. every problem in WORKFLOW.md); each is one line. */
class UserErrors extends UserError {
    errors;
    constructor(errors) {
        super(errors.map((e) => e.format()).join('\n'));
        this.errors = errors;
        this.name = 'UserErrors';
    }
    format() {
        return this.errors.map((e) => e.format()).join('\n');
    }
}
/** An error as one line for the user: a UserError's own format, else its message. */
function messageOf(err) {
    if (err instanceof UserError)
        return err.format();
    return err instanceof Error ? err.message : String(err);
}


/***/ }),

/***/ 658:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {

/* harmony export */ __nccwpck_require__.d(__webpack_exports__, {
/* harmony export */   O: () => (/* binding */ LINEAR_KEY)
/* harmony export */ });
/** A Linear issue key (ENG-123): its team key and number. */
const LINEAR_KEY = /^([A-Za-z][A-Za-z0-9]{0,19})-([1-9][0-9]{0,9})$/;


/***/ })

/******/ });
/************************************************************************/
/******/ // The module cache
/******/ var __webpack_module_cache__ = {};
/******/ 
/******/ // The require function
/******/ function __nccwpck_require__(moduleId) {
/******/ 	// Check if module is in cache
/******/ 	var cachedModule = __webpack_module_cache__[moduleId];
/******/ 	if (cachedModule !== undefined) {
/******/ 		return cachedModule.exports;
/******/ 	}
/******/ 	// Create a new module (and put it into the cache)
/******/ 	var module = __webpack_module_cache__[moduleId] = {
/******/ 		// no module.id needed
/******/ 		// no module.loaded needed
/******/ 		exports: {}
/******/ 	};
/******/ 
/******/ 	// Execute the module function
/******/ 	var threw = true;
/******/ 	try {
/******/ 		__webpack_modules__[moduleId](module, module.exports, __nccwpck_require__);
/******/ 		threw = false;
/******/ 	} finally {
/******/ 		if(threw) delete __webpack_module_cache__[moduleId];
/******/ 	}
/******/ 
/******/ 	// Return the exports of the module
/******/ 	return module.exports;
/******/ }
/******/ 
/************************************************************************/
/******/ /* webpack/runtime/asset-relocator-loader */
/******/ if (typeof __nccwpck_require__ !== 'undefined') __nccwpck_require__.ab = decodeURIComponent(new URL('.', import.meta.url).pathname).slice(import.meta.url.match(/^file:\/\/\/\w:/) ? 1 : 0, -1) + "/";
/******/ 
/******/ /* webpack/runtime/async module */
/******/ (() => {
/******/ 	var webpackQueues = typeof Symbol === "function" ? Symbol("webpack queues") : "__webpack_queues__";
/******/ 	var webpackExports = typeof Symbol === "function" ? Symbol("webpack exports") : "__webpack_exports__";
/******/ 	var webpackError = typeof Symbol === "function" ? Symbol("webpack error") : "__webpack_error__";
/******/ 	var resolveQueue = (queue) => {
/******/ 		if(queue && queue.d < 1) {
/******/ 			queue.d = 1;
/******/ 			queue.forEach((fn) => (fn.r--));
/******/ 			queue.forEach((fn) => (fn.r-- ? fn.r++ : fn()));
/******/ 		}
/******/ 	}
/******/ 	var wrapDeps = (deps) => (deps.map((dep) => {
/******/ 		if(dep !== null && typeof dep === "object") {
/******/ 			if(dep[webpackQueues]) return dep;
/******/ 			if(dep.then) {
/******/ 				var queue = [];
/******/ 				queue.d = 0;
/******/ 				dep.then((r) => {
/******/ 					obj[webpackExports] = r;
/******/ 					resolveQueue(queue);
/******/ 				}, (e) => {
/******/ 					obj[webpackError] = e;
/******/ 					resolveQueue(queue);
/******/ 				});
/******/ 				var obj = {};
/******/ 				obj[webpackQueues] = (fn) => (fn(queue));
/******/ 				return obj;
/******/ 			}
/******/ 		}
/******/ 		var ret = {};
/******/ 		ret[webpackQueues] = x => {};
/******/ 		ret[webpackExports] = dep;
/******/ 		return ret;
/******/ 	}));
/******/ 	__nccwpck_require__.a = (module, body, hasAwait) => {
/******/ 		var queue;
/******/ 		hasAwait && ((queue = []).d = -1);
/******/ 		var depQueues = new Set();
/******/ 		var exports = module.exports;
/******/ 		var currentDeps;
/******/ 		var outerResolve;
/******/ 		var reject;
/******/ 		var promise = new Promise((resolve, rej) => {
/******/ 			reject = rej;
/******/ 			outerResolve = resolve;
/******/ 		});
/******/ 		promise[webpackExports] = exports;
/******/ 		promise[webpackQueues] = (fn) => (queue && fn(queue), depQueues.forEach(fn), promise["catch"](x => {}));
/******/ 		module.exports = promise;
/******/ 		body((deps) => {
/******/ 			currentDeps = wrapDeps(deps);
/******/ 			var fn;
/******/ 			var getResult = () => (currentDeps.map((d) => {
/******/ 				if(d[webpackError]) throw d[webpackError];
/******/ 				return d[webpackExports];
/******/ 			}))
/******/ 			var promise = new Promise((resolve) => {
/******/ 				fn = () => (resolve(getResult));
/******/ 				fn.r = 0;
/******/ 				var fnQueue = (q) => (q !== queue && !depQueues.has(q) && (depQueues.add(q), q && !q.d && (fn.r++, q.push(fn))));
/******/ 				currentDeps.map((dep) => (dep[webpackQueues](fnQueue)));
/******/ 			});
/******/ 			return fn.r ? promise : getResult();
/******/ 		}, (err) => ((err ? reject(promise[webpackError] = err) : outerResolve(exports)), resolveQueue(queue)));
/******/ 		queue && queue.d < 0 && (queue.d = 0);
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/define property getters */
/******/ (() => {
/******/ 	// define getter functions for harmony exports
/******/ 	__nccwpck_require__.d = (exports, definition) => {
/******/ 		for(var key in definition) {
/******/ 			if(__nccwpck_require__.o(definition, key) && !__nccwpck_require__.o(exports, key)) {
/******/ 				Object.defineProperty(exports, key, { enumerable: true, get: definition[key] });
/******/ 			}
/******/ 		}
/******/ 	};
/******/ })();
/******/ 
/******/ /* webpack/runtime/hasOwnProperty shorthand */
/******/ (() => {
/******/ 	__nccwpck_require__.o = (obj, prop) => (Object.prototype.hasOwnProperty.call(obj, prop))
/******/ })();
/******/ 
/************************************************************************/
/******/ 
/******/ // startup
/******/ // Load entry module and return exports
/******/ // This entry module used 'module' so it can't be inlined
/******/ var __webpack_exports__ = __nccwpck_require__(764);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
