/**
 * A seeded generator of push batches for issue 18's fuzz test (`features/sync/push-fuzz.test.ts`,
 * a fixed set of seeds in `npm test`; `npm run fuzz` runs many more). Each batch mixes valid
 * mutations with invalid, odd-text, out-of-range, unknown, duplicate and rate-limited ones, and
 * every mutation carries what its answer must be, so the test can hold the server to it: valid ones
 * applied exactly once, every other one rejected alone with its code.
 *
 * Valid mutations only create and annotate (posts, comments, chat, events, polls, reactions,
 * RSVPs, read marks, profiles, codes): nothing another user's batch in flight could take away
 * from under them, so "valid" stays true whatever order the parallel pushes commit in.
 */

import { v7 as uuidv7 } from 'uuid'

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** What the answer to a mutation must be. */
export type Expect =
  | { status: 'applied'; row?: { table: string; id: string } }
  | { status: 'duplicate' }
  | { status: 'rejected'; code: string }

export interface FuzzMutation {
  id: string
  name: string
  args: Record<string, unknown>
  createdAt: string
  expect: Expect
}

export interface FuzzUser {
  id: string
  token: string
  /** Bubles this user belongs to (its own, and the shared one). */
  bubles: string[]
  /** Its e-mail invites are used up for the hour: each one is refused RATE_LIMITED. */
  limited: boolean
}

/** What committed batches left that later batches of the same user may build on. */
export interface FuzzWorld {
  /** Posts known to be committed, per buble. */
  posts: Map<string, string[]>
  /** A buble no fuzz user belongs to. */
  outsideBuble: string
  /** Mutations a user already pushed (to send again: `duplicate`), per user id. */
  sent: Map<string, FuzzMutation[]>
}

const isConflict = (expect: Expect) => expect.status === 'rejected' && expect.code === 'CONFLICT'

const ODD_TEXTS = ['a\u0000b', '\u0000', 'x\ud800', '\udfff y', 'tail\ud83d'] as const
const FAR_DATES = ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-14:00', '+010000-01-01T00:00:00Z'] as const
const UNKNOWN_NAMES = [
  'post.explode',
  'buble.steal',
  'post.\u0000create',
  'chat.send\udc00',
  '',
  'x'.repeat(256),
] as const
const REACTIONS = ['like', 'love', 'laugh', 'wow', 'sad', 'angry'] as const

