/**
 * CPU time a process used, from /proc/<pid>/stat: what a request costs the server whatever else
 * runs on the machine. Its req/s falls when other processes take the cores; its CPU time per
 * request hardly moves, so it is printed beside each ratio as the steadier reading. Linux only.
 */

import { readFileSync } from 'node:fs'

/** /proc counts CPU time in USER_HZ ticks, 100 a second on every Linux architecture Node runs on. */
const TICK_MS = 10

/** User plus system time, all threads, of a /proc/<pid>/stat text, in ms; undefined when unreadable. */
export function statCpuMs(stat: string): number | undefined {
  // The command name (2nd field) may hold spaces and parentheses: the fields go on after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  // After the name: state is field 3, so utime (field 14) and stime (15) are at 11 and 12.
  const utime = Number(fields[11])
  const stime = Number(fields[12])
  return Number.isFinite(utime) && Number.isFinite(stime) && fields.length > 12 ? (utime + stime) * TICK_MS : undefined
}

/** The process's CPU time so far, in ms (undefined off Linux or once it has exited). */
export function cpuMs(pid: number): number | undefined {
  try {
    return statCpuMs(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return undefined
  }
}

/** Microseconds of CPU per request between two readings; undefined when either is missing or nothing was sent. */
export function cpuUsPerRequest(
  before: number | undefined,
  after: number | undefined,
  requests: number,
): number | undefined {
  if (before === undefined || after === undefined || requests <= 0) return undefined
  return ((after - before) * 1000) / requests
}
