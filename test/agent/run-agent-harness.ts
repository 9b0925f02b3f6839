// Runs runAgent in a process of its own, as the action does, so a test can check what reaches
// that process's stdout. Usage: node --import tsx run-agent-harness.ts <options.json> <result.json>
import { readFileSync, writeFileSync } from 'node:fs'
import { runAgent } from '../../src/agent/run.js'
import type { RunAgentOptions } from '../../src/agent/types.js'

const [optionsFile, resultFile] = process.argv.slice(2) as [string, string]
const opts = JSON.parse(readFileSync(optionsFile, 'utf8')) as RunAgentOptions
writeFileSync(resultFile, JSON.stringify(await runAgent(opts)))
