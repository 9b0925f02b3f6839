// A bundle's text in ASCII alone: node decodes such a file faster and keeps it as a one-byte
// string, which V8 also parses faster (about 5 ms of each step's start for dist/steps).
import ts from 'typescript'

const NON_ASCII = /[^\0-\x7f]/

/**
 * `code` with every character past ASCII written as `\uXXXX` (two for one past U+FFFF). That
 * escape means the same in a comment, a string, a template, a regular expression and a name
 * (where no bundle has a character past U+FFFF: the tests would not start), but not in a
 * tagged template's raw text, so a bundle with such a character there is refused. Only the
 * text of the code shows it: a pattern's `source`, a function's `toString()`.
 */
export function asciiOnly(code, file) {
  if (!NON_ASCII.test(code)) return code
  const tagged = []
  const visit = (node) => {
    if (ts.isTaggedTemplateExpression(node)) tagged.push(node.template)
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(file, code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS))
  const raw = tagged.find((t) => NON_ASCII.test(code.slice(t.pos, t.end)))
  if (raw) {
    throw new Error(`${file}: a tagged template holds a character past ASCII, at offset ${raw.pos}`)
  }
  return code.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
