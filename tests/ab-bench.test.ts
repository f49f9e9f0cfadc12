import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { armsFor, median, packageOfPatch, rotated, signedRankP, spreadPercent } from '../bench/ab'

describe('npm run bench ab (decision 081)', () => {
  it('finds the package of each patch file, scoped or not', () => {
    expect(packageOfPatch('@remix-run+server-runtime+2.17.5.patch')).toBe('@remix-run/server-runtime')
    expect(packageOfPatch('react-router-dom+6.30.4.patch')).toBe('react-router-dom')
  })

  it('makes a base arm and one no-X arm per patch in patches/, each for a package that exists', () => {
    const patches = readdirSync('patches').filter((name) => name.endsWith('.patch'))
    const arms = armsFor(patches)
    expect(arms.map((arm) => arm.name)).toEqual([
      'base',
      ...patches.map((p) => `no-${packageOfPatch(p).replace(/^@/, '').replace(/\//g, '-')}`),
    ])
    expect(new Set(arms.map((arm) => arm.name)).size).toBe(arms.length)
    for (const arm of arms.slice(1)) expect(readdirSync(`node_modules/${arm.pkg}`).length).toBeGreaterThan(0)
  })

  it('rotates the order by one arm a round, so each arm runs in every position', () => {
    expect(rotated(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c'])
    expect(rotated(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a'])
    expect(rotated(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a'])
  })

  it('gives the median and the spread as a share of it', () => {
    expect(median([3, 1, 2])).toBe(2)
    expect(median([1, 2, 3, 4])).toBe(2.5)
    expect(spreadPercent([90, 100, 110])).toBe(20)
    expect(spreadPercent([100])).toBeNaN()
  })

  it('gives the exact one-sided signed-rank p of paired gains', () => {
    // all five positive: only 1 of the 32 sign patterns is as favourable
    expect(signedRankP([5, 10, 20, 30, 40])).toBeCloseTo(1 / 32)
    // the smallest one negative: W- = 1; patterns with W- <= 1 are 2 of 32
    expect(signedRankP([-5, 10, 20, 30, 40])).toBeCloseTo(2 / 32)
    // the largest one negative (one disturbed round): W- = 5, 10 of 32
    expect(signedRankP([19.1, 28.3, 6.8, 13.5, -30.7])).toBeCloseTo(10 / 32)
    // all negative: every pattern is at least as favourable
    expect(signedRankP([-1, -2, -3])).toBe(1)
    expect(signedRankP([])).toBeNaN()
  })
})
