/**
 * The load tests' table and verdicts (run.ts), kept free of I/O so they can be tested: each
 * scenario's req/s, latencies and peak server RSS beside its floor's req/s, the ratio between them,
 * and whether each target is met.
 */

/** What a scenario is held to. */
export interface Targets {
  /** Its req/s divided by its floor's (a bare node:http server sending the same answer) at least this. */
  minRatioToFloor?: number | undefined
  /** Its 99th percentile latency below this many milliseconds. */
  maxP99Ms?: number | undefined
}

/** One scenario as measured, and its floor in the same run. */
export interface Row {
  name: string
  targets: Targets
  rps: number
  p50: number
  p99: number
  requests: number
  /** Answers with another status than the scenario expects. */
  bad: number
  /** Connection errors and timeouts. */
  errors: number
  bytesPerAnswer: number
  floorRps: number
  /** The server's peak resident set during the scenario (warm-up included), KiB. */
  peakRssKb?: number | undefined
  /** The server's CPU time per request in the measured run, µs (all its threads). */
  cpuUs?: number | undefined
  /** The floor's, the same way. */
  floorCpuUs?: number | undefined
}

export interface Verdict {
  met: boolean
  text: string
}

/** Buble's req/s over its floor's; 0 when the floor was not measured. */
export const ratioToFloor = (rps: number, floorRps: number): number => (floorRps > 0 ? rps / floorRps : 0)

/**
 * The same ratio in CPU time: the floor's CPU per request over Buble's, what the ratio of req/s
 * would be if both had a core to themselves and the client kept up. Undefined without both.
 */
export const cpuRatio = (row: Pick<Row, 'cpuUs' | 'floorCpuUs'>): number | undefined =>
  row.cpuUs && row.floorCpuUs !== undefined ? row.floorCpuUs / row.cpuUs : undefined

const thousands = (n: number) => Math.round(n).toLocaleString('en-US')
const mb = (kb: number) => `${(kb / 1024).toFixed(0)} MB`
const pad = (value: string | number, width: number) => String(value).padStart(width)
/** A ratio to two places, rounded down: a missed 0.248 must not read as the 0.25 it missed. */
const ratioText = (ratio: number) => (Math.floor(ratio * 100 + 1e-9) / 100).toFixed(2)
const orDash = (value: number | undefined, text: (value: number) => string) => (value === undefined ? '-' : text(value))
const whole = (value: number) => value.toFixed(0)
const line = (verdict: Verdict) => `${verdict.met ? 'MET   ' : 'MISSED'} ${verdict.text}`

/** The table's lines: a header and one line per scenario. */
export function table(rows: readonly Row[]): string[] {
  const header =
    `${'scenario'.padEnd(26)}${pad('req/s', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('floor', 8)}${pad('ratio', 7)}` +
    `${pad('CPU µs', 8)}${pad('floor µs', 9)}${pad('CPU ratio', 10)}` +
    `${pad('peak RSS', 10)}${pad('KB/answer', 11)}${pad('requests', 10)}${pad('bad', 6)}${pad('errors', 8)}`
  return [
    header,
    ...rows.map(
      (r) =>
        `${r.name.padEnd(26)}${pad(r.rps.toFixed(0), 8)}${pad(r.p50, 8)}${pad(r.p99, 8)}${pad(r.floorRps.toFixed(0), 8)}` +
        `${pad(ratioText(ratioToFloor(r.rps, r.floorRps)), 7)}` +
        `${pad(orDash(r.cpuUs, whole), 8)}${pad(orDash(r.floorCpuUs, whole), 9)}${pad(orDash(cpuRatio(r), ratioText), 10)}` +
        `${pad(r.peakRssKb === undefined ? '-' : mb(r.peakRssKb), 10)}` +
        `${pad((r.bytesPerAnswer / 1024).toFixed(1), 11)}${pad(r.requests, 10)}${pad(r.bad, 6)}${pad(r.errors, 8)}`,
    ),
  ]
}

/** A scenario's verdicts, one per target it has. */
export function verdicts(row: Row): Verdict[] {
  const { minRatioToFloor, maxP99Ms } = row.targets
  const found: Verdict[] = []
  if (minRatioToFloor !== undefined) {
    const ratio = ratioToFloor(row.rps, row.floorRps)
    const cpu = cpuRatio(row)
    found.push({
      met: ratio >= minRatioToFloor,
      text:
        `${row.name} req/s ≥ ${minRatioToFloor.toFixed(2)} of the floor: ${ratioText(ratio)} ` +
        `(${thousands(row.rps)} of ${thousands(row.floorRps)} req/s${cpu === undefined ? '' : `; in CPU per request ${ratioText(cpu)}`})`,
    })
  }
  if (maxP99Ms !== undefined)
    found.push({ met: row.p99 < maxP99Ms, text: `${row.name} p99 < ${maxP99Ms} ms: ${row.p99} ms` })
  return found
}

/** The highest peak RSS of the rows against `maxMb`; undefined when no row has one (not Linux). */
export function peakRssVerdict(rows: readonly Row[], maxMb: number): Verdict | undefined {
  let top: Row | undefined
  for (const row of rows) if (row.peakRssKb !== undefined && row.peakRssKb > (top?.peakRssKb ?? -1)) top = row
  if (top?.peakRssKb === undefined) return undefined
  return {
    met: top.peakRssKb <= maxMb * 1024,
    text: `peak server RSS ≤ ${maxMb} MB over the HTTP load: ${mb(top.peakRssKb)} (during ${top.name})`,
  }
}

/** The verdicts' lines: every scenario's, then the peak RSS's. */
export function verdictLines(rows: readonly Row[], maxRssMb: number): string[] {
  const rss = peakRssVerdict(rows, maxRssMb)
  return [...rows.flatMap(verdicts), ...(rss ? [rss] : [])].map(line)
}
