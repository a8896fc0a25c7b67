import { MUTATION_ARGS } from '@buble/shared/mutations'
import { describe, expect, it } from 'vitest'
import { baseUrlsFrom, batchFor, percentile, roundRobin, summarize } from './push-parallel.ts'

describe('push-parallel: percentile', () => {
  it('takes the nearest rank of an ascending list', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1)
    expect(percentile(sorted, 50)).toBe(50)
    expect(percentile(sorted, 99)).toBe(99)
    expect(percentile(sorted, 100)).toBe(100)
    expect(percentile([7], 99)).toBe(7)
    expect(percentile([1, 2, 3], 0)).toBe(1)
  })

  it('is NaN with nothing measured', () => {
    expect(percentile([], 99)).toBeNaN()
  })
})

describe('push-parallel: summarize', () => {
  it('sorts the latencies, and divides mutations by the wall time', () => {
    const latencies = [300, 100, 200, 900, 400, 500, 600, 700, 800, 1000]
    const summary = summarize(latencies, 8_000, 4_000)
    expect(summary).toEqual({
      batches: 10,
      mutations: 8_000,
      seconds: 4,
      mutationsPerS: 2_000,
      p50Ms: 500,
      p99Ms: 1000,
      maxMs: 1000,
    })
  })

  it('gives 0 mutations/s for no time rather than Infinity', () => {
    expect(summarize([], 0, 0).mutationsPerS).toBe(0)
  })
})

describe('push-parallel: nodes', () => {
  it('takes the URLs in turn, wrapping round', () => {
    const next = roundRobin(['http://a', 'http://b', 'http://c'])
    expect(Array.from({ length: 7 }, next)).toEqual([
      'http://a',
      'http://b',
      'http://c',
      'http://a',
      'http://b',
      'http://c',
      'http://a',
    ])
  })

  it('refuses an empty list', () => {
    expect(() => roundRobin([])).toThrow()
  })

  it('reads BENCH_PUSH_URLS, else the run’s own server', () => {
    expect(baseUrlsFrom(' http://127.0.0.1:1/ , http://127.0.0.1:2,, ', 'http://x')).toEqual([
      'http://127.0.0.1:1',
      'http://127.0.0.1:2',
    ])
    expect(baseUrlsFrom(undefined, 'http://x')).toEqual(['http://x'])
    expect(baseUrlsFrom(' , ', 'http://x')).toEqual(['http://x'])
  })
})

describe('push-parallel: a batch', () => {
  it('holds 100 new posts and chat messages into the buble, each with ids of its own', () => {
    const batch = batchFor('0190a0a0-0000-7000-8000-000000000001', 'r 1')
    expect(batch).toHaveLength(100)
    expect(batch.filter((m) => m.name === 'post.create')).toHaveLength(50)
    expect(batch.filter((m) => m.name === 'chat.send')).toHaveLength(50)
    expect(new Set(batch.map((m) => m.id)).size).toBe(100)
    expect(new Set(batch.map((m) => m.args.id)).size).toBe(100)
    for (const m of batch) {
      expect(m.args.buble_id).toBe('0190a0a0-0000-7000-8000-000000000001')
      // The server's own schema for that mutation accepts its args.
      expect(MUTATION_ARGS[m.name as keyof typeof MUTATION_ARGS].safeParse(m.args).success).toBe(true)
    }
  })
})
