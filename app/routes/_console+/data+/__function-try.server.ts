import type { ClusterApi } from '~/api/client.server'
import { QueryError, runQuery } from '~/api/query.server'
import { argumentLiteral, ARGUMENT_TYPES, lambdaParameters, type ArgumentType } from '~/schemas/function'
import { sqlName } from '~/utils/sql'

export type TryArgument = { parameter: string; value: string; type: ArgumentType; error?: string }

export type TryOutcome =
  | { status: 'idle'; sql: string; arguments: TryArgument[] }
  | { status: 'invalid'; sql: string; arguments: TryArgument[] }
  | { status: 'done'; sql: string; arguments: TryArgument[]; value: string; type: string; elapsedMs: number }
  | { status: 'failed'; sql: string; arguments: TryArgument[]; error: string }

/** A JSON cell as the page shows it: strings as they are, anything else as JSON. */
function show(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/**
 * "Try it": reads the arguments from the URL (`a0`, `a1`… with their types `t0`, `t1`…, one per
 * lambda parameter), builds `SELECT fn(literal, …)` with each argument a typed SQL literal (never
 * raw SQL) and, when `try` is set and every argument is valid, runs it through /query. Returns the
 * statement and its answer or the engine's error; other cluster failures are thrown (ClusterError).
 */
export async function tryFunction(api: ClusterApi, fn: { name: string; sql: string }, url: URL): Promise<TryOutcome> {
  const params = url.searchParams
  const parameters = lambdaParameters(fn.sql)
  const args: TryArgument[] = parameters.map((parameter, index) => {
    const given = params.get(`t${index}`)
    const type = (ARGUMENT_TYPES as readonly string[]).includes(given ?? '') ? (given as ArgumentType) : 'number'
    return { parameter, value: params.get(`a${index}`) ?? '', type }
  })
  // an argument's error shows once the user has tried: the page opened afresh marks nothing
  const hasTried = params.has('try')
  const literals = args.map((arg) => {
    const literal = argumentLiteral(arg.value, arg.type)
    if ('error' in literal && hasTried) arg.error = literal.error
    return 'literal' in literal ? literal.literal : '?'
  })
  const sql = `SELECT ${sqlName(fn.name)}(${literals.join(', ')}) AS result`
  if (!hasTried) return { status: 'idle', sql, arguments: args }
  if (args.some((arg) => arg.error)) return { status: 'invalid', sql, arguments: args }
  try {
    const answer = await runQuery(api, `${sql} FORMAT JSON`)
    const parsed = JSON.parse(answer.text) as { meta?: { type?: string }[]; data?: { result?: unknown }[] }
    return {
      status: 'done',
      sql,
      arguments: args,
      value: show(parsed.data?.[0]?.result ?? null),
      type: parsed.meta?.[0]?.type ?? '',
      elapsedMs: answer.elapsedMs,
    }
  } catch (error) {
    if (error instanceof QueryError) return { status: 'failed', sql, arguments: args, error: error.message }
    throw error
  }
}
