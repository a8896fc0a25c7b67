import type { LocalRow, RowStore } from '@buble/shared/device-rows'
import type { MutationArgs, MutationName } from '@buble/shared/mutations'
import { pollOptionId } from '@buble/shared/polls'
import { applyPulled, recordMutation, settleResults } from '@buble/sync/client/replica'
import { AT, alice, B1, bob, memoryStore } from '@buble/sync/client/test-kit'
import type { Change, PullResponse } from '@buble/sync/protocol'
import { afterEach, describe, expect, test } from 'vitest'
import { applyOptimistic, testDb } from '../../test/device-kit.ts'
import type { DeviceDb } from '../device-db.ts'

const E1 = '0192b3c4-0000-7000-8000-0000000000e1'
const E2 = '0192b3c4-0000-7000-8000-0000000000e2'
const Q1 = '0192b3c4-0000-7000-8000-0000000000a1'
const Q2 = '0192b3c4-0000-7000-8000-0000000000a2'
const YES = pollOptionId(Q1, 'Yes')
const NO = pollOptionId(Q1, 'No')

/** An event as the server sends it: Bob made it and is going. */
const serverEvent = (id = E1, extra: Record<string, unknown> = {}): LocalRow => ({
  id,
  buble_id: B1,
  title: 'Picnic',
  description: null,
  location: 'Park',
  event_time: '2026-12-01T11:00:00.000Z',
  creator_id: bob.id,
  creator: { id: bob.id, name: bob.name, avatar_url: null },
  created_at: AT,
  external_url: null,
  external_source: null,
  rsvps: [{ user_id: bob.id, status: 'going', user: { name: bob.name }, occurrence: null }],
  ...extra,
})

/** A poll as the server sends it to Alice: Bob voted Yes, Alice has not voted. */
const serverPoll = (extra: Record<string, unknown> = {}): LocalRow => ({
  id: Q1,
  buble_id: B1,
  question: 'Pizza?',
  options: [
    { id: YES, option_text: 'Yes', votes_count: 1 },
    { id: NO, option_text: 'No', votes_count: 0 },
  ],
  totalVotes: 1,
  userVote: null,
  hasVoted: false,
  created_at: AT,
  creator: { id: bob.id, name: bob.name, avatar_url: null },
  creator_id: bob.id,
  ...extra,
})

// A weekly series of four from Tuesday 13 October 2026, 18:00 in Stockholm; Bob goes to the second.
const E3 = '0192b3c4-0000-7000-8000-0000000000e3'
const E4 = '0192b3c4-0000-7000-8000-0000000000e4'
const START = '2026-10-13T16:00:00.000Z'
const WEEK2 = '2026-10-20T16:00:00.000Z'
const WEEK3 = '2026-10-27T17:00:00.000Z'
const WEEK4 = '2026-11-03T17:00:00.000Z'
const serverSeries = (): LocalRow =>
  serverEvent(E3, {
    title: 'Run',
    event_time: START,
    recurrence: 'FREQ=WEEKLY;COUNT=4',
    exdates: [],
    series_id: null,
    recurrence_id: null,
    rsvps: [
      { user_id: bob.id, status: 'going', user: { name: bob.name }, occurrence: WEEK2 },
      { user_id: bob.id, status: 'maybe', user: { name: bob.name }, occurrence: WEEK4 },
    ],
  })

const seeded = () =>
  memoryStore([
    { table: 'events', row: serverEvent() },
    { table: 'events', row: serverSeries() },
    { table: 'polls', row: serverPoll() },
  ])

const apply = <N extends MutationName>(store: RowStore, name: N, args: MutationArgs<N>) =>
  applyOptimistic(store, name, args, alice, AT)

