import { randomUUID } from 'node:crypto'
import { pollClosedMessage } from '@buble/shared/polls'
import { eq, sql } from 'drizzle-orm'
import { unzipSync } from 'fflate'
import { beforeAll, describe, expect, test } from 'vitest'
import { pollVoters, pollVotes, users } from '../../db/schema.ts'
import { rowsOf } from '../../lib/sql-json.ts'
import { backends } from '../../testing/databases.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'
import { type Club, clubSuite, type Person } from '../../testing/test-club.ts'

/**
 * Polls people trust (issue 23 §4, docs/decisions/0098): a closing time after which votes are
 * refused by REST and sync alike, several choices, totals hidden until the poll closes, and a
 * secret ballot that leaves no row tying a member to an option.
 */

type PollAnswer = {
  id: string
  options: { id: string; votes_count: number | null }[]
  totalVotes: number | null
  votersCount: number
  userVote: string | null
  userVotes: string[]
  hasVoted: boolean
  closed: boolean
}

const HOUR = 3600_000

describe.each(backends())('polls people trust on %s', (backend) => {
  const { h, call, club, person, expectStatus } = clubSuite(backend)

  const later = (ms: number) => new Date(h().clock.now.getTime() + ms).toISOString()
  const createPoll = async (who: Person, bubleId: string, body: Record<string, unknown>): Promise<PollAnswer> =>
    expectStatus(
      await call(who, 'POST', `/api/bubles/${bubleId}/polls`, { question: 'Fika?', options: ['A', 'B', 'C'], ...body }),
      201,
    )
  const find = async (who: Person, bubleId: string, id: string): Promise<PollAnswer> =>
    (await expectStatus(await call(who, 'GET', `/api/bubles/${bubleId}/polls`), 200)).find(
      (p: { id: string }) => p.id === id,
    )
  const vote = (who: Person, pollId: string, body: Record<string, unknown>) =>
    call(who, 'POST', `/api/polls/${pollId}/vote`, body)
  const counts = (poll: PollAnswer) => [...poll.options.map((o) => o.votes_count), poll.totalVotes, poll.votersCount]
  const runClosingJob = async () => {
    const job = h().services.jobs.find((j) => j.name === 'poll-closing')!
    expect(await h().database.withAdvisoryLock(job.lockKey, (tx) => job.run(tx, h().clock.now))).toBe(true)
  }
  const lastPulled = (changes: { entity: string; id: string; data?: unknown }[], id: string) =>
    changes.filter((x) => x.entity === 'poll' && x.id === id).at(-1)?.data as PollAnswer | undefined

  let c: Club
  beforeAll(async () => {
    c = await club()
  })

  describe('closing time', () => {
    test('a closing time must be a date in the future (400); none means open', async () => {
      const path = `/api/bubles/${c.bubleId}/polls`
      const base = { question: 'When?', options: ['a', 'b'] }
      const past = await expectStatus(await call(c.member, 'POST', path, { ...base, closes_at: later(-60_000) }), 400)
      expect(past.issues).toEqual([{ path: 'closes_at', message: 'The closing time must be in the future' }])
      const bad = await expectStatus(await call(c.member, 'POST', path, { ...base, closes_at: 'tomorrow' }), 400)
      expect(bad.issues[0]).toMatchObject({ path: 'closes_at' })
      const hidden = await expectStatus(await call(c.member, 'POST', path, { ...base, hide_results: true }), 400)
      expect(hidden.issues).toEqual([
        { path: 'hide_results', message: 'Results can be hidden until the poll closes: set a closing time' },
      ])
      const open = await createPoll(c.member, c.bubleId, { closes_at: null })
      expect(open).toMatchObject({ closes_at: null, closed: false })
    })

    test('after the closing time REST and sync votes and unvotes are refused with when it closed; the job brings the final result', async () => {
      const k = await club()
      const closesAt = later(HOUR)
      const poll = await createPoll(k.creator, k.bubleId, { closes_at: closesAt })
      expect(poll).toMatchObject({ closes_at: closesAt, closed: false })
      const [a, b] = poll.options.map((o) => o.id)
      await expectStatus(await vote(k.member, poll.id, { poll_option_id: a }), 200)
      const { cursor } = await pullAll(h(), k.admin.token)
      // Queued offline before the close, pushed after it.
      const queued = mutation('poll.vote', { poll_id: poll.id, poll_option_id: b })
      h().clock.advance(2 * HOUR)
      const refusal = { code: 'CONFLICT', message: pollClosedMessage(closesAt) }
      expect(refusal.message).toMatch(/^This poll closed at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/)
      expect(await expectStatus(await vote(k.admin, poll.id, { poll_option_id: b }), 409)).toEqual(refusal)
      expect(await expectStatus(await call(k.member, 'DELETE', `/api/polls/${poll.id}/vote`), 409)).toEqual(refusal)
      const [late, unvote] = await push(h(), k.admin.token, [queued, mutation('poll.unvote', { poll_id: poll.id })])
      expect(late).toEqual({ id: queued.id, status: 'rejected', ...refusal })
      expect(unvote).toMatchObject({ status: 'rejected', ...refusal })
      expect(counts(await find(k.member, k.bubleId, poll.id))).toEqual([1, 0, 0, 1, 1])

      await runClosingJob()
      const pulled = lastPulled((await pullAll(h(), k.admin.token, cursor)).changes, poll.id)
      expect(pulled).toMatchObject({ closed: true, totalVotes: 1, hasVoted: false })
      expect(await find(k.member, k.bubleId, poll.id)).toMatchObject({ closed: true, userVote: a })
    })
  })

  describe('several choices', () => {
    test('a vote sets the whole set of choices; votes and voters are counted apart; a one-choice poll takes one', async () => {
      const k = await club()
      const poll = await createPoll(k.creator, k.bubleId, { multiple: true })
      expect(poll.options).toHaveLength(3)
      const [a, b, cc] = poll.options.map((o) => o.id) as [string, string, string]
      const mine = await expectStatus(await vote(k.member, poll.id, { poll_option_ids: [cc, a] }), 200)
      expect(mine).toMatchObject({ userVotes: [a, cc], userVote: a, hasVoted: true })
      expect(counts(mine)).toEqual([1, 0, 1, 2, 1])
      await expectStatus(await vote(k.admin, poll.id, { poll_option_id: a }), 200)
      const changed = await expectStatus(await vote(k.member, poll.id, { poll_option_ids: [b, cc] }), 200)
      expect(counts(changed)).toEqual([1, 1, 1, 3, 2])
      const [pushed] = await push(h(), k.owner.token, [
        mutation('poll.vote', { poll_id: poll.id, poll_option_ids: [a, b, cc] }),
      ])
      expect(counts(pushed!.data as PollAnswer)).toEqual([2, 2, 2, 6, 3])
      const removed = await expectStatus(await call(k.member, 'DELETE', `/api/polls/${poll.id}/vote`), 200)
      expect(removed).toMatchObject({ userVotes: [], hasVoted: false })
      expect(counts(removed)).toEqual([2, 1, 1, 4, 2])
      expect(await h().database.db.select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))).toHaveLength(4)

      const dup = await expectStatus(await vote(k.member, poll.id, { poll_option_ids: [a, a] }), 400)
      expect(dup.message).toBe('Choose each option once')
      const none = await expectStatus(await vote(k.member, poll.id, {}), 400)
      expect(none.message).toBe('Choose an option')
      const single = await createPoll(k.creator, k.bubleId, {})
      const two = await expectStatus(
        await vote(k.member, single.id, { poll_option_ids: single.options.map((o) => o.id).slice(0, 2) }),
        400,
      )
      expect(two.message).toBe('This poll takes one choice')
      expect(counts(await find(k.member, k.bubleId, single.id))).toEqual([0, 0, 0, 0, 0])
    })
  })

  describe('results hidden until the poll closes', () => {
    test('no answer, pull, push result, admin list or export has the totals before the close; all have them after', async () => {
      const k = await club()
      const platformAdmin = await person('Platform Admin')
      await h().database.db.update(users).set({ role: 'admin' }).where(eq(users.id, platformAdmin.id))
      const question = `Hidden ${randomUUID()}`
      const poll = await createPoll(k.creator, k.bubleId, { question, closes_at: later(HOUR), hide_results: true })
      expect(counts(poll)).toEqual([null, null, null, null, 0])
      const [a, b] = poll.options.map((o) => o.id)
      const { cursor } = await pullAll(h(), k.admin.token)
      const voted = await expectStatus(await vote(k.member, poll.id, { poll_option_id: a }), 200)
      expect(voted).toMatchObject({ userVote: a, hasVoted: true })
      expect(counts(voted)).toEqual([null, null, null, null, 1])
      const [pushed] = await push(h(), k.admin.token, [mutation('poll.vote', { poll_id: poll.id, poll_option_id: b })])
      expect(counts(pushed!.data as PollAnswer)).toEqual([null, null, null, null, 2])
      for (const who of [k.creator, k.owner, k.member])
        expect(counts(await find(who, k.bubleId, poll.id))).toEqual([null, null, null, null, 2])
      const pulled = await pullAll(h(), k.owner.token)
      expect(counts(lastPulled(pulled.changes, poll.id)!)).toEqual([null, null, null, null, 2])
      const adminList = async () =>
        expectStatus(await call(platformAdmin, 'GET', `/api/admin/polls?search=${encodeURIComponent(question)}`), 200)
      const adminRow = async () => JSON.stringify(await adminList())
      expect(await adminRow()).toContain('"totalVotes":null')
      expect(await adminRow()).not.toMatch(/"votes_count":\d/)
      const adminCsv = async () => {
        const res = await call(
          platformAdmin,
          'GET',
          `/api/admin/polls/export.csv?search=${encodeURIComponent(question)}`,
        )
        expect(res.status).toBe(200)
        return (await res.text()).split('\n').find((line) => line.includes(question))
      }
      expect(await adminCsv()).toContain('A (hidden); B (hidden); C (hidden),hidden,')
      const exported = async () => {
        const res = await call(k.creator, 'GET', '/api/users/me/export')
        const archive = unzipSync(new Uint8Array(await res.arrayBuffer()))
        const polls = JSON.parse(new TextDecoder().decode(archive['polls.json']))
        return polls.find((p: { id: string }) => p.id === poll.id)
      }
      expect(await exported()).toMatchObject({ total_votes: null, options: [{ votes_count: null }, {}, {}] })

      h().clock.advance(2 * HOUR)
      await runClosingJob()
      expect(counts(lastPulled((await pullAll(h(), k.admin.token, cursor)).changes, poll.id)!)).toEqual([1, 1, 0, 2, 2])
      expect(counts(await find(k.creator, k.bubleId, poll.id))).toEqual([1, 1, 0, 2, 2])
      expect(await adminRow()).toContain('"totalVotes":2')
      expect(await adminCsv()).toContain('A (1); B (1); C (0),2,')
      expect(await exported()).toMatchObject({ total_votes: 2, options: [{ votes_count: 1 }, { votes_count: 1 }, {}] })
    })
  })

  describe('secret ballot', () => {
    test('no row of any table tells which option a voter chose; answers, pulls, export and admin show none; a vote is final', async () => {
      const k = await club()
      const platformAdmin = await person('Platform Admin')
      await h().database.db.update(users).set({ role: 'admin' }).where(eq(users.id, platformAdmin.id))
      const question = `Secret ${randomUUID()}`
      const poll = await createPoll(k.creator, k.bubleId, { question, secret: true, multiple: true })
      const [a, b, cc] = poll.options.map((o) => o.id) as [string, string, string]
      const rest = await expectStatus(await vote(k.member, poll.id, { poll_option_id: a }), 200)
      expect(rest).toMatchObject({ userVote: null, userVotes: [], hasVoted: true, votersCount: 1, totalVotes: null })
      const ballot = mutation('poll.vote', { poll_id: poll.id, poll_option_ids: [b, cc] })
      const [pushed] = await push(h(), k.owner.token, [ballot])
      expect(pushed).toMatchObject({ status: 'applied', data: { userVotes: [], hasVoted: true, totalVotes: null } })

      // Totals are there for everyone (they say nothing of who), the choice for nobody.
      for (const who of [k.member, k.owner, k.creator])
        expect(await find(who, k.bubleId, poll.id)).toMatchObject({ userVote: null, userVotes: [], totalVotes: 3 })
      expect(counts(await find(k.creator, k.bubleId, poll.id))).toEqual([1, 1, 1, 3, 2])
      const pulled = lastPulled((await pullAll(h(), k.member.token)).changes, poll.id)
      expect(pulled).toMatchObject({ userVote: null, userVotes: [], hasVoted: true })

      // The database: no vote rows, voters without options, and no row naming a voter singles out an option.
      expect(await h().database.db.select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))).toEqual([])
      expect(
        (await h().database.db.select().from(pollVoters).where(eq(pollVoters.pollId, poll.id)))
          .map((r) => r.userId)
          .sort(),
      ).toEqual([k.member.id, k.owner.id].sort())
      /** Every row of every table that names a voter; none may single out an option. Answers how many were read. */
      const scanForChoices = async (): Promise<number> => {
        const tables = rowsOf<{ name: string }>(
          await h().database.db.execute(
            sql`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
          ),
        )
        let scanned = 0
        for (const voter of [k.member, k.owner])
          for (const { name } of tables) {
            const rows = rowsOf<{ row: string }>(
              await h().database.db.execute(
                sql`select t::text as row from ${sql.identifier(name)} t where t::text like ${`%${voter.id}%`}`,
              ),
            )
            scanned += rows.length
            for (const { row } of rows) {
              const named = [a, b, cc].map((id) => row.includes(id))
              expect(
                named.every((x) => x === named[0]),
                `${name}: ${row}`,
              ).toBe(true)
              expect(row, `${name}: ${row}`).not.toMatch(/votes_count[\\"]*:\s*[1-9]/)
            }
          }
        return scanned
      }
      // Their users, memberships and pushed mutations at least were read.
      expect(await scanForChoices()).toBeGreaterThan(4)

      // Export and admin: no choice.
      const res = await call(k.member, 'GET', '/api/users/me/export')
      const archive = unzipSync(new Uint8Array(await res.arrayBuffer()))
      const votes = JSON.parse(new TextDecoder().decode(archive['votes.json'] ?? new TextEncoder().encode('[]')))
      expect(votes.filter((v: { poll_id: string }) => v.poll_id === poll.id)).toEqual([])
      const admin = JSON.stringify(
        await expectStatus(
          await call(platformAdmin, 'GET', `/api/admin/polls?search=${encodeURIComponent(question)}`),
          200,
        ),
      )
      expect(admin).not.toContain(k.member.id)
      expect(admin).not.toContain(k.owner.id)
      const csv = await call(platformAdmin, 'GET', `/api/admin/polls/export.csv?search=${encodeURIComponent(question)}`)
      const csvLine = (await csv.text()).split('\n').find((line) => line.includes(question))
      expect(csvLine).toContain('A (1); B (1); C (1),3,')
      for (const voter of [k.member, k.owner]) expect(csvLine).not.toContain(voter.name)

      // Final: again, a change, an unvote, by REST or sync, are 409 and change nothing.
      const final = {
        code: 'CONFLICT',
        message: 'Your vote in a secret poll is final: it cannot be changed or taken back',
      }
      expect(await expectStatus(await vote(k.member, poll.id, { poll_option_id: a }), 409)).toEqual(final)
      expect(await expectStatus(await vote(k.member, poll.id, { poll_option_id: b }), 409)).toEqual(final)
      expect(await expectStatus(await call(k.member, 'DELETE', `/api/polls/${poll.id}/vote`), 409)).toEqual(final)
      const again = await push(h(), k.owner.token, [
        ballot,
        mutation('poll.vote', { poll_id: poll.id, poll_option_id: a }),
        mutation('poll.unvote', { poll_id: poll.id }),
      ])
      expect(again.map((r) => r.status)).toEqual(['duplicate', 'rejected', 'rejected'])
      expect(again[1]).toMatchObject(final)
      expect(counts(await find(k.creator, k.bubleId, poll.id))).toEqual([1, 1, 1, 3, 2])
      // The refused attempts, naming one option each, left no row that names it with its voter.
      await scanForChoices()
      const edit = await call(k.creator, 'PUT', `/api/polls/${poll.id}`, { options: ['A', 'B'] })
      expect((await expectStatus(edit, 409)).message).toBe(
        'The options of a secret poll cannot change once someone has voted',
      )
    })
  })
})
