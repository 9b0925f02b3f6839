// A bundle's text in ASCII alone: node decodes such a file faster and keeps it as a one-byte
// string, which V8 also parses faster (about 5 ms of each step's start for dist/steps).
import ts from 'typescript'

const NON_ASCII = /[^\0-\x7f]/

// Where `\uXXXX` would not mean the character it replaces: after a backslash (`\é` would become
// a backslash and `u00e9`), a line or paragraph separator (it ends a `//` comment, its escape
// does not), and other whitespace (an escape is no space between two tokens).
const UNSAFE = [
  [/\\[^\0-\x7f]/, 'a backslash before a character past ASCII'],
  [/[\u2028\u2029]/, 'a line or paragraph separator'],
  [/[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\ufeff]/, 'a space past ASCII']
]

/**
 * `code` with every character past ASCII written as `\uXXXX` (two for one past U+FFFF), which
 * means the same in a comment, a string, a template, a regular expression and a name (where no
 * bundle has a character past U+FFFF: the tests would not start). A bundle holding a character
 * where it would not is refused (`file` names it in the error): in a tagged template's raw
 * text, or one of UNSAFE's. Only the text of the code shows the escape: a pattern's `source`,
 * a function's `toString()`.
 */
export function asciiOnly(code, file) {
  if (!NON_ASCII.test(code)) return code
  for (const [pattern, what] of UNSAFE) {
    const at = code.search(pattern)
    if (at >= 0) throw new Error(`${file}: ${what} at offset ${at}; it cannot be escaped`)
  }
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS)
  const tagged = []
  const visit = (node) => {
    if (ts.isTaggedTemplateExpression(node)) tagged.push(node.template)
    ts.forEachChild(node, visit)
  }
  visit(source)
  const raw = tagged.find((t) => NON_ASCII.test(code.slice(t.getStart(source), t.end)))
  if (raw) {
    throw new Error(
      `${file}: a tagged template holds a character past ASCII at offset ${raw.getStart(source)}; it cannot be escaped`
    )
  }
  return code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