describe('applying an event or poll change twice is the same as once', () => {
  test.each<[MutationName, Record<string, unknown>]>([
    ['event.create', { id: E2, buble_id: B1, title: 'Quiz', description: null, location: null, event_time: AT }],
    ['event.update', { id: E1, title: 'Big picnic' }],
    ['event.delete', { id: E1 }],
    ['event.rsvp', { event_id: E1, status: 'maybe' }],
    ['event.rsvp', { event_id: E3, status: 'maybe', occurrence: WEEK2 }],
    ['event.update', { id: E3, scope: 'this', occurrence: WEEK2, new_id: E4, title: 'Long run' }],
    ['event.update', { id: E3, scope: 'following', occurrence: WEEK3, new_id: E4, location: 'Hill' }],
    ['event.delete', { id: E3, occurrence: WEEK2 }],
    ['poll.create', { id: Q2, buble_id: B1, question: 'When?', options: ['Fri', 'Sat'] }],
    ['poll.update', { id: Q1, options: ['Yes', 'Maybe'] }],
    ['poll.delete', { id: Q1 }],
    ['poll.vote', { poll_id: Q1, poll_option_id: NO }],
    ['poll.unvote', { poll_id: Q1 }],
  ])('%s', async (name, args) => {
    const once = seeded()
    if (name === 'poll.unvote') await apply(once.store, 'poll.vote', { poll_id: Q1, poll_option_id: YES })
    const before = once.snapshot()
    await apply(once.store, name, args as never)
    const twice = memoryStore()
    for (const [table, rows] of Object.entries(before))
      for (const row of Object.values(rows)) await twice.store.put(table as never, row)
    await apply(twice.store, name, args as never)
    await apply(twice.store, name, args as never)
    expect(twice.snapshot()).toEqual(once.snapshot())
    expect(once.snapshot()).not.toEqual(before)
  })
})

describe('a repeating event on the device (decision 97)', () => {
  test('an RSVP answers one occurrence, beside the answers to the others', async () => {
    const { store } = seeded()
    await apply(store, 'event.rsvp', { event_id: E3, status: 'cant_go', occurrence: WEEK2 })
    await apply(store, 'event.rsvp', { event_id: E3, status: 'going', occurrence: WEEK3 })
    const rsvps = (await store.get('events', E3))?.rsvps as { user_id: string; occurrence: string; status: string }[]
    expect(rsvps.map((r) => [r.user_id === alice.id ? 'alice' : 'bob', r.occurrence, r.status])).toEqual([
      ['bob', WEEK2, 'going'],
      ['bob', WEEK4, 'maybe'],
      ['alice', WEEK2, 'cant_go'],
      ['alice', WEEK3, 'going'],
    ])
  })

  test('“this event” takes the occurrence out of the series into a new event with its answers', async () => {
    const { store } = seeded()
    await apply(store, 'event.update', { id: E3, scope: 'this', occurrence: WEEK2, new_id: E4, title: 'Long run' })
    expect(await store.get('events', E3)).toMatchObject({
      title: 'Run',
      exdates: [WEEK2],
      rsvps: [{ occurrence: WEEK4 }],
      _pending: true,
    })
    expect(await store.get('events', E4)).toMatchObject({
      title: 'Long run',
      event_time: WEEK2,
      recurrence: null,
      series_id: E3,
      recurrence_id: WEEK2,
      rsvps: [{ user_id: bob.id, status: 'going', occurrence: null }],
      _pending: true,
    })
  })

  test('“this and following events” ends the series before the occurrence; the rest is a new series', async () => {
    const { store } = seeded()
    await apply(store, 'event.update', { id: E3, scope: 'following', occurrence: WEEK3, new_id: E4, location: 'Hill' })
    expect(await store.get('events', E3)).toMatchObject({
      location: 'Park',
      recurrence: 'FREQ=WEEKLY;UNTIL=20261027T165959Z',
      rsvps: [{ occurrence: WEEK2 }],
    })
    expect(await store.get('events', E4)).toMatchObject({
      location: 'Hill',
      event_time: WEEK3,
      recurrence: 'FREQ=WEEKLY;COUNT=2',
      series_id: null,
      rsvps: [{ status: 'maybe', occurrence: WEEK4 }],
    })
  })

  test('cancelling one occurrence takes it out with its answers', async () => {
    const { store } = seeded()
    await apply(store, 'event.delete', { id: E3, occurrence: WEEK2 })
    expect(await store.get('events', E3)).toMatchObject({ exdates: [WEEK2], rsvps: [{ occurrence: WEEK4 }] })
  })
})

