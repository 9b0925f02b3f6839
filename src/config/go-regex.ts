/**
 * A regular expression written for the itervox daemon (Go's RE2 syntax), as JavaScript reads
 * it: RE2's leading `(?i)`-style flags become RegExp flags and `(?P<name>` a named group;
 * undefined when JavaScript cannot read it.
 */
export function goRegex(source: string): RegExp | undefined {
  const lead = /^\(\?([ims]+)\)/.exec(source)
  const flags = lead ? [...new Set(lead[1])].join('') : ''
  const body = (lead ? source.slice(lead[0].length) : source).replaceAll('(?P<', '(?<')
  try {
    return new RegExp(body, flags)
  } catch {
    return undefined
  }
}
