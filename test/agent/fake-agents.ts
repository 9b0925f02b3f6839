// The scripted agents of test/fixtures/agents/, installed under the names the runner's
// presets recognise. Stage tests reuse this.
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const FIXTURES = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/agents')

/**
 * A fresh directory holding `claude`, `codex`, `gemini`, `generic-agent` and the benches'
 * `instant-agent` (symlinks to the fakes). Put it first on PATH, or name a fake by its
 * absolute path.
 */
export function installFakeAgents(dir = mkdtempSync(join(tmpdir(), 'fake-agents-'))): string {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  // Installed where every user can run them, as a CLI installed with npm install -g is: an
  // isolated agent runs as another user.
  chmodSync(dir, 0o755)
  chmodSync(bin, 0o755)
  symlinkSync(join(FIXTURES, 'fake-claude.mjs'), join(bin, 'claude'))
  symlinkSync(join(FIXTURES, 'fake-codex.mjs'), join(bin, 'codex'))
  symlinkSync(join(FIXTURES, 'fake-gemini.mjs'), join(bin, 'gemini'))
  symlinkSync(join(FIXTURES, 'fake-generic.sh'), join(bin, 'generic-agent'))
  symlinkSync(join(FIXTURES, 'instant-agent.sh'), join(bin, 'instant-agent'))
  return bin
}
