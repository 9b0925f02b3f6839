#!/usr/bin/env node
var __webpack_exports__ = {};
process.stdout.write('itervox-handoff: no commands yet\n');


