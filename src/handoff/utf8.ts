export type Decoded = { ok: true; text: string } | { ok: false; problem: string }

const decoder = new TextDecoder('utf-8', { fatal: true })

/**
 * Decodes bytes that must be UTF-8. A UTF-8 byte-order mark is dropped; anything else that is
 * not UTF-8 (UTF-16 with its BOM, stray bytes) is refused with a one-line reason, never
 * turned into U+FFFD.
 */
export function decodeUtf8(bytes: Uint8Array): Decoded {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { ok: false, problem: 'is UTF-16 (byte-order mark FF FE), not UTF-8' }
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { ok: false, problem: 'is UTF-16 (byte-order mark FE FF), not UTF-8' }
  }
  try {
    return { ok: true, text: decoder.decode(bytes) }
  } catch {
    const at = firstInvalidUtf8(bytes)
    const bad = bytes[at]
    if (bad === undefined) return { ok: false, problem: 'is not valid UTF-8' }
    const byte = bad.toString(16).toUpperCase().padStart(2, '0')
    return { ok: false, problem: `is not valid UTF-8 (byte 0x${byte} at offset ${at})` }
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0
  for (let x = b[0]; x !== undefined; x = b[i]) {
    if (x < 0x80) {
      i++
      continue
    }
    let need: number
    let min: number
    let max = 0xbf
    if (x >= 0xc2 && x <= 0xdf) need = 1
    else if (x >= 0xe0 && x <= 0xef) need = 2
    else if (x >= 0xf0 && x <= 0xf4) need = 3
    else return i
    // The second byte's range rules out overlong forms, surrogates and code points > U+10FFFF.
    if (x === 0xe0) min = 0xa0
    else if (x === 0xf0) min = 0x90
    else min = 0x80
    if (x === 0xed) max = 0x9f
    else if (x === 0xf4) max = 0x8f
    const second = b[i + 1]
    if (second === undefined || second < min || second > max) return i
    for (let k = 2; k <= need; k++) {
      const next = b[i + k]
      if (next === undefined || (next & 0xc0) !== 0x80) return i
    }
    i += need + 1
  }
  return -1
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8')
}

/** The longest prefix of `text` that is at most `maxBytes` UTF-8 bytes, cut between code points. */
export function cutUtf8(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return ''
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length <= maxBytes) return text
  let end = maxBytes
  // end < bytes.length: a byte past the end would not continue a sequence anyway.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--
  return bytes.subarray(0, end).toString('utf8')
}
