/**
 * A per-minute scheduler. Each job runs inside a transaction holding its PostgreSQL advisory lock,
 * so with several API processes on one database exactly one of them runs it each time.
 */

import type { Database, Tx } from '../db/client.ts'
import type { Logger } from './log.ts'

export interface Job {
  name: string
  /** A stable number naming this job's advisory lock. */
  lockKey: number
  /** May answer what to do once its transaction has committed (side effects, such as pushes, leave then). */
  // biome-ignore lint/suspicious/noConfusingVoidType: most jobs answer nothing (an async function's void).
  run(tx: Tx, now: Date): Promise<void | (() => void)>
}

export interface Scheduler {
  /** Runs every job once now; resolves with the names of the jobs this process ran. */
  runOnce(now?: Date): Promise<string[]>
  start(intervalMs?: number): void
  stop(): void
}

export function createScheduler(database: Database, jobs: readonly Job[], log: Logger): Scheduler {
  let timer: NodeJS.Timeout | undefined
  let busy = false
  const runOnce = async (now = new Date()) => {
    const ran: string[] = []
    for (const job of jobs) {
      try {
        let afterCommit: (() => void) | undefined
        const locked = await database.withAdvisoryLock(job.lockKey, async (tx) => {
          afterCommit = (await job.run(tx, now)) ?? undefined
        })
        if (locked) {
          ran.push(job.name)
          afterCommit?.()
        }
      } catch (err) {
        log.error('job failed', { job: job.name, err })
      }
    }
    return ran
  }
  return {
    runOnce,
    start(intervalMs = 60_000) {
      timer = setInterval(() => {
        // A slow run is never overlapped by the next tick.
        if (busy) return
        busy = true
        void runOnce().finally(() => {
          busy = false
        })
      }, intervalMs)
      timer.unref()
    },
    stop() {
      if (timer) clearInterval(timer)
    },
  }
}
