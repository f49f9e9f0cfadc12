/** Where a JSON text breaks: the 0-based row and column of the error and the parser's message. */
export type JsonProblem = { row: number; column: number; message: string }

function rowColumnAt(text: string, offset: number): { row: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)))
  const lines = before.split('\n')
  return { row: lines.length - 1, column: lines[lines.length - 1]!.length }
}

/**
 * Where a JSON text first goes wrong when the engine's message has no position (V8's "Unexpected
 * token '}', … is not valid JSON"): the first prefix refused for more than ending early ends there.
 */
function offsetByPrefixes(text: string): number | null {
  const limit = Math.min(text.length, 20_000)
  for (let end = 1; end <= limit; end += 1) {
    try {
      JSON.parse(text.slice(0, end))
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      if (/end of JSON input/i.test(message)) continue
      const position = /position (\d+)/.exec(message)
      if (position && Number(position[1]) >= end) continue
      return position ? Number(position[1]) : end - 1
    }
  }
  return null
}

/**
 * The first error of a JSON text, placed on its line (for an editor's gutter), or null when it parses
 * or is blank. The position comes from the engine's message ("at position N", "(line L column C)");
 * without one (an unexpected end) the error sits at the end of the text.
 */
export function jsonProblemOf(text: string): JsonProblem | null {
  if (!text.trim()) return null
  try {
    JSON.parse(text)
    return null
  } catch (error) {
    const raw = error instanceof Error ? error.message : String(error)
    const lineColumn = /line (\d+) column (\d+)/.exec(raw)
    const position = /position (\d+)/.exec(raw)
    const message = raw
      .replace(/^JSON\.parse: /, '')
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/, "[\s\S]*" is not valid JSON$/, '')
    if (lineColumn) return { row: Number(lineColumn[1]) - 1, column: Number(lineColumn[2]) - 1, message }
    // past the last character (an unexpected end): on the last line that has text
    if (position) return { ...rowColumnAt(text, Math.min(Number(position[1]), text.trimEnd().length)), message }
    const offset = offsetByPrefixes(text)
    return { ...rowColumnAt(text, offset ?? text.trimEnd().length), message }
  }
}
