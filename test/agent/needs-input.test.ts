import { describe, expect, it } from '@jest/globals'
import { findNeedsInput, QUESTION_MAX_CHARS } from '../../src/agent/needs-input.js'

const S = '<!-- itervox:needs-input -->'

describe('findNeedsInput', () => {
  it('takes the trimmed text before the sentinel as the question', () => {
    expect(findNeedsInput(`\n  Which DB?\n\nPostgres or SQLite?\n\n${S}\n`)).toEqual({
      question: 'Which DB?\n\nPostgres or SQLite?'
    })
  })

  it('accepts the sentinel with surrounding spaces and CRLF line ends', () => {
    expect(findNeedsInput(`Q?\r\n   ${S}  \r\n`)).toEqual({ question: 'Q?' })
  })

  it('needs the sentinel on a line of its own', () => {
    expect(findNeedsInput(`Q? ${S}`)).toBeUndefined()
    expect(findNeedsInput(`${S} trailing`)).toBeUndefined()
    expect(findNeedsInput('no marker here')).toBeUndefined()
  })

  it('ignores the sentinel inside backtick and tilde fences', () => {
    expect(findNeedsInput(`\`\`\`md\n${S}\n\`\`\`\nDone.`)).toBeUndefined()
    expect(findNeedsInput(`~~~~\n${S}\n~~~\nstill fenced\n${S}\n~~~~`)).toBeUndefined()
    expect(findNeedsInput(`  \`\`\`\n${S}\n  \`\`\`\nDone.`)).toBeUndefined()
  })

  it('finds the sentinel after a closed fence, and in an unclosed fence does not', () => {
    expect(findNeedsInput(`\`\`\`\ncode\n\`\`\`\nQ?\n${S}`)).toEqual({
      question: '```\ncode\n```\nQ?'
    })
    expect(findNeedsInput(`\`\`\`\n${S}`)).toBeUndefined()
  })

  it('does not take a backtick run with a backtick in its info string as a fence', () => {
    expect(findNeedsInput(`\`\`\` not a \` fence\nQ?\n${S}`)).toEqual({
      question: '``` not a ` fence\nQ?'
    })
  })

  it('caps a long question, keeping the end that sits above the sentinel', () => {
    const long = 'a'.repeat(QUESTION_MAX_CHARS * 2) + '\nWhich one?'
    const found = findNeedsInput(`${long}\n${S}`)
    expect(found?.question.length).toBeLessThanOrEqual(QUESTION_MAX_CHARS)
    expect(found?.question.endsWith('Which one?')).toBe(true)
    expect(found?.question.startsWith('…')).toBe(true)
  })

  it('reports an empty question when nothing precedes the sentinel', () => {
    expect(findNeedsInput(S)).toEqual({ question: '' })
  })
})
