// ARCHITECTURE.md is the map of the code: every file or folder it names in backticks exists,
// so a move or a rename that forgets the map fails here.
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROOT } from '../cli/helpers.js'

const named = [
  ...readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8').matchAll(/`((?:src|test|dist)\/[^`\s]*)`/g)
].map((m) => m[1]!)

describe('ARCHITECTURE.md', () => {
  it('names files and folders', () => {
    expect(named.length).toBeGreaterThan(20)
  })

  it('names only files and folders that exist', () => {
    expect(named.filter((p) => !existsSync(join(ROOT, p)))).toEqual([])
  })
})
