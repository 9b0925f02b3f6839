import { EOL } from 'node:os'
import { loadSteps } from './load-steps.js'
import { startLine } from './start-line.js'

// The job's log says at once what starts; the rest of the program (~2 MB of JavaScript: the
// GitHub client, git, the schemas, the templates) loads after that line. @actions/core is part
// of that rest, as it brings an HTTP client with it: its info is a line on stdout.
process.stdout.write(`${startLine(process.env)}${EOL}`)
const { mainStep } = await loadSteps()
await mainStep()