describe('what each event change does', () => {
  test('a new event has the server’s shape, made by the actor, with no answers yet, pending', async () => {
    const { store } = memoryStore()
    const quiz = {
      id: E2,
      buble_id: B1,
      title: 'Quiz',
      description: 'Pub quiz',
      location: null,
      event_time: '2026-12-05T18:00:00.000Z',
      external_url: 'https://tickets.example.com/1',
      external_source: 'ticketmaster',
      recurrence: null,
    }
    await apply(store, 'event.create', quiz)
    expect(await store.get('events', E2)).toEqual({
      ...quiz,
      creator_id: alice.id,
      creator: { id: alice.id, name: alice.name, avatar_url: null },
      created_at: AT,
      exdates: [],
      series_id: null,
      recurrence_id: null,
      rsvps: [],
      _pending: true,
    })
  })

  test('an edit sets the fields it sends, keeps the others, and reads pending', async () => {
    const { store } = seeded()
    await apply(store, 'event.update', { id: E1, title: 'Big picnic', location: null })
    expect(await store.get('events', E1)).toEqual({
      ...serverEvent(),
      title: 'Big picnic',
      location: null,
      _pending: true,
    })
  })

  test('an RSVP replaces the actor’s earlier answer, leaves others’ and does not mark the event pending', async () => {
    const { store } = seeded()
    await apply(store, 'event.rsvp', { event_id: E1, status: 'going' })
    await apply(store, 'event.rsvp', { event_id: E1, status: 'maybe' })
    const row = await store.get('events', E1)
    expect(row?.rsvps).toEqual([
      { user_id: bob.id, status: 'going', user: { name: bob.name }, occurrence: null },
      { user_id: alice.id, status: 'maybe', user: { name: alice.name }, occurrence: null },
    ])
    expect(row?._pending).toBeUndefined()
  })
})

describe('what each poll change does', () => {
  test('a new poll’s options carry the ids the server derives, with no votes', async () => {
    const { store } = memoryStore()
    await apply(store, 'poll.create', { id: Q2, buble_id: B1, question: 'When?', options: ['Fri', 'Sat'] })
    expect(await store.get('polls', Q2)).toEqual({
      id: Q2,
      buble_id: B1,
      question: 'When?',
      options: [
        { id: pollOptionId(Q2, 'Fri'), option_text: 'Fri', votes_count: 0 },
        { id: pollOptionId(Q2, 'Sat'), option_text: 'Sat', votes_count: 0 },
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
      created_at: AT,
      creator: { id: alice.id, name: alice.name, avatar_url: null },
      creator_id: alice.id,
      _pending: true,
    })
  })

  test('several choices: a vote sets the whole set, counting votes and voters apart', async () => {
    const { store } = memoryStore([{ table: 'polls', row: serverPoll({ multiple: true, votersCount: 1 }) }])
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_ids: [YES, NO] })
    let row = await store.get('polls', Q1)
    expect([votes(row), row?.totalVotes, row?.votersCount, row?.userVotes]).toEqual([[2, 1], 3, 2, [YES, NO]])
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: NO })
    row = await store.get('polls', Q1)
    expect([votes(row), row?.totalVotes, row?.votersCount, row?.userVotes]).toEqual([[1, 1], 2, 2, [NO]])
  })

  test('a secret vote keeps no choice on the row, a second vote and an unvote change nothing; hidden counts stay hidden', async () => {
    const hidden = [
      { id: YES, option_text: 'Yes', votes_count: null },
      { id: NO, option_text: 'No', votes_count: null },
    ]
    const { store } = memoryStore([
      { table: 'polls', row: serverPoll({ secret: true, votersCount: 1, options: hidden, totalVotes: null }) },
    ])
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: YES })
    const voted = await store.get('polls', Q1)
    expect(voted).toMatchObject({ hasVoted: true, userVote: null, userVotes: [], votersCount: 2, totalVotes: null })
    expect(votes(voted)).toEqual([null, null])
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: NO })
    await apply(store, 'poll.unvote', { poll_id: Q1 })
    expect(await store.get('polls', Q1)).toEqual(voted)
  })

  const votes = (row: LocalRow | undefined) =>
    ((row?.options ?? []) as { votes_count: number }[]).map((o) => o.votes_count)

  test('a vote counts once, a changed vote moves, a removed vote goes; none marks the poll pending', async () => {
    const { store } = seeded()
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: YES })
    let row = await store.get('polls', Q1)
    expect([votes(row), row?.totalVotes, row?.userVote, row?.hasVoted]).toEqual([[2, 0], 2, YES, true])
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: NO })
    row = await store.get('polls', Q1)
    expect([votes(row), row?.totalVotes, row?.userVote]).toEqual([[1, 1], 2, NO])
    await apply(store, 'poll.unvote', { poll_id: Q1 })
    row = await store.get('polls', Q1)
    expect([votes(row), row?.totalVotes, row?.userVote, row?.hasVoted]).toEqual([[1, 0], 1, null, false])
    expect(row?._pending).toBeUndefined()
  })

  test('a vote for an option the poll does not have changes nothing', async () => {
    const { store } = seeded()
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: pollOptionId(Q1, 'Maybe') })
    expect(await store.get('polls', Q1)).toEqual(serverPoll())
  })

  test('an edit keeps the votes of options whose text stays and drops those of removed ones, with the actor’s vote', async () => {
    const { store } = seeded()
    await apply(store, 'poll.vote', { poll_id: Q1, poll_option_id: NO })
    await apply(store, 'poll.update', { id: Q1, question: 'Pizza tonight?', options: ['yes', 'Maybe'] })
    expect(await store.get('polls', Q1)).toMatchObject({
      question: 'Pizza tonight?',
      options: [
        { id: YES, option_text: 'yes', votes_count: 1 },
        { id: pollOptionId(Q1, 'Maybe'), option_text: 'Maybe', votes_count: 0 },
      ],
      totalVotes: 1,
      userVote: null,
      hasVoted: false,
      _pending: true,
    })
  })
})

