import { Buffer } from 'node:buffer'

/** One way a known value can be written down, as the text to look for. */
export interface EncodedForm {
  /** How it was written: empty for the value itself. */
  form: string
  needle: string
  /** Hex digits may be written in either case. */
  anyCase?: boolean
}

/**
 * The value as it is and in the encodings a leak most often takes: base64 (both alphabets,
 * at each of the three byte alignments, so the value is found inside a longer encoded text
 * such as an `Authorization: Basic` header), URL-encoding, hex and reversed. A determined
 * agent can always encode differently; this catches accidents and the obvious disguises.
 */
export function encodedForms(value: string): EncodedForm[] {
  const bytes = Buffer.from(value, 'utf8')
  const forms: EncodedForm[] = [{ form: '', needle: value }]
  for (let k = 0; k < 3; k++) {
    const encoded = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64')
    // Only the characters made of the value's own bits, whatever comes before or after it.
    const core = encoded.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6))
    forms.push({ form: 'base64', needle: core })
    forms.push({ form: 'base64', needle: core.replace(/\+/g, '-').replace(/\//g, '_') })
  }
  const url = encodeURIComponent(value)
  forms.push({ form: 'URL-encoded', needle: url })
  forms.push({ form: 'URL-encoded', needle: url.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()) })
  forms.push({ form: 'hex', needle: bytes.toString('hex'), anyCase: true })
  forms.push({ form: 'reversed', needle: [...value].reverse().join('') })
  const seen = new Set<string>()
  return forms.filter((f) => {
    const key = f.anyCase ? f.needle.toLowerCase() : f.needle
    if (seen.has(key) || f.needle.length === 0) return false
    seen.add(key)
    return true
  })
}
