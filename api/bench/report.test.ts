import { describe, expect, it } from 'vitest'
import { cpuUsPerRequest, statCpuMs } from './cpu.ts'
import { cpuRatio, peakRssVerdict, type Row, ratioToFloor, table, verdictLines, verdicts } from './report.ts'
import { vmRssKb } from './rss.ts'

const row = (over: Partial<Row>): Row => ({
  name: 'profile',
  targets: {},
  rps: 2_500,
  p50: 18,
  p99: 30,
  requests: 12_500,
  bad: 0,
  errors: 0,
  bytesPerAnswer: 1_229,
  floorRps: 10_000,
  ...over,
})

describe('ratioToFloor', () => {
  it("is the scenario's req/s over its floor's, and 0 without a floor", () => {
    expect(ratioToFloor(2_500, 10_000)).toBe(0.25)
    expect(ratioToFloor(2_500, 0)).toBe(0)
  })
})

describe('verdicts', () => {
  it('meets a ratio at the target exactly, and misses it below', () => {
    const target = { minRatioToFloor: 0.25 }
    expect(verdicts(row({ targets: target }))).toEqual([
      { met: true, text: 'profile req/s ≥ 0.25 of the floor: 0.25 (2,500 of 10,000 req/s)' },
    ])
    expect(verdicts(row({ targets: target, rps: 2_499 }))[0]?.met).toBe(false)
  })

  it('rounds a ratio down, so a miss never reads as the target', () => {
    expect(verdicts(row({ targets: { minRatioToFloor: 0.25 }, rps: 2_490 }))[0]).toEqual({
      met: false,
      text: 'profile req/s ≥ 0.25 of the floor: 0.24 (2,490 of 10,000 req/s)',
    })
    expect(verdicts(row({ targets: { minRatioToFloor: 0.25 }, rps: 2_900 }))[0]?.text).toContain('floor: 0.29 (')
  })

  it('adds the CPU ratio when both CPU times were read, and judges by req/s', () => {
    expect(verdicts(row({ targets: { minRatioToFloor: 0.25 }, cpuUs: 400, floorCpuUs: 60 }))).toEqual([
      { met: true, text: 'profile req/s ≥ 0.25 of the floor: 0.25 (2,500 of 10,000 req/s; in CPU per request 0.15)' },
    ])
  })

  it('holds p99 strictly below its bound', () => {
    expect(verdicts(row({ targets: { maxP99Ms: 30 } }))).toEqual([{ met: false, text: 'profile p99 < 30 ms: 30 ms' }])
    expect(verdicts(row({ targets: { maxP99Ms: 31 } }))[0]?.met).toBe(true)
  })

  it('has none for a scenario without targets', () => {
    expect(verdicts(row({}))).toEqual([])
  })
})

describe('peak RSS', () => {
  it('is the highest of the scenarios, named, against the bound', () => {
    const rows = [row({ name: 'a', peakRssKb: 300 * 1024 }), row({ name: 'b', peakRssKb: 600 * 1024 }), row({})]
    expect(peakRssVerdict(rows, 512)).toEqual({
      met: false,
      text: 'peak server RSS ≤ 512 MB over the HTTP load: 600 MB (during b)',
    })
    expect(peakRssVerdict([row({ peakRssKb: 512 * 1024 })], 512)?.met).toBe(true)
    expect(peakRssVerdict([row({})], 512)).toBeUndefined()
  })

  it('reads VmRSS from /proc/<pid>/status', () => {
    expect(vmRssKb('Name:\tnode\nVmPeak:\t 999 kB\nVmRSS:\t  215040 kB\nThreads:\t11\n')).toBe(215_040)
    expect(vmRssKb('Name:\tkthreadd\n')).toBeUndefined()
  })
})

describe('the printed report', () => {
  it("puts each scenario's floor and ratio beside its figures, then MET or MISSED per target", () => {
    const rows = [
      row({
        name: 'health',
        targets: { minRatioToFloor: 0.8 },
        rps: 9_000,
        floorRps: 45_000,
        peakRssKb: 220 * 1024,
        cpuUs: 100,
        floorCpuUs: 21,
      }),
    ]
    const [header, line] = table(rows)
    expect(header).toMatch(/req\/s\s+p50 ms\s+p99 ms\s+floor\s+ratio\s+CPU µs\s+floor µs\s+CPU ratio\s+peak RSS/)
    expect(line).toMatch(/^health\s+9000\s+18\s+30\s+45000\s+0\.20\s+100\s+21\s+0\.21\s+220 MB/)
    expect(table([row({})])[1]).toMatch(/0\.25\s+-\s+-\s+-\s+-\s/)
    expect(verdictLines(rows, 512)).toEqual([
      'MISSED health req/s ≥ 0.80 of the floor: 0.20 (9,000 of 45,000 req/s; in CPU per request 0.21)',
      'MET    peak server RSS ≤ 512 MB over the HTTP load: 220 MB (during health)',
    ])
  })
})

describe('CPU per request', () => {
  it("reads user and system time from /proc/<pid>/stat, past a name with spaces and ')'", () => {
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194304 9 0 0 0 250 50 0 0 20 0 11 0 100 0 0'
    expect(statCpuMs(stat)).toBe(3_000)
    expect(statCpuMs('4242 (node) S 1')).toBeUndefined()
  })

  it('divides the CPU time between two readings by the requests, and is the floor over Buble as a ratio', () => {
    expect(cpuUsPerRequest(1_000, 3_000, 20_000)).toBe(100)
    expect(cpuUsPerRequest(undefined, 3_000, 20_000)).toBeUndefined()
    expect(cpuUsPerRequest(1_000, 3_000, 0)).toBeUndefined()
    expect(cpuRatio({ cpuUs: 100, floorCpuUs: 25 })).toBe(0.25)
    expect(cpuRatio({ cpuUs: undefined, floorCpuUs: 25 })).toBeUndefined()
  })
})