// Through the real replica: every pull re-applies what is pending over the server's rows.
describe('votes and RSVPs over pulls and refusals', () => {
  let dbs: DeviceDb[] = []
  afterEach(() => {
    for (const db of dbs) db.close()
    dbs = []
  })
  let seq = 0
  const put = (entity: 'event' | 'poll', row: LocalRow): Change => ({
    entity,
    op: 'put',
    id: row.id,
    buble_id: B1,
    data: row,
  })
  const page = (...changes: Change[]): PullResponse => ({ cursor: `c${++seq}`, hasMore: false, changes })
  const mutate = async <N extends MutationName>(db: DeviceDb, name: N, args: MutationArgs<N>) => {
    const id = `0192b3c4-0000-7000-8000-${String(++seq).padStart(12, '0')}`
    await recordMutation(db, { id, name, args, createdAt: AT, actor: alice })
    return id
  }
  const device = async () => {
    const db = testDb()
    dbs.push(db)
    await applyPulled(db, page(put('event', serverEvent()), put('poll', serverPoll())))
    return db
  }

  test('a vote made offline is counted once however often the server’s poll arrives', async () => {
    const db = await device()
    await mutate(db, 'poll.vote', { poll_id: Q1, poll_option_id: NO })
    for (const pulled of [
      page(put('poll', serverPoll({ question: 'Pizza!' }))),
      page(),
      page(put('event', serverEvent())),
    ]) {
      await applyPulled(db, pulled)
      expect(await db.polls.get(Q1)).toMatchObject({
        totalVotes: 2,
        userVote: NO,
        options: [{ votes_count: 1 }, { votes_count: 1 }],
      })
    }
  })

  test('a poll made offline can be voted on offline', async () => {
    const db = await device()
    await mutate(db, 'poll.create', { id: Q2, buble_id: B1, question: 'When?', options: ['Fri', 'Sat'] })
    await mutate(db, 'poll.vote', { poll_id: Q2, poll_option_id: pollOptionId(Q2, 'Sat') })
    await applyPulled(db, page())
    expect(await db.polls.get(Q2)).toMatchObject({ totalVotes: 1, hasVoted: true, _pending: true })
  })

  test('a refused RSVP is undone, and the answer before it shows again', async () => {
    const db = await device()
    await mutate(db, 'event.rsvp', { event_id: E1, status: 'going' })
    const refused = await mutate(db, 'event.rsvp', { event_id: E1, status: 'cant_go' })
    expect((await db.events.get(E1))?.rsvps).toContainEqual({
      user_id: alice.id,
      status: 'cant_go',
      user: { name: alice.name },
      occurrence: null,
    })
    await settleResults(db, [{ id: refused, status: 'rejected', code: 'NOT_FOUND', message: 'Event not found' }], AT)
    expect((await db.events.get(E1))?.rsvps).toEqual([
      { user_id: bob.id, status: 'going', user: { name: bob.name }, occurrence: null },
      { user_id: alice.id, status: 'going', user: { name: alice.name }, occurrence: null },
    ])
    expect(await db.rejections.count()).toBe(1)
  })
})
