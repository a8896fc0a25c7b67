import { randomUUID } from 'node:crypto'
import { pollOptionId } from '@buble/shared/polls'
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, test } from 'vitest'
import { pollVotes } from '../../db/schema.ts'
import { backends } from '../../testing/databases.ts'
import { mutation, pullAll, push } from '../../testing/sync.ts'
import {
  type Club,
  CREATE_MATRIX,
  clubSuite,
  DELETE_MATRIX,
  EDIT_MATRIX,
  type Person,
} from '../../testing/test-club.ts'

/**
 * Polls (CONTRACT §3.3, §5, §6): who may create, edit and delete, votes that replace each other
 * with totals kept right, options of other polls refused, edits that keep votes of kept options,
 * 404 for outsiders, and each member's own vote in what they read and pull.
 */

const POLL_NOT_FOUND = { code: 'NOT_FOUND', message: 'Poll not found' }

describe.each(backends())('polls on %s', (backend) => {
  const { h, call, club, expectStatus, expectNotFound } = clubSuite(backend)

  const createPoll = async (who: Person, bubleId: string, body: Record<string, unknown> = {}) =>
    expectStatus(
      await call(who, 'POST', `/api/bubles/${bubleId}/polls`, { question: 'Fika?', options: ['Yes', 'No'], ...body }),
      201,
    )
  const list = async (who: Person, bubleId: string) =>
    expectStatus(await call(who, 'GET', `/api/bubles/${bubleId}/polls`), 200)
  const find = async (who: Person, bubleId: string, id: string) =>
    (await list(who, bubleId)).find((p: { id: string }) => p.id === id)
  const vote = (who: Person, pollId: string, optionId: string) =>
    call(who, 'POST', `/api/polls/${pollId}/vote`, { poll_option_id: optionId })
  const counts = (poll: { options: { votes_count: number }[]; totalVotes: number }) => [
    ...poll.options.map((o) => o.votes_count),
    poll.totalVotes,
  ]

  let c: Club
  beforeAll(async () => {
    c = await club()
  })

  test('a poll answers the CONTRACT shape with derived option ids; the same id again answers it, others get 409', async () => {
    const id = randomUUID()
    const created = await createPoll(c.creator, c.bubleId, { id, question: ' Where? ', options: [' Park ', 'Beach'] })
    expect(created).toEqual({
      id,
      buble_id: c.bubleId,
      question: 'Where?',
      options: [
        { id: pollOptionId(id, 'Park'), option_text: 'Park', votes_count: 0 },
        { id: pollOptionId(id, 'Beach'), option_text: 'Beach', votes_count: 0 },
      ],
      totalVotes: 0,
      votersCount: 0,
      userVote: null,
      userVotes: [],
      hasVoted: false,
      closes_at: null,
      closed: false,
      multiple: false,
      hide_results: false,
      secret: false,
      created_at: h().clock.now.toISOString(),
      creator: { id: c.creator.id, name: c.creator.name, avatar_url: null },
      creator_id: c.creator.id,
    })
    const again = await call(c.creator, 'POST', `/api/bubles/${c.bubleId}/polls`, {
      id,
      question: 'x',
      options: ['a', 'b'],
    })
    expect(await expectStatus(again, 200)).toEqual(created)
    const theirs = await call(c.member, 'POST', `/api/bubles/${c.bubleId}/polls`, {
      id,
      question: 'x',
      options: ['a', 'b'],
    })
    expect((await expectStatus(theirs, 409)).code).toBe('CONFLICT')
  })

  test('the list is newest first', async () => {
    const k = await club()
    const first = await createPoll(k.member, k.bubleId, { question: 'First' })
    const second = await createPoll(k.owner, k.bubleId, { question: 'Second' })
    h().clock.advance(1000)
    const third = await createPoll(k.admin, k.bubleId, { question: 'Third' })
    expect((await list(k.revoked, k.bubleId)).map((p: { id: string }) => p.id)).toEqual([third.id, second.id, first.id])
  })

  test.each(CREATE_MATRIX)('create by the %s → %i', async (who, status) => {
    const question = `Asked by ${who} ${randomUUID()}`
    const res = await call(c[who], 'POST', `/api/bubles/${c.bubleId}/polls`, { question, options: ['a', 'b'] })
    const body = await expectStatus(res, status)
    if (status === 403)
      expect(body).toEqual({ code: 'FORBIDDEN', message: 'You are not allowed to create polls in this Buble' })
    const questions = (await list(c.owner, c.bubleId)).map((p: { question: string }) => p.question)
    expect(questions.includes(question)).toBe(status === 201)
  })

  test.each(EDIT_MATRIX)('edit of the creator’s poll by the %s → %i', async (who, status) => {
    const poll = await createPoll(c.creator, c.bubleId, { question: 'Before' })
    const body = await expectStatus(await call(c[who], 'PUT', `/api/polls/${poll.id}`, { question: 'After' }), status)
    if (status === 403) expect(body.code).toBe('FORBIDDEN')
    if (status === 404) expect(body).toEqual(POLL_NOT_FOUND)
    expect((await find(c.owner, c.bubleId, poll.id)).question).toBe(status === 200 ? 'After' : 'Before')
  })

  test.each(DELETE_MATRIX)('delete of the creator’s poll by the %s → %i', async (who, status) => {
    const poll = await createPoll(c.creator, c.bubleId)
    await vote(c.member, poll.id, poll.options[0].id)
    await expectStatus(await call(c[who], 'DELETE', `/api/polls/${poll.id}`), status)
    expect((await find(c.owner, c.bubleId, poll.id)) === undefined).toBe(status === 204)
    const votes = await h().database.db.select().from(pollVotes).where(eq(pollVotes.pollId, poll.id))
    expect(votes).toHaveLength(status === 204 ? 0 : 1)
  })

  test('vote, change the vote, remove it (twice): totals follow and each member sees their own vote', async () => {
    const poll = await createPoll(c.creator, c.bubleId, { options: ['A', 'B', 'C'] })
    const [a, b] = poll.options.map((o: { id: string }) => o.id)
    const voted = await expectStatus(await vote(c.member, poll.id, a), 200)
    expect(voted).toMatchObject({ userVote: a, hasVoted: true, totalVotes: 1 })
    await expectStatus(await vote(c.revoked, poll.id, a), 200)
    const changed = await expectStatus(await vote(c.member, poll.id, b), 200)
    expect(counts(changed)).toEqual([1, 1, 0, 2])
    expect(await expectStatus(await vote(c.member, poll.id, b), 200)).toEqual(changed)
    expect(await find(c.revoked, c.bubleId, poll.id)).toMatchObject({ userVote: a, hasVoted: true })
    expect(await find(c.owner, c.bubleId, poll.id)).toMatchObject({ userVote: null, hasVoted: false, totalVotes: 2 })
    const removed = await expectStatus(await call(c.member, 'DELETE', `/api/polls/${poll.id}/vote`), 200)
    expect(removed).toMatchObject({ userVote: null, hasVoted: false })
    expect(counts(removed)).toEqual([1, 0, 0, 1])
    expect(await expectStatus(await call(c.member, 'DELETE', `/api/polls/${poll.id}/vote`), 200)).toEqual(removed)
  })

  test('an option of another poll, or an unknown one, is a 400 and changes nothing', async () => {
    const poll = await createPoll(c.creator, c.bubleId)
    const other = await createPoll(c.creator, c.bubleId, { question: 'Other' })
    await vote(c.member, poll.id, poll.options[0].id)
    for (const optionId of [other.options[0].id, randomUUID()]) {
      const body = await expectStatus(await vote(c.member, poll.id, optionId), 400)
      expect(body).toEqual({
        code: 'VALIDATION_ERROR',
        message: 'poll_option_id is not an option of this poll',
        issues: [{ path: 'poll_option_id', message: 'poll_option_id is not an option of this poll' }],
      })
    }
    expect(await find(c.member, c.bubleId, poll.id)).toMatchObject({ userVote: poll.options[0].id, totalVotes: 1 })
    expect(counts(await find(c.member, c.bubleId, other.id))).toEqual([0, 0, 0])
  })

  test('an edit of the options keeps the votes of options whose text stays; removed options take their votes', async () => {
    const poll = await createPoll(c.creator, c.bubleId, { options: ['Pizza', 'Sushi', 'Tacos'] })
    const [pizza, sushi, tacos] = poll.options.map((o: { id: string }) => o.id)
    await vote(c.member, poll.id, pizza)
    await vote(c.admin, poll.id, sushi)
    await vote(c.revoked, poll.id, tacos)
    const res = await call(c.creator, 'PUT', `/api/polls/${poll.id}`, { options: ['Falafel', 'PIZZA', 'Tacos'] })
    const edited = await expectStatus(res, 200)
    expect(edited.options).toEqual([
      { id: pollOptionId(poll.id, 'Falafel'), option_text: 'Falafel', votes_count: 0 },
      { id: pizza, option_text: 'PIZZA', votes_count: 1 },
      { id: tacos, option_text: 'Tacos', votes_count: 1 },
    ])
    expect(edited.totalVotes).toBe(2)
    expect(await find(c.admin, c.bubleId, poll.id)).toMatchObject({ userVote: null, hasVoted: false })
    expect(await find(c.member, c.bubleId, poll.id)).toMatchObject({ userVote: pizza, question: 'Fika?' })
  })

  test('bad input is a 400 naming the problem, with issues; nothing is made', async () => {
    const path = `/api/bubles/${c.bubleId}/polls`
    const before = (await list(c.owner, c.bubleId)).length
    const cases: [unknown, string, string][] = [
      [{ question: 'q', options: ['only'] }, 'options', 'A poll needs at least 2 options'],
      [
        { question: 'q', options: Array.from({ length: 11 }, (_, i) => `o${i}`) },
        'options',
        'A poll may have at most 10 options',
      ],
      [{ question: 'q', options: ['a', '  '] }, 'options.1', 'Options must not be empty'],
      [{ question: 'q', options: ['Same', 'same'] }, 'options', 'Options must differ from each other'],
      [{ question: ' ', options: ['a', 'b'] }, 'question', 'Question is required'],
      [{ question: 'q'.repeat(301), options: ['a', 'b'] }, 'question', 'Question must be at most 300 characters'],
      [{ options: ['a', 'b'] }, 'question', 'Question is required'],
    ]
    for (const [body, field, message] of cases) {
      const answer = await expectStatus(await call(c.member, 'POST', path, body), 400)
      expect(answer).toMatchObject({ code: 'VALIDATION_ERROR', message })
      expect(answer.issues).toContainEqual({ path: field, message })
    }
    expect((await list(c.owner, c.bubleId)).length).toBe(before)
    const poll = await createPoll(c.creator, c.bubleId)
    const edit = await expectStatus(await call(c.creator, 'PUT', `/api/polls/${poll.id}`, { options: ['one'] }), 400)
    expect(edit.issues).toEqual([{ path: 'options', message: 'A poll needs at least 2 options' }])
    const bad = await expectStatus(await vote(c.member, poll.id, 'nope'), 400)
    expect(bad.issues).toEqual([{ path: 'poll_option_id', message: 'poll_option_id must be a UUID' }])
    expect((await find(c.owner, c.bubleId, poll.id)).options).toHaveLength(2)
  })

  test('a non-member gets 404 on every route, and a path id that is no UUID names nothing', async () => {
    const poll = await createPoll(c.creator, c.bubleId)
    const option = poll.options[0].id
    await expectNotFound(c.outsider, [
      ['GET', `/api/bubles/${c.bubleId}/polls`],
      ['POST', `/api/bubles/${c.bubleId}/polls`, { question: 'q', options: ['a', 'b'] }],
      ['PUT', `/api/polls/${poll.id}`, { question: 'x' }],
      ['DELETE', `/api/polls/${poll.id}`],
      ['POST', `/api/polls/${poll.id}/vote`, { poll_option_id: option }],
      ['DELETE', `/api/polls/${poll.id}/vote`],
    ])
    await expectNotFound(c.member, [
      ['GET', '/api/bubles/x/polls'],
      ['PUT', '/api/polls/x', { question: 'q' }],
      ['DELETE', '/api/polls/x'],
      ['POST', '/api/polls/x/vote', { poll_option_id: option }],
      ['DELETE', '/api/polls/x/vote'],
    ])
    expect(await find(c.owner, c.bubleId, poll.id)).toMatchObject({ question: 'Fika?', totalVotes: 0 })
  })

  describe('in sync', () => {
    test('a vote pushed twice in one push and again in another is applied once', async () => {
      const k = await club()
      const poll = await createPoll(k.creator, k.bubleId, { options: ['A', 'B'] })
      const [a, b] = poll.options.map((o: { id: string }) => o.id)
      const ballot = mutation('poll.vote', { poll_id: poll.id, poll_option_id: a })
      const first = await push(h(), k.member.token, [ballot, ballot])
      expect(first.map((r) => r.status)).toEqual(['applied', 'duplicate'])
      await vote(k.member, poll.id, b)
      const replay = await push(h(), k.member.token, [ballot])
      expect(replay[0]).toMatchObject({ status: 'duplicate', data: first[0]!.data })
      expect(counts(await find(k.member, k.bubleId, poll.id))).toEqual([0, 1, 1])
    })

    test('pulls carry each member’s own vote; a delete reaches devices as del; unread counts others’ polls', async () => {
      const k = await club()
      const cursors = {
        member: (await pullAll(h(), k.member.token)).cursor,
        admin: (await pullAll(h(), k.admin.token)).cursor,
      }
      const id = randomUUID()
      const [a, b] = [pollOptionId(id, 'Yes'), pollOptionId(id, 'No')]
      const made = await push(h(), k.creator.token, [
        mutation('poll.create', { id, buble_id: k.bubleId, question: 'Offline?', options: ['Yes', 'No'] }),
        mutation('poll.vote', { poll_id: id, poll_option_id: a }),
      ])
      expect(made.map((r) => r.status)).toEqual(['applied', 'applied'])
      expect(
        (await push(h(), k.member.token, [mutation('poll.vote', { poll_id: id, poll_option_id: b })]))[0]?.status,
      ).toBe('applied')
      const pulled = async (who: 'member' | 'admin') => {
        const page = await pullAll(h(), k[who].token, cursors[who])
        cursors[who] = page.cursor
        return page.changes
      }
      const memberChanges = await pulled('member')
      const adminChanges = await pulled('admin')
      const last = (changes: typeof memberChanges) => changes.filter((x) => x.entity === 'poll' && x.id === id).at(-1)
      expect(last(memberChanges)?.data).toMatchObject({ userVote: b, hasVoted: true, totalVotes: 2 })
      expect(last(adminChanges)?.data).toMatchObject({ userVote: null, hasVoted: false, totalVotes: 2 })
      const counter = adminChanges.filter((x) => x.entity === 'unread' && x.id === `${k.bubleId}:polls`).at(-1)
      expect(counter?.data).toEqual({ contentType: 'polls', unreadCount: 1 })
      const own = await (await call(k.creator, 'GET', `/api/unread/buble/${k.bubleId}`)).json()
      expect(own.find((x: { contentType: string }) => x.contentType === 'polls').unreadCount).toBe(0)

      expect((await push(h(), k.member.token, [mutation('poll.unvote', { poll_id: id })]))[0]?.data).toMatchObject({
        userVote: null,
        totalVotes: 1,
      })
      expect((await push(h(), k.owner.token, [mutation('poll.delete', { id })]))[0]?.status).toBe('applied')
      expect(await pulled('admin')).toContainEqual(expect.objectContaining({ entity: 'poll', op: 'del', id }))
      const [late] = await push(h(), k.member.token, [mutation('poll.vote', { poll_id: id, poll_option_id: a })])
      expect(late).toMatchObject({ status: 'rejected', ...POLL_NOT_FOUND })
      const wrong = await push(h(), k.member.token, [
        mutation('poll.update', { id: randomUUID(), question: 'Nobody’s' }),
        mutation('poll.create', { id: randomUUID(), buble_id: k.bubleId, question: 'q', options: ['a'] }),
      ])
      expect(wrong.map((r) => [r.status, r.code])).toEqual([
        ['rejected', 'NOT_FOUND'],
        ['rejected', 'VALIDATION_ERROR'],
      ])
    })
  })
})
