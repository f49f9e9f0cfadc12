import { percentile } from './stats'

/** What a load run measured; latencies in milliseconds. */
export type LoadResult = {
  url: string
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
  /** Bytes of the last successful body, to show what was rendered. */
  bodyBytes: number
}

/**
 * Fetches `url` from `concurrency` loops for `durationMs` (after a short warm-up) and returns
 * throughput and latency percentiles. A non-2xx answer counts as an error, not a request.
 */
export async function hammer(
  url: string,
  options: { concurrency: number; durationMs: number; warmupMs?: number; headers?: Record<string, string> },
): Promise<LoadResult> {
  const { concurrency, durationMs, headers = {} } = options
  let bodyBytes = 0
  const once = async () => {
    const started = performance.now()
    const response = await fetch(url, { headers, redirect: 'manual' })
    const body = await response.arrayBuffer()
    const elapsed = performance.now() - started
    if (response.status < 200 || response.status >= 300) throw new Error(`${url}: HTTP ${response.status}`)
    bodyBytes = body.byteLength
    return elapsed
  }
  const run = async (forMs: number) => {
    const latencies: number[] = []
    let errors = 0
    let firstError: unknown
    const until = performance.now() + forMs
    const started = performance.now()
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < until) {
          try {
            latencies.push(await once())
          } catch (error) {
            errors++
            firstError ??= error
          }
        }
      }),
    )
    return { latencies, errors, firstError, elapsed: performance.now() - started }
  }
  await run(options.warmupMs ?? 500)
  const { latencies, errors, firstError, elapsed } = await run(durationMs)
  if (!latencies.length && firstError) throw firstError
  latencies.sort((a, b) => a - b)
  return {
    url,
    requests: latencies.length,
    errors,
    rps: latencies.length / (elapsed / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    bodyBytes,
  }
}
