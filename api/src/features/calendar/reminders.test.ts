import { sql } from 'drizzle-orm'
import pg from 'pg'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { openDatabase } from '../../db/client.ts'
import type { ContentAdded } from '../../lib/content-added.ts'
import { createScheduler, type Job } from '../../lib/jobs.ts'
import { createLogger } from '../../lib/log.ts'
import { backends, type TestDatabase } from '../../testing/databases.ts'
import { clubSuite, type Person } from '../../testing/test-club.ts'
import { claimReminders, REMINDER_GRACE_MS, reminderJob } from './reminders.ts'

/**
 * Event reminders (decision 96): the per-minute job, run with the harness's clock, and what it hands
 * to Web Push (the content-added bus, with the members to tell).
 */

const MINUTE = 60_000
const HOUR = 60 * MINUTE

describe.each(backends())('event reminders on %s', (backend) => {
  const { h, call, club, expectStatus } = clubSuite(backend)
  let heard: ContentAdded[]
  let stop: () => void
  beforeEach(() => {
    heard = []
    stop = h().services.contentAdded.listen((added) => {
      if (added.recipients) heard.push(added)
    })
  })
  afterEach(() => stop())

  const job = (): Job => h().services.jobs.find((j) => j.name === 'event-reminders')!
  const scheduler = () => createScheduler(h().database, [job()], createLogger('silent'))
  /** Runs the job at the harness's time; answers what it pushed, as [title, members] sorted. */
  async function runAt(at: Date = h().clock.now) {
    const before = heard.length
    expect(await scheduler().runOnce(at)).toEqual(['event-reminders'])
    return pushed(heard.slice(before))
  }
  const pushed = (notices: ContentAdded[]) =>
    notices.map((n) => [n.title, [...(n.recipients ?? [])].sort()] as const).sort(([a], [b]) => a.localeCompare(b))

  async function eventAt(k: { owner: Person; bubleId: string }, title: string, start: Date) {
    return expectStatus(
      await call(k.owner, 'POST', `/api/bubles/${k.bubleId}/events`, { title, event_time: start.toISOString() }),
      201,
    )
  }
  const rsvp = async (who: Person, eventId: string, status: string) =>
    expectStatus(await call(who, 'POST', `/api/events/${eventId}/rsvp`, { status }), 200)
  const choose = async (who: Person, reminder: string) =>
    expectStatus(await call(who, 'PUT', '/api/users/calendar', { reminder }), 200)
  const ids = (...people: Person[]) => people.map((p) => p.id).sort()

  test('an hour before, once, to the members going or maybe who chose 1 hour', async () => {
    const k = await club()
    const start = new Date(h().clock.now.getTime() + 3 * HOUR)
    const event = await eventAt(k, 'Book night', start)
    await rsvp(k.owner, event.id, 'going')
    await rsvp(k.member, event.id, 'maybe')
    await rsvp(k.admin, event.id, 'cant_go')
    await rsvp(k.moderator, event.id, 'going')
    await choose(k.moderator, 'none')
    // The manager chose a day before: that time passed long ago, so nothing is sent late.
    await rsvp(k.manager, event.id, 'going')
    await choose(k.manager, '1d')

    expect(await runAt()).toEqual([])
    expect(await runAt(new Date(start.getTime() - HOUR - MINUTE))).toEqual([])
    const due = new Date(start.getTime() - HOUR + 30_000)
    expect(await runAt(due)).toEqual([['Book night starts in 1 hour', ids(k.owner, k.member)]])
    const notice = heard.at(-1)!
    expect(notice).toMatchObject({ bubleId: k.bubleId, contentType: 'events', body: k.bubleName })
    // Later runs and a second node's run find them claimed.
    expect(await runAt(due)).toEqual([])
    expect(await runAt(new Date(due.getTime() + MINUTE))).toEqual([])
    // A member who answers going after their time passed long ago is not reminded late.
    await rsvp(k.creator, event.id, 'going')
    expect(await runAt(new Date(start.getTime() - HOUR + REMINDER_GRACE_MS + MINUTE))).toEqual([])
  })

  test('a day before for those who chose it; a moved event reminds again at its new time', async () => {
    const k = await club()
    const start = new Date(h().clock.now.getTime() + 2 * 24 * HOUR)
    const event = await eventAt(k, 'Walk', start)
    await rsvp(k.member, event.id, 'going')
    await choose(k.member, '1d')
    await rsvp(k.owner, event.id, 'going')
    expect(await runAt(new Date(start.getTime() - 24 * HOUR))).toEqual([['Walk starts tomorrow', ids(k.member)]])
    expect(await runAt(new Date(start.getTime() - HOUR))).toEqual([['Walk starts in 1 hour', ids(k.owner)]])

    const moved = new Date(start.getTime() + 24 * HOUR)
    await expectStatus(await call(k.owner, 'PUT', `/api/events/${event.id}`, { event_time: moved.toISOString() }), 200)
    expect(await runAt(new Date(moved.getTime() - 24 * HOUR))).toEqual([['Walk starts tomorrow', ids(k.member)]])
    expect(await runAt(new Date(moved.getTime() - HOUR))).toEqual([['Walk starts in 1 hour', ids(k.owner)]])
    expect(await runAt(new Date(moved.getTime() - HOUR))).toEqual([])
  })

  test('no reminder for a deleted event, nor for a member who left the buble', async () => {
    const k = await club()
    const start = new Date(h().clock.now.getTime() + 5 * HOUR)
    const gone = await eventAt(k, 'Called off', start)
    const kept = await eventAt(k, 'Still on', start)
    for (const event of [gone, kept]) {
      await rsvp(k.member, event.id, 'going')
      await rsvp(k.creator, event.id, 'going')
    }
    await expectStatus(await call(k.owner, 'DELETE', `/api/events/${gone.id}`), 204)
    await expectStatus(await call(k.creator, 'DELETE', `/api/bubles/${k.bubleId}/members/${k.creator.id}`), 204)
    expect(await runAt(new Date(start.getTime() - HOUR))).toEqual([['Still on starts in 1 hour', ids(k.member)]])
  })

  test('two nodes running the job at once, and two runs racing past the lock, send each reminder once', async () => {
    const k = await club()
    const start = new Date(h().clock.now.getTime() + 4 * HOUR)
    const first = await eventAt(k, 'Race one', start)
    const second = await eventAt(k, 'Race two', new Date(start.getTime() + 10 * MINUTE))
    for (const event of [first, second]) {
      await rsvp(k.member, event.id, 'going')
      await rsvp(k.admin, event.id, 'maybe')
    }
    // Two schedulers (two nodes) on one database: the advisory lock lets one run, the claims hold the rest.
    const at = new Date(start.getTime() - HOUR)
    const before = heard.length
    await Promise.all([scheduler().runOnce(at), scheduler().runOnce(at)])
    expect(pushed(heard.slice(before))).toEqual([['Race one starts in 1 hour', ids(k.member, k.admin)]])

    // Two transactions claiming at once without the lock: the unique claim lets one of them have each.
    const later = new Date(start.getTime() + 10 * MINUTE - HOUR)
    const claims = await Promise.all([
      h().database.db.transaction((tx) => claimReminders(tx, later)),
      h().database.db.transaction((tx) => claimReminders(tx, later)),
    ])
    expect(pushed(claims.flat())).toEqual([['Race two starts in 1 hour', ids(k.member, k.admin)]])
  })

  /** Waits until a statement on this database is blocked on a lock another connection holds. */
  const blocked = () =>
    vi.waitFor(
      async () => {
        const rows = (await h().database.db.execute(
          sql`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        )) as unknown as { rows: unknown[] }
        expect(rows.rows.length).toBeGreaterThan(0)
      },
      { timeout: 10_000, interval: 20 },
    )

  // Two API processes are two pools on one database; PGlite is one process (see lib/jobs.test.ts).
  // PostgreSQL only: no test is listed, or skipped, for PGlite.
  if (backend === 'postgres')
    test('two processes: one waits out the other’s run, or its uncommitted claims; a claim rolled back is sent by the other', async () => {
      const k = await club()
      const start = new Date(h().clock.now.getTime() + 4 * HOUR)
      const titles = ['Held', 'Raced', 'Crashed']
      const made = []
      for (const [i, title] of titles.entries()) {
        made.push(await eventAt(k, title, new Date(start.getTime() + i * 10 * MINUTE)))
        await rsvp(k.member, made[i]!.id, 'going')
      }
      const dueAt = (i: number) => new Date(start.getTime() + i * 10 * MINUTE - HOUR)
      const other = await openDatabase({ url: (h().database as TestDatabase).url! })
      try {
        const node = (database: typeof other) => {
          const sent: ContentAdded[] = []
          const job = reminderJob((notice) => sent.push(notice))
          return { sent, job, scheduler: createScheduler(database, [job], createLogger('silent')) }
        }
        const there = node(other)

        // Here runs the job and is still in its transaction: there, the lock is taken, nothing runs.
        let release!: () => void
        const held = new Promise<void>((resolve) => {
          release = resolve
        })
        let claimed!: () => void
        const inside = new Promise<void>((resolve) => {
          claimed = resolve
        })
        const here = node(h().database)
        const slow: Job = {
          ...here.job,
          async run(tx, now) {
            const after = await here.job.run(tx, now)
            claimed()
            await held
            return after
          },
        }
        const running = createScheduler(h().database, [slow], createLogger('silent')).runOnce(dueAt(0))
        await inside
        expect(await there.scheduler.runOnce(dueAt(0))).toEqual([])
        release()
        expect(await running).toEqual(['event-reminders'])
        expect(pushed(here.sent)).toEqual([['Held starts in 1 hour', ids(k.member)]])
        expect(await there.scheduler.runOnce(dueAt(0))).toEqual(['event-reminders'])
        expect(there.sent).toEqual([])

        // A run here past the lock holds its claims uncommitted: there, the job's claim waits for
        // them, and once they commit, finds them taken and sends nothing.
        let commit!: () => void
        const committing = new Promise<void>((resolve) => {
          commit = resolve
        })
        let hereClaims: ContentAdded[] = []
        const racing = h().database.db.transaction(async (tx) => {
          hereClaims = await claimReminders(tx, dueAt(1))
          await committing
        })
        await vi.waitFor(() => expect(hereClaims).toHaveLength(1))
        const waiting = there.scheduler.runOnce(dueAt(1))
        await blocked()
        commit()
        await racing
        expect(await waiting).toEqual(['event-reminders'])
        expect(pushed(hereClaims)).toEqual([['Raced starts in 1 hour', ids(k.member)]])
        expect(there.sent).toEqual([])

        // A run here that claims and then fails (its node goes down) leaves nothing claimed: there, the
        // job waits for it, then claims and sends them itself, once.
        let fail!: () => void
        const failing = new Promise<void>((resolve) => {
          fail = resolve
        })
        let lost: ContentAdded[] = []
        const crashed = h()
          .database.db.transaction(async (tx) => {
            lost = await claimReminders(tx, dueAt(2))
            await failing
            throw new Error('the node went down')
          })
          .catch((err: Error) => err.message)
        await vi.waitFor(() => expect(lost).toHaveLength(1))
        const taking = there.scheduler.runOnce(dueAt(2))
        await blocked()
        fail()
        expect(await crashed).toBe('the node went down')
        expect(await taking).toEqual(['event-reminders'])
        expect(pushed(there.sent)).toEqual([['Crashed starts in 1 hour', ids(k.member)]])
        expect(await there.scheduler.runOnce(dueAt(2))).toEqual(['event-reminders'])
        expect(await here.scheduler.runOnce(dueAt(2))).toEqual(['event-reminders'])
        expect(there.sent).toHaveLength(1)
        expect(here.sent).toHaveLength(1)
      } finally {
        await other.close()
      }
    })
  // PostgreSQL only: no test is listed, or skipped, for PGlite.
  if (backend === 'postgres')
    test('an event deleted while the job claims its reminders: the claim fails with it, nothing is sent, then or later', async () => {
      const k = await club()
      const start = new Date(h().clock.now.getTime() + 4 * HOUR)
      const event = await eventAt(k, 'Called off', start)
      await rsvp(k.member, event.id, 'going')
      const other = new pg.Client({ connectionString: (h().database as TestDatabase).url })
      await other.connect()
      try {
        // Another process deletes the event and has not committed yet when the job reads it.
        await other.query('begin')
        await other.query('delete from events where id = $1', [event.id])
        const logged: { msg: string; job?: string }[] = []
        const log = createLogger('debug', (line) => logged.push(JSON.parse(line)))
        const running = createScheduler(h().database, [job()], log).runOnce(new Date(start.getTime() - HOUR))
        await blocked()
        await other.query('commit')
        // The claim named a row that is gone: the run fails (and is logged), so it sends nothing.
        expect(await running).toEqual([])
        expect(logged).toContainEqual(expect.objectContaining({ msg: 'job failed', job: 'event-reminders' }))
        expect(heard).toEqual([])
        expect(await runAt(new Date(start.getTime() - HOUR + MINUTE))).toEqual([])
      } finally {
        await other.end()
      }
    })
})
