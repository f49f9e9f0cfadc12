/**
 * The browser in tests: the fields of a server-rendered form, posted as a browser without scripts
 * posts them (issue 32's round trips, decisions 056 and 072).
 */

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", nbsp: '\u00a0' }
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, code: string) =>
    code[0] === '#'
      ? String.fromCodePoint(code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : Number(code.slice(1)))
      : (ENTITIES[code] ?? whole),
  )

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const match of tag.matchAll(/\s([\w:-]+)(?:="([^"]*)")?/g)) out[match[1]!] = decode(match[2] ?? '')
  return out
}

/**
 * The entries a browser without scripts posts for the form `formId` in `html`, submitted by a
 * button that posts `submit` (none when null).
 */
export function formEntries(
  html: string,
  formId: string,
  submit: [string, string] | null = ['intent', 'save'],
): [string, string][] {
  const start = html.search(new RegExp(`<form\\b[^>]*\\sid="${formId}"`))
  const form = html.slice(start, html.indexOf('</form>', start))
  const entries: [string, string][] = []
  // the HTML parser turns CR LF into LF; a multipart post sends every line break as CR LF
  const crlf = (value: string) => value.replace(/\r\n?|\n/g, '\r\n')
  const fieldRe = /<input\b[^>]*>|<textarea\b([^>]*)>([\s\S]*?)<\/textarea>|<select\b([^>]*)>([\s\S]*?)<\/select>/g
  for (const match of form.matchAll(fieldRe)) {
    const tag = match[0]
    if (tag.startsWith('<input')) {
      const a = attributes(tag.slice(6))
      if (!a.name || 'disabled' in a) continue
      const type = (a.type ?? 'text').toLowerCase()
      if (type === 'submit' || type === 'button' || type === 'file' || type === 'reset') continue
      if ((type === 'checkbox' || type === 'radio') && !('checked' in a)) continue
      let value = a.value ?? (type === 'checkbox' ? 'on' : '')
      if (type !== 'hidden') value = value.replace(/[\r\n]/g, '') // a text input's value has no line breaks
      entries.push([a.name, crlf(value)])
    } else if (tag.startsWith('<textarea')) {
      const a = attributes(match[1]!)
      if (!a.name || 'disabled' in a) continue
      // the HTML parser drops one newline right after <textarea>
      entries.push([a.name, crlf(decode(match[2]!).replace(/^\n/, ''))])
    } else {
      const a = attributes(match[3]!)
      if (!a.name || 'disabled' in a) continue
      const options = [...match[4]!.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)].map((o) => ({
        a: attributes(o[1]!),
        text: decode(o[2]!),
      }))
      const chosen = options.find((o) => 'selected' in o.a) ?? options[0]
      if (chosen) entries.push([a.name, chosen.a.value ?? chosen.text])
    }
  }
  if (submit) entries.push(submit)
  return entries
}
