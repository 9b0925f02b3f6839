import type { Command } from './args.js'
import { promptCommand } from './prompt.js'
import { validateCommand } from './validate.js'

export const commands: Record<string, Command> = {
  validate: validateCommand,
  prompt: promptCommand
}
