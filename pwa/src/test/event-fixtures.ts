/** Events and polls as the server sends them, for component tests. */

import type { BubleEvent, RsvpStatus } from '@buble/shared/events'
import type { BubleRole, Permission } from '@buble/shared/permissions'
import { ROLE_DEFAULT_PERMISSIONS } from '@buble/shared/permissions'
import { type Poll, pollOptionId } from '@buble/shared/polls'
import type { ExternalEvent } from '@buble/shared/providers'
import type { Change, PushBody } from '@buble/sync/protocol'
import { json, type Reply } from './fake-fetch.ts'
import {
  alice,
  bob,
  bubleChange,
  makeBuble,
  makeMember,
  memberChange,
  ownedBy,
  person,
  putChange as put,
} from './fixtures.ts'
import { renderApp } from './render-app.tsx'
import type { TestServer } from './test-device.ts'

/** The local events finder's search window when the clock says 2026-12-20 10:00 UTC: a month from now. */
export const FINDER_WINDOW = 'startDateTime=2026-12-20T10%3A00%3A00Z&endDateTime=2027-01-20T10%3A00%3A00Z&size=20'

/** A Ticketmaster event as the finder gets it, every field filled in. */
export const midwinterJazz: ExternalEvent = {
  id: 'tm-1',
  title: 'Midwinter Jazz',
  description: 'Bring warm clothes.',
  location: 'Fasching, Stockholm',
  startDate: '2026-12-24T18:00:00.000Z',
  endDate: '2026-12-24T22:00:00.000Z',
  price: '350–895.5 SEK',
  category: 'Music',
  source: 'ticketmaster',
  url: 'https://www.ticketmaster.se/event/midwinter-jazz',
  image: 'https://s1.ticketm.net/2048.jpg',
}

let count = 0
const nextId = (kind: string) => `0190f5b4-4${kind}00-7000-8000-${String(++count).padStart(12, '0')}`

/** An event made by `creator` (a name), with answers by name. */
export function makeEvent(
  bubleId: string,
  creator: string,
  title: string,
  eventTime: string,
  answers: Record<string, RsvpStatus> = {},
  overrides: Partial<BubleEvent> = {},
): BubleEvent {
  const ref = person(creator)
  return {
    id: nextId('1'),
    buble_id: bubleId,
    title,
    description: null,
    location: null,
    event_time: eventTime,
    creator_id: ref.id,
    creator: ref,
    created_at: '2026-11-20T10:00:00.000Z',
    external_url: null,
    external_source: null,
    recurrence: null,
    exdates: [],
    series_id: null,
    recurrence_id: null,
    rsvps: Object.entries(answers).map(([name, status]) => ({
      user_id: person(name).id,
      status,
      user: { name },
      occurrence: null,
    })),
    ...overrides,
  }
}

/** A poll made by `creator`, options with their vote counts; `userVote` names the caller's option. */
export function makePoll(
  bubleId: string,
  creator: string,
  question: string,
  votes: Record<string, number>,
  overrides: Partial<Poll> & { votedFor?: string; minutesAgo?: number } = {},
): Poll {
  const { votedFor, minutesAgo = 0, ...rest } = overrides
  const ref = person(creator)
  const id = rest.id ?? nextId('2')
  const options = Object.entries(votes).map(([text, n]) => ({
    id: pollOptionId(id, text),
    option_text: text,
    votes_count: n,
  }))
  return {
    id,
    buble_id: bubleId,
    question,
    options,
    totalVotes: options.reduce((sum, option) => sum + option.votes_count, 0),
    votersCount: options.reduce((sum, option) => sum + option.votes_count, 0),
    userVote: votedFor ? pollOptionId(id, votedFor) : null,
    userVotes: votedFor ? [pollOptionId(id, votedFor)] : [],
    hasVoted: votedFor !== undefined,
    closes_at: null,
    closed: false,
    multiple: false,
    hide_results: false,
    secret: false,
    created_at: new Date(Date.parse('2026-11-23T10:00:00.000Z') - minutesAgo * 60_000).toISOString(),
    creator: ref,
    creator_id: ref.id,
    ...rest,
  }
}

export const eventChange = (event: BubleEvent) => put('event', event)
export const pollChange = (poll: Poll) => put('poll', poll)

/** What a tab test needs of the buble: Alice's role there, and perhaps other permissions than its defaults. */
export interface TabOptions {
  role?: BubleRole
  permissions?: Permission[]
  server?: Partial<TestServer>
  api?: Record<string, Reply | Reply[]>
}

/** Alice on a tab of Book Club, Bob's buble of four members, with `rows` already pulled. */
export function openBubleTab(tab: 'events' | 'polls', rows: (bubleId: string) => Change[], options: TabOptions = {}) {
  const role = options.role ?? 'member'
  const permissions = options.permissions ?? [...ROLE_DEFAULT_PERMISSIONS[role]]
  const members = [person(bob.name), person(alice.name), person('Carl Cook'), person('Dana Dev')]
  const buble = makeBuble({ name: 'Book Club', ...ownedBy(bob), members, my_role: role, my_permissions: permissions })
  const app = renderApp({
    route: `/bubles/book-club/${tab}`,
    user: alice,
    server: {
      seed: [
        bubleChange(buble),
        memberChange(buble.id, { ...makeMember(alice, role), permissions }),
        memberChange(buble.id, makeMember(bob, 'owner')),
        ...rows(buble.id),
      ],
      ...options.server,
    },
    api: { 'GET /api/users/profile': json(200, alice), ...options.api },
  })
  return { ...app, buble }
}

/** A server that never answers a push: what the screen shows comes from the device alone. */
export const silent: Partial<TestServer> = { push: () => new Promise(() => {}) }

export const mutations = (pushes: PushBody[]) => pushes.flatMap((push) => push.mutations)
