import { eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { type Database, openDatabase } from '../db/client.ts'
import { rateLimits } from '../db/schema.ts'
import { type Backend, backends, openTestDatabase, type TestDatabase } from '../testing/databases.ts'
import { createScheduler, type Job } from './jobs.ts'
import { createLogger } from './log.ts'

type LogLine = { level: string; msg: string; job?: string; err?: { message: string } }

function capturingLogger() {
  const lines: LogLine[] = []
  return { lines, log: createLogger('debug', (line) => lines.push(JSON.parse(line))) }
}

function deferred() {
  let resolve!: () => void
  const promise = new Promise<void>((r) => {
    resolve = r
  })
  return { promise, resolve }
}

let nextKey = 7_300_000
const lockKey = () => ++nextKey

/** A job that records each run and the time it was given. */
function recordingJob(name: string) {
  const runs: Date[] = []
  const job: Job = {
    name,
    lockKey: lockKey(),
    async run(_tx, now) {
      runs.push(now)
    },
  }
  return { job, runs }
}

// The rate_limits table is a handy key/value table for seeing what a job's transaction wrote.
const markerOf = async (database: Database, key: string) =>
  (await database.db.select().from(rateLimits).where(eq(rateLimits.key, key)))[0]

describe.each(backends())('the job scheduler on %s', (backend: Backend) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await openTestDatabase(backend)
  })
  afterAll(() => database?.close())

  test('runOnce runs every job with the given time and answers the names of those it ran, in order', async () => {
    const { log } = capturingLogger()
    const first = recordingJob('first')
    const second = recordingJob('second')
    const at = new Date('2030-01-02T03:04:05Z')
    const scheduler = createScheduler(database, [first.job, second.job], log)
    expect(await scheduler.runOnce(at)).toEqual(['first', 'second'])
    expect(first.runs).toEqual([at])
    expect(second.runs).toEqual([at])
    expect(await scheduler.runOnce()).toEqual(['first', 'second'])
    expect(first.runs).toHaveLength(2)
  })

  test('a job works inside a transaction whose writes are kept when it succeeds', async () => {
    const { log } = capturingLogger()
    const key = `job-marker-${backend}-ok`
    const job: Job = {
      name: 'writer',
      lockKey: lockKey(),
      async run(tx) {
        await tx.insert(rateLimits).values({ key, points: 1 })
      },
    }
    expect(await createScheduler(database, [job], log).runOnce()).toEqual(['writer'])
    expect(await markerOf(database, key)).toMatchObject({ key, points: 1 })
  })

  test('a job that throws is logged, its writes are rolled back, and the other jobs still run', async () => {
    const { lines, log } = capturingLogger()
    const key = `job-marker-${backend}-failed`
    const before = recordingJob('before')
    const after = recordingJob('after')
    const failing: Job = {
      name: 'failing',
      lockKey: lockKey(),
      async run(tx) {
        await tx.insert(rateLimits).values({ key, points: 1 })
        throw new Error('the job broke')
      },
    }
    const scheduler = createScheduler(database, [before.job, failing, after.job], log)
    expect(await scheduler.runOnce()).toEqual(['before', 'after'])
    expect(before.runs).toHaveLength(1)
    expect(after.runs).toHaveLength(1)
    expect(await markerOf(database, key)).toBeUndefined()
    const errors = lines.filter((line) => line.level === 'error')
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ msg: 'job failed', job: 'failing', err: { message: 'the job broke' } })
    // It is tried again next time: one failure does not retire a job.
    expect(await scheduler.runOnce()).toEqual(['before', 'after'])
    expect(lines.filter((line) => line.level === 'error')).toHaveLength(2)
  })

  test('a job that never settles its first run is not run again by the timer until it does', async () => {
    const { log } = capturingLogger()
    const release = deferred()
    let started = 0
    let active = 0
    let maxActive = 0
    const slow: Job = {
      name: 'slow',
      lockKey: lockKey(),
      async run() {
        started++
        active++
        maxActive = Math.max(maxActive, active)
        if (started === 1) await release.promise
        active--
      },
    }
    const scheduler = createScheduler(database, [slow], log)
    scheduler.start(5)
    try {
      await vi.waitFor(() => expect(started).toBe(1))
      // Many ticks pass while the first run is stuck; none of them starts another.
      await new Promise((resolve) => setTimeout(resolve, 60))
      expect(started).toBe(1)
      release.resolve()
      await vi.waitFor(() => expect(started).toBeGreaterThanOrEqual(3))
    } finally {
      scheduler.stop()
    }
    expect(maxActive).toBe(1)
    // Let a run already under way finish, then no tick starts another.
    await new Promise((resolve) => setTimeout(resolve, 50))
    const settled = started
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(started).toBe(settled)
  })
})

