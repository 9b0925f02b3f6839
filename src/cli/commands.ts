import type { Command } from './args.js'
import { demoCommand } from './demo.js'
import { demoAgentCommand } from './demo-agent.js'
import { initCommand } from './init.js'
import { labelsCommand } from './labels.js'
import { promptCommand } from './prompt.js'
import { reconcileCommand } from './reconcile.js'
import { runCommand } from './run.js'
import { validateCommand } from './validate.js'

export const commands: Record<string, Command> = {
  init: initCommand,
  labels: labelsCommand,
  validate: validateCommand,
  prompt: promptCommand,
  run: runCommand,
  reconcile: reconcileCommand,
  demo: demoCommand
}

// The demo's scripted agent runs as this CLI (see demo.ts); it is no command for people, so it
// is left out of the help, which lists the enumerable entries.
Object.defineProperty(commands, '__demo-agent', { value: demoAgentCommand, enumerable: false })
