/**
 * The server's peak memory under load (issue 20 §2): its resident set (VmRSS of /proc/<pid>/status)
 * sampled every 100 ms while a scenario runs. Linux only; elsewhere nothing is sampled.
 */

import { readFileSync } from 'node:fs'

const SAMPLE_MS = 100

/** VmRSS of a /proc/<pid>/status text, in KiB; undefined when it has none. */
export function vmRssKb(status: string): number | undefined {
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)
  return match ? Number(match[1]) : undefined
}

/** The process's resident set now, in KiB (undefined off Linux or once it has exited). */
export function rssKb(pid: number): number | undefined {
  try {
    return vmRssKb(readFileSync(`/proc/${pid}/status`, 'utf8'))
  } catch {
    return undefined
  }
}

/** Samples `pid`'s RSS until `stop()`, which answers the peak seen (KiB; undefined when none could be read). */
export function sampleRss(pid: number): { stop(): number | undefined } {
  let peak: number | undefined
  const sample = () => {
    const kb = rssKb(pid)
    if (kb !== undefined && (peak === undefined || kb > peak)) peak = kb
  }
  sample()
  const timer = setInterval(sample, SAMPLE_MS)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return peak
    },
  }
}
