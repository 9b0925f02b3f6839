import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 344:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  g: () => (/* binding */ loadSteps)
});

;// CONCATENATED MODULE: external "node:path"
const external_node_path_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");
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
    const here = (0,external_node_path_namespaceObject.dirname)((0,external_node_url_namespaceObject.fileURLToPath)(import.meta.url));
    const bundle = (0,external_node_url_namespaceObject.pathToFileURL)((0,external_node_path_namespaceObject.join)(here, '..', 'steps', 'index.js')).href;
    return (await import(/* webpackIgnore: true */ bundle));
}


/***/ }),

/***/ 764:
/***/ ((__webpack_module__, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(__webpack_module__, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(161);
/* harmony import */ var _load_steps_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(344);
/* harmony import */ var _start_line_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(553);



// The job's log says at once what starts; the rest of the program (~2 MB of JavaScript: the
// GitHub client, git, the schemas, the templates) loads after that line. @actions/core is part
// of that rest, as it brings an HTTP client with it: its info is a line on stdout.
process.stdout.write(`${(0,_start_line_js__WEBPACK_IMPORTED_MODULE_2__/* .startLine */ .F)(process.env)}${node_os__WEBPACK_IMPORTED_MODULE_0__.EOL}`);
const { mainStep } = await (0,_load_steps_js__WEBPACK_IMPORTED_MODULE_1__/* .loadSteps */ .g)();
await mainStep();

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 553:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  F: () => (/* binding */ startLine)
});

;// CONCATENATED MODULE: ./.build/errors.js
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

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
;// CONCATENATED MODULE: ./.build/files/read-capped.js


/** A user's file that cannot be used as it is; the message says what to change. */
class FileRefused extends UserError {
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
const OPEN_FLAGS = external_node_fs_namespaceObject.constants.O_RDONLY | (external_node_fs_namespaceObject.constants.O_NONBLOCK ?? 0) | (external_node_fs_namespaceObject.constants.O_NOCTTY ?? 0);
const CHUNK = 64 * 1024;
/**
 * The bytes of the regular file at `path` (symlinks followed), refusing, without waiting or
 * reading, a FIFO, device, socket or directory, and refusing a file longer than `maxBytes`,
 * even one that grows while it is read. `display` names the file in messages.
 */
function readCappedFile(path, maxBytes, display = path) {
    let fd;
    try {
        fd = (0,external_node_fs_namespaceObject.openSync)(path, OPEN_FLAGS);
    }
    catch (e) {
        throw systemRefusal(e, display);
    }
    try {
        // fstat the descriptor, not the path: what was opened is what is judged.
        const st = (0,external_node_fs_namespaceObject.fstatSync)(fd);
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
            const n = (0,external_node_fs_namespaceObject.readSync)(fd, buf, 0, buf.length, null);
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
        (0,external_node_fs_namespaceObject.closeSync)(fd);
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

;// CONCATENATED MODULE: ./.build/pipeline/pause.js
const PAUSED_LABEL = 'itervox-paused';
/** Why new stages of an issue with these labels are held, or undefined when they are not. */
function pausedBy(labels, paused) {
    if (labels.some((l) => l.toLowerCase() === PAUSED_LABEL)) {
        return `paused by the ${PAUSED_LABEL} label; remove it to resume where the pipeline was`;
    }
    if (paused) {
        return 'paused for the whole repository by the variable ITERVOX_PAUSED (the action input paused); unset it and the scheduled reconcile resumes where the pipeline was';
    }
    return undefined;
}
/** The record once a stage was held by the switch (`why`), or started (undefined). */
function withPause(record, why) {
    const next = { ...record };
    if (why === undefined)
        delete next.paused;
    else
        next.paused = why;
    return next;
}

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
/** At most `max` code points, with an ellipsis when cut. */
function clip(text, max) {
    const points = Array.from(text);
    return points.length <= max ? text : points.slice(0, max - 1).join('') + '\u2026';
}
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
        throw new UserError(`cannot use the event payload (${what}); ${FIX}`, { file: path });
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
        throw new UserError(`the event payload is not JSON (${clip(oneLine(reason), 80)}); ${FIX}`, offset ? { file: path, ...lineAndColumn(text, Number(offset[1])) } : { file: path });
    }
    if (!isRecord(value)) {
        const what = value === null ? 'null' : Array.isArray(value) ? 'a list' : `a ${typeof value}`;
        throw new UserError(`the event payload is ${what}, not a JSON object; ${FIX}`, { file: path });
    }
    return value;
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
            if (action !== 'labeled') {
                return {
                    kind: 'skip',
                    reason: `${eventName} event ${shown(action)} does not start a stage; only "labeled" does`
                };
            }
            const label = str(record(payload.label).name);
            if (!label)
                return { kind: 'skip', reason: 'the labeled event carries no label' };
            if (eventName === 'issues') {
                const number = issueNumber(record(payload.issue).number);
                if (!number)
                    return { kind: 'skip', reason: 'the issues event carries no issue number' };
                return { kind: 'run', source: 'label', issue: String(number), label, actor, defaultBranch };
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
                kind: 'run',
                source: 'label',
                issue: String(number),
                label,
                actor,
                defaultBranch,
                pullRequest: {
                    number,
                    headRef,
                    fork: !headRepo || headRepo !== str(repository.full_name)
                }
            };
        }
        case 'workflow_dispatch': {
            const inputs = record(payload.inputs);
            const issue = overrides.issue ?? text(inputs.issue);
            if (!issue) {
                return {
                    kind: 'skip',
                    reason: 'workflow_dispatch without an issue: set the action input issue'
                };
            }
            const state = overrides.state ?? text(inputs.state);
            return { kind: 'run', source: 'workflow_dispatch', issue, state, actor, defaultBranch };
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
                        .map((k) => clip(oneLine(k), 40))
                        .join(', ')}; a wake-up names only issue, state, entry and step, and what runs comes from the issue's record`
                };
            }
            const issue = overrides.issue ?? text(client.issue);
            if (!issue)
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
                issue,
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
function str(v) {
    return typeof v === 'string' ? v : undefined;
}
function issueNumber(v) {
    return typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : undefined;
}
/** The payload's action in a skip reason: quoted, on one line, short. */
function shown(action) {
    return action === undefined ? '(with no action)' : JSON.stringify(clip(oneLine(action), 60));
}

