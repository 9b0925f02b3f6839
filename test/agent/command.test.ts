import { afterAll, describe, expect, it } from '@jest/globals'
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { resolveCommand } from '../../src/agent/command.js'

const dir = mkdtempSync(join(tmpdir(), 'command-'))
const bin = join(dir, 'bin')
mkdirSync(bin)
mkdirSync(join(dir, 'scripts'))
writeFileSync(join(bin, 'agent'), '#!/bin/sh\n')
chmodSync(join(bin, 'agent'), 0o755)
writeFileSync(join(bin, 'plain'), 'not executable')
chmodSync(join(bin, 'plain'), 0o644)
writeFileSync(join(dir, 'scripts', 'run.sh'), '#!/bin/sh\n')
chmodSync(join(dir, 'scripts', 'run.sh'), 0o755)
mkdirSync(join(bin, 'adir'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('resolveCommand', () => {
  it('finds a bare name on PATH, skipping what is not an executable file', () => {
    expect(resolveCommand('agent', dir, `/nonexistent::${bin}`, 'dev')).toEqual({
      path: join(bin, 'agent')
    })
    expect(resolveCommand('adir', dir, bin, 'dev')).toEqual({
      error: 'command "adir" of profile "dev" was not found on PATH'
    })
  })

  it('names the command and the profile when nothing is found', () => {
    expect(resolveCommand('claude', dir, '/nonexistent', 'review')).toEqual({
      error: 'command "claude" of profile "review" was not found on PATH'
    })
    expect(resolveCommand('claude', dir, undefined, 'review')).toHaveProperty('error')
    expect(resolveCommand('', dir, bin, 'review')).toEqual({
      error: 'profile "review" has no command'
    })
  })

  it('never looks in the repository for a bare name through an empty PATH entry', () => {
    writeFileSync(join(dir, 'planted'), '#!/bin/sh\n')
    chmodSync(join(dir, 'planted'), 0o755)
    expect(resolveCommand('planted', dir, `:${bin}`, 'dev')).toHaveProperty('error')
  })

  it('takes a path with a slash relative to the repository root', () => {
    expect(resolveCommand('./scripts/run.sh', dir, '', 'dev')).toEqual({
      path: join(dir, 'scripts', 'run.sh')
    })
    expect(resolveCommand('./scripts/missing.sh', dir, '', 'dev')).toEqual({
      error: 'command "./scripts/missing.sh" of profile "dev" does not exist'
    })
  })

  it('says when a file is not executable', () => {
    expect(resolveCommand(join(bin, 'plain'), dir, '', 'dev')).toEqual({
      error: `command "${join(bin, 'plain')}" of profile "dev" is not executable`
    })
  })
})