/** One batch of `size` mutations for `user`, the kinds drawn by `random`. */
export function fuzzBatch(random: () => number, user: FuzzUser, world: FuzzWorld, size: number): FuzzMutation[] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!
  const batch: FuzzMutation[] = []
  const at = () => new Date().toISOString()
  const add = (name: string, args: Record<string, unknown>, expect: Expect, id = uuidv7()) =>
    batch.push({ id, name, args, createdAt: at(), expect })
  const buble = () => pick(user.bubles)
  const postIn = (bubleId: string) => {
    const posts = world.posts.get(bubleId) ?? []
    return posts.length > 0 ? pick(posts) : undefined
  }
  const text = () => `fuzz ${Math.floor(random() * 1e9).toString(36)}`

  while (batch.length < size) {
    const roll = random()
    if (roll < 0.45) {
      // Valid.
      const bubleId = buble()
      const kind = Math.floor(random() * 9)
      const id = uuidv7()
      if (kind === 0)
        add(
          'post.create',
          { id, buble_id: bubleId, content: text() },
          { status: 'applied', row: { table: 'posts', id } },
        )
      else if (kind === 1) {
        const postId = postIn(bubleId)
        if (postId)
          add(
            'comment.create',
            { id, post_id: postId, content: text() },
            { status: 'applied', row: { table: 'comments', id } },
          )
        else
          add(
            'post.create',
            { id, buble_id: bubleId, content: text() },
            { status: 'applied', row: { table: 'posts', id } },
          )
      } else if (kind === 2)
        add(
          'chat.send',
          { id, buble_id: bubleId, content: text() },
          { status: 'applied', row: { table: 'chat_messages', id } },
        )
      else if (kind === 3)
        add(
          'event.create',
          {
            id,
            buble_id: bubleId,
            title: text(),
            event_time: new Date(Date.UTC(2027, 0, 1 + Math.floor(random() * 300))).toISOString(),
          },
          { status: 'applied', row: { table: 'events', id } },
        )
      else if (kind === 4)
        add(
          'poll.create',
          { id, buble_id: bubleId, question: `${text()}?`, options: ['yes', 'no'] },
          { status: 'applied', row: { table: 'polls', id } },
        )
      else if (kind === 5) {
        const postId = postIn(bubleId)
        if (postId) add('reaction.add', { post_id: postId, reactionType: pick(REACTIONS) }, { status: 'applied' })
        else add('unread.read', { buble_id: bubleId, contentType: 'wall' }, { status: 'applied' })
      } else if (kind === 6)
        add(
          'unread.read',
          { buble_id: bubleId, contentType: pick(['wall', 'chat', 'events'] as const) },
          { status: 'applied' },
        )
      else if (kind === 7) add('profile.update', { bio: text() }, { status: 'applied' })
      else add('invite.create', { buble_id: user.bubles[0] }, { status: 'applied' })
    } else if (roll < 0.55) {
      // Invalid args: the schema refuses them.
      const bubleId = buble()
      pick([
        () => add('post.create', { id: uuidv7(), buble_id: bubleId }, { status: 'rejected', code: 'VALIDATION_ERROR' }),
        () =>
          add(
            'post.create',
            { id: uuidv7(), buble_id: bubleId, content: 'x'.repeat(10_001) },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
        () =>
          add(
            'chat.send',
            { id: 'not-a-uuid', buble_id: bubleId, content: 'hi' },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
        () =>
          add(
            'poll.create',
            { id: uuidv7(), buble_id: bubleId, question: 'One?', options: ['only'] },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
        () =>
          add(
            'reaction.add',
            { post_id: uuidv7(), reactionType: 'meh' },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
        () =>
          add(
            'buble.create',
            { id: uuidv7(), name: '\u200b\u2060\ufeff' },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
      ])()
    } else if (roll < 0.65) {
      // Odd text: NUL and unpaired surrogates.
      const bubleId = buble()
      const odd = pick(ODD_TEXTS)
      pick([
        () =>
          add(
            'post.create',
            { id: uuidv7(), buble_id: bubleId, content: odd },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
        () =>
          add(
            'chat.send',
            { id: uuidv7(), buble_id: bubleId, content: odd },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
        () => add('profile.update', { bio: odd }, { status: 'rejected', code: 'VALIDATION_ERROR' }),
        () =>
          add(
            'event.create',
            { id: uuidv7(), buble_id: bubleId, title: 'Odd', event_time: '2027-01-01T10:00:00Z', location: odd },
            {
              status: 'rejected',
              code: 'VALIDATION_ERROR',
            },
          ),
        () =>
          add(
            'invite.create',
            { buble_id: bubleId, email: `x${odd}@example.com` },
            { status: 'rejected', code: 'VALIDATION_ERROR' },
          ),
      ])()
    } else if (roll < 0.7) {
      // Out of range: a year no database stores.
      add(
        'event.create',
        { id: uuidv7(), buble_id: buble(), title: 'Far off', event_time: pick(FAR_DATES) },
        { status: 'rejected', code: 'VALIDATION_ERROR' },
      )
    } else if (roll < 0.77) {
      add(pick(UNKNOWN_NAMES), { id: uuidv7() }, { status: 'rejected', code: 'UNKNOWN_MUTATION' })
    } else if (roll < 0.84) {
      // A buble the user is not in: 404, revealing nothing.
      add(
        'post.create',
        { id: uuidv7(), buble_id: world.outsideBuble, content: text() },
        { status: 'rejected', code: 'NOT_FOUND' },
      )
    } else if (roll < 0.93) {
      // Sent again: the user's own earlier mutation answers duplicate; another user's id is a conflict.
      const own = world.sent.get(user.id) ?? []
      const earlier = own.filter((m) => m.expect.status === 'applied')
      // Only what the other users made themselves: a re-send in their lists may carry this user's own id.
      const theirs = [...world.sent.entries()]
        .filter(([id]) => id !== user.id)
        .flatMap(([, list]) => list.filter((m) => m.expect.status !== 'duplicate' && !isConflict(m.expect)))
      if (random() < 0.7 && earlier.length > 0) {
        const again = pick(earlier)
        batch.push({ ...again, expect: { status: 'duplicate' } })
      } else if (theirs.length > 0) {
        const other = pick(theirs)
        batch.push({ ...other, expect: { status: 'rejected', code: 'CONFLICT' } })
      }
    } else {
      // E-mail invites: refused alone once the hour's are used up.
      add(
        'invite.create',
        { buble_id: user.bubles[0], email: `fuzz-${uuidv7()}@example.com` },
        user.limited ? { status: 'rejected', code: 'RATE_LIMITED' } : { status: 'applied' },
      )
    }
  }
  return batch.slice(0, size)
}
