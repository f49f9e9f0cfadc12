import { describe, expect, it } from 'vitest'
import { SHELL, type RouteBundle } from '../bench/bundle-sizes'
import { budgetProblems, budgetRows } from '../bench/js-budget'

const KB = 1024
const bundle = (url: string, kb: number, heavy: string[] = []): RouteBundle => ({
  routeId: url === SHELL ? 'root' : `routes${url}`,
  url,
  files: [],
  jsGzipBytes: Math.round(kb * KB),
  cssGzipBytes: 0,
  heavy,
})

describe('the JavaScript budget (issue 33)', () => {
  it('passes routes at 170 KB and a shell at 120 KB', () => {
    expect(budgetProblems([bundle(SHELL, 120), bundle('/a', 170), bundle('/b', 12)])).toEqual([])
  })

  it('fails a route a byte over 170 KB, naming it and its size', () => {
    const over = { ...bundle('/result', 170), jsGzipBytes: 170 * KB + 1 }
    expect(budgetProblems([bundle(SHELL, 110), over])).toEqual([
      '/result (routes/result): 170.0 KB gz, over its 170 KB',
    ])
  })

  it('holds the shell to 120 KB, not 170', () => {
    const problems = budgetProblems([bundle(SHELL, 120.2), bundle('/a', 150)])
    expect(problems).toHaveLength(1)
    expect(problems[0]).toContain('over its 120 KB')
    expect(budgetRows([bundle(SHELL, 120.2)])[0]).toMatchObject({ budgetKb: 120, isOver: true })
  })

  it('fails a route that loads Ace or Plotly first, and a build with no root', () => {
    expect(budgetProblems([bundle(SHELL, 100), bundle('/queries', 140, ['ace'])])).toEqual([
      '/queries: ace in its first load',
    ])
    expect(budgetProblems([bundle('/a', 100)])).toEqual(['the build has no root route: nothing was measured'])
  })

  it('lets a listed route weigh up to its ceiling, and fails it past the ceiling or once within budget', () => {
    const shell = bundle(SHELL, 110)
    const ceilings = { 'routes/result': 180 }
    expect(budgetProblems([shell, bundle('/result', 179.5)], ceilings)).toEqual([])
    expect(budgetProblems([shell, bundle('/result', 180.5)], ceilings)).toEqual([
      '/result (routes/result): 180.5 KB gz, over its 170 KB and past its ceiling of 180 KB',
    ])
    expect(budgetProblems([shell, bundle('/result', 160)], ceilings)[0]).toContain('take it off')
    expect(budgetProblems([shell], ceilings)).toEqual(['routes/result: listed with a ceiling, not in the build'])
  })
})
