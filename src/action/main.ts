import { EOL } from 'node:os'
import { startEarlyFetch } from './early-fetch.js'
import { jobTrigger } from './event.js'
import { loadSteps } from './load-steps.js'
import { startLine } from './start-line.js'

// The job's log says at once what starts; the rest of the program (~2 MB of JavaScript: the
// GitHub client, the schemas, the templates) loads after that line, while git fetches what the
// stage needs first. @actions/core is part of that rest, as it brings an HTTP client with it:
// its info is a line on stdout.
const trigger = jobTrigger(process.env)
process.stdout.write(`${startLine(process.env, trigger)}${EOL}`)
const early = startEarlyFetch(process.env, trigger)
// Listing the remote's branches takes the main thread little, and loading takes it whole: the
// fetch is started first, so that git and the network work while the program loads. A remote
// that never answers the listing holds the stage here as it would hold it later.
await early?.started
const { mainStep } = await loadSteps()
await mainStep(early)
