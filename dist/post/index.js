import { createRequire as __WEBPACK_EXTERNAL_createRequire } from "module";
/******/ var __webpack_modules__ = ({

/***/ 161:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:os");

/***/ }),

/***/ 760:
/***/ ((module) => {

module.exports = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:path");

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

/***/ 399:
/***/ ((__webpack_module__, __unused_webpack___webpack_exports__, __nccwpck_require__) => {

__nccwpck_require__.a(__webpack_module__, async (__webpack_handle_async_dependencies__, __webpack_async_result__) => { try {
/* harmony import */ var node_os__WEBPACK_IMPORTED_MODULE_0__ = __nccwpck_require__(161);
/* harmony import */ var _load_steps_js__WEBPACK_IMPORTED_MODULE_1__ = __nccwpck_require__(455);
/* harmony import */ var _saved_context_js__WEBPACK_IMPORTED_MODULE_2__ = __nccwpck_require__(461);



// The post step runs after every job and almost always finds the stage finished. That much is
// known from the saved state alone, so the rest of the program (its GitHub client, git, the
// schemas: ~2 MB of JavaScript) loads only for a stage the main step left unfinished. Nothing
// here may need @actions/core, which brings an HTTP client with it: its getState is this
// variable, and its info a line on stdout.
const path = process.env[`STATE_${_saved_context_js__WEBPACK_IMPORTED_MODULE_2__/* .CONTEXT_STATE */ .ck}`] ?? '';
if ((0,_saved_context_js__WEBPACK_IMPORTED_MODULE_2__/* .unfinishedContext */ .xH)(path)) {
    const { finishStage } = await (0,_load_steps_js__WEBPACK_IMPORTED_MODULE_1__/* .loadSteps */ .g)();
    await finishStage(path);
}
else {
    process.stdout.write(`the stage finished in the main step; nothing to do${node_os__WEBPACK_IMPORTED_MODULE_0__.EOL}`);
}

__webpack_async_result__();
} catch(e) { __webpack_async_result__(e); } }, 1);

/***/ }),

/***/ 461:
/***/ ((__unused_webpack___webpack_module__, __webpack_exports__, __nccwpck_require__) => {


// EXPORTS
__nccwpck_require__.d(__webpack_exports__, {
  ck: () => (/* binding */ CONTEXT_STATE),
  xH: () => (/* binding */ unfinishedContext)
});

// UNUSED EXPORTS: ownFile

;// CONCATENATED MODULE: external "node:fs"
const external_node_fs_namespaceObject = __WEBPACK_EXTERNAL_createRequire(import.meta.url)("node:fs");
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __nccwpck_require__(760);
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
        const file = (0,external_node_fs_namespaceObject.lstatSync)(path);
        const dir = (0,external_node_fs_namespaceObject.lstatSync)((0,external_node_path_.dirname)(path));
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
        value = JSON.parse((0,external_node_fs_namespaceObject.readFileSync)(path, 'utf8'));
    }
    catch {
        return false;
    }
    return value?.phase !== 'done';
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
/******/ var __webpack_exports__ = __nccwpck_require__(399);
/******/ __webpack_exports__ = await __webpack_exports__;
/******/ 