;// CONCATENATED MODULE: ./.build/action/start-line.js

// Runner-set names (an action's owner/name@ref, an event's name) and numbers; anything else is
// left out of the line, which is printed before any secret is masked.
const NAME = /^[\w.@/-]{1,200}$/;
const NUMBER = /^\d{1,20}$/;
/**
 * The main step's first log line, said before the rest of the program loads: which action at
 * which ref starts, for which event, issue and run. It reads what the runner provides, as
 * @actions/core would (an input is INPUT_<NAME>, trimmed), without loading it.
 */
function startLine(env) {
    const ref = [env.GITHUB_ACTION_REPOSITORY, env.GITHUB_ACTION_REF].filter(Boolean).join('@');
    const event = env.GITHUB_EVENT_NAME ?? '';
    const issue = issueOf(env, event);
    const run = env.GITHUB_RUN_ID ?? '';
    const attempt = env.GITHUB_RUN_ATTEMPT ?? '';
    const parts = [
        NAME.test(event) ? `${event} event` : 'an event',
        ...(issue ? [`issue #${issue}`] : []),
        ...(NUMBER.test(run) ? [`run ${run}${NUMBER.test(attempt) ? ` attempt ${attempt}` : ''}`] : [])
    ];
    return `itervox handoff${NAME.test(ref) ? ` ${ref}` : ''} starting: ${parts.join(', ')}`;
}
/**
 * The issue the event names, if it names one; the stage reports any problem with it. The stage's
 * code is another bundle (dist/steps), so it reads the payload again: a file of a few KB.
 */
function issueOf(env, event) {
    const path = env.GITHUB_EVENT_PATH;
    if (!path)
        return undefined;
    const input = (name) => env[`INPUT_${name.toUpperCase()}`]?.trim() || undefined;
    try {
        const trigger = triggerFromEvent(event, readEvent(path), {
            issue: input('issue'),
            state: input('state')
        });
        const issue = trigger.kind === 'run' ? trigger.issue.replace(/^#/, '') : '';
        return /^[1-9]\d{0,9}$/.test(issue) ? issue : undefined;
    }
    catch {
        // An unreadable payload is the stage's to report, after it has checked the inputs.
        return undefined;
    }
}


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