// PGlite is one connection in one process: a second transaction waits for the first instead of
// contending for the lock (and pg_try_advisory_xact_lock is re-entrant within a session), so lock
// contention can only be shown on PostgreSQL, where each process has its own connections.
if (backends().includes('postgres')) {
  describe('the job scheduler on postgres with other processes', () => {
    let database: TestDatabase
    let other: Database
    beforeAll(async () => {
      database = await openTestDatabase('postgres')
      // A second pool on the same database: what another API process would hold.
      other = await openDatabase({ url: database.url! })
    })
    afterAll(async () => {
      await other?.close()
      await database?.close()
    })

    test('a job whose advisory lock another connection holds is skipped, the others still run', async () => {
      const { lines, log } = capturingLogger()
      const locked = recordingJob('locked')
      const free = recordingJob('free')
      const scheduler = createScheduler(database, [locked.job, free.job], log)
      const holder = new pg.Client({ connectionString: database.url })
      await holder.connect()
      try {
        await holder.query('begin')
        await holder.query('select pg_advisory_xact_lock($1)', [locked.job.lockKey])
        expect(await scheduler.runOnce()).toEqual(['free'])
        expect(locked.runs).toHaveLength(0)
        expect(free.runs).toHaveLength(1)
        await holder.query('commit')
        // Released: the next run takes it.
        expect(await scheduler.runOnce()).toEqual(['locked', 'free'])
        expect(locked.runs).toHaveLength(1)
      } finally {
        await holder.end()
      }
      expect(lines.filter((line) => line.level === 'error')).toEqual([])
    })

    test('of two processes running the same job at once, exactly one runs it', async () => {
      const { log } = capturingLogger()
      const release = deferred()
      const started = deferred()
      const runs: string[] = []
      const jobFor = (who: string): Job => ({
        name: 'shared',
        lockKey: 7_399_999,
        async run() {
          runs.push(who)
          started.resolve()
          await release.promise
        },
      })
      const here = createScheduler(database, [jobFor('here')], log)
      const there = createScheduler(other, [jobFor('there')], log)
      const first = here.runOnce()
      await started.promise
      expect(await there.runOnce()).toEqual([])
      release.resolve()
      expect(await first).toEqual(['shared'])
      expect(runs).toEqual(['here'])
      // With the first done, the other process may run it next time.
      expect(await there.runOnce()).toEqual(['shared'])
      expect(runs).toEqual(['here', 'there'])
    })

    test('the lock is released when a job throws, so the next run may take it', async () => {
      const { lines, log } = capturingLogger()
      let calls = 0
      const flaky: Job = {
        name: 'flaky',
        lockKey: lockKey(),
        async run() {
          calls++
          if (calls === 1) throw new Error('first run fails')
        },
      }
      expect(await createScheduler(database, [flaky], log).runOnce()).toEqual([])
      expect(await createScheduler(other, [flaky], log).runOnce()).toEqual(['flaky'])
      expect(calls).toBe(2)
      expect(lines.filter((line) => line.level === 'error')).toHaveLength(1)
    })
  })
}
