/**
 * The device's side of Buble's data: where each synced entity's rows live in the device database
 * (IndexedDB, through the sync engine's Dexie), and what each mutation does to them before the
 * server answers (the wall's, events' and chat's changes are in optimistic-*.ts). The PWA opens
 * its database with this, and so do the API's tests of real devices.
 */

import { newOwnedBuble } from './bubles.ts'
import type { Optimistic, OptimisticOf, RowRef, RowStore } from './device-rows.ts'
import type { Entity } from './entities.ts'
import type { MUTATION_ARGS, MutationArgs } from './mutations.ts'
import { mutedUntilFor } from './mutes.ts'
import { CHAT_OPTIMISTIC } from './optimistic-chat.ts'
import { EVENTS_OPTIMISTIC } from './optimistic-events.ts'
import { PIN_OPTIMISTIC, WALL_OPTIMISTIC } from './optimistic-wall.ts'

/** Where each entity's rows live. */
export const ENTITY_TABLE = {
  buble: 'bubles',
  member: 'members',
  post: 'posts',
  comment: 'comments',
  event: 'events',
  poll: 'polls',
  chat_message: 'chat_messages',
  story: 'stories',
  unread: 'unread',
} as const satisfies Record<Entity, string>

export type RowTable = (typeof ENTITY_TABLE)[Entity]

/**
 * The indexes of each row table (Dexie's syntax), one entry per version of the device database:
 * a later version lists only the tables it changes. Versions are only ever added, never edited:
 * devices upgrade from whichever they have.
 */
export const ROW_TABLE_VERSIONS: Partial<Record<RowTable, string>>[] = [
  {
    bubles: 'id, slug, created_at',
    members: 'id, buble_id, user_id',
    posts: 'id, buble_id, created_at',
    comments: 'id, buble_id, post_id',
    events: 'id, buble_id, event_time',
    polls: 'id, buble_id, created_at',
    chat_messages: 'id, buble_id, created_at',
    stories: 'id, buble_id, expires_at',
    unread: 'id, buble_id',
  },
  // A buble's wall, newest first, without walking every other buble's posts.
  { posts: 'id, buble_id, created_at, [buble_id+created_at]' },
  // A buble's chat, newest page first, the same way.
  { chat_messages: 'id, buble_id, created_at, [buble_id+created_at]' },
  // A buble's newest comment for its home card (issue 21 §1), without reading all of its comments.
  { comments: 'id, buble_id, post_id, [buble_id+created_at]' },
  // A buble's pinned posts (issue 23 §5): IndexedDB leaves a row out of an index whose key holds a null.
  { posts: 'id, buble_id, created_at, [buble_id+created_at], [buble_id+pinned_at]' },
]

const memberKey = (bubleId: string, userId: string) => `${bubleId}:${userId}`

/** Nothing to show before the server answers (online-only writes: invite codes, joining). */
const noLocalEffect = { touches: (): RowRef[] => [], apply: async () => {} }

const removeBuble = {
  touches: (args: { id: string } | { buble_id: string }): RowRef[] => [
    { table: 'bubles', id: 'id' in args ? args.id : args.buble_id },
  ],
  // The buble leaves the device's lists at once; its content goes when the server's `del` arrives.
  apply: async (store: RowStore, args: { id: string } | { buble_id: string }) =>
    store.delete('bubles', 'id' in args ? args.id : args.buble_id),
}

/** A member's mute end set (or, with null, taken away) on the device's member row, as the server will. */
const muteChange = <N extends 'member.mute' | 'member.unmute'>(
  until: (args: MutationArgs<N>, createdAt: string) => string | null,
): Optimistic<N> => ({
  touches: (args) => [{ table: 'members', id: memberKey(args.buble_id, args.user_id) }],
  async apply(store, args, _actor, createdAt) {
    const row = await store.get('members', memberKey(args.buble_id, args.user_id))
    if (!row) return
    const { muted_until: _was, ...rest } = row
    const end = until(args, createdAt)
    await store.put('members', end ? { ...rest, muted_until: end } : rest)
  },
})

/** What each mutation does on the device before the server answers. */
export const OPTIMISTIC: OptimisticOf<typeof MUTATION_ARGS> = {
  'buble.create': {
    touches: (args, actor) => [
      { table: 'bubles', id: args.id },
      { table: 'members', id: memberKey(args.id, actor.id) },
    ],
    async apply(store, args, actor, createdAt) {
      // The server picks the slug; until then links use the id.
      const buble = newOwnedBuble({ id: args.id, slug: '', name: args.name, created_at: createdAt, owner: actor })
      await store.put('bubles', { ...buble, buble_id: args.id, _pending: true })
      await store.put('members', {
        id: memberKey(args.id, actor.id),
        buble_id: args.id,
        user_id: actor.id,
        role: 'owner',
        permissions: buble.my_permissions,
        joined_at: createdAt,
        user: { name: actor.name, email: actor.email, avatar_url: actor.avatar_url },
        _pending: true,
      })
    },
  },
  'buble.delete': removeBuble,
  'buble.leave': removeBuble,
  'invite.create': noLocalEffect,
  'invite.accept': noLocalEffect,
  // Codes are not kept on devices: the inviter's list is read online.
  'invite.revoke': noLocalEffect,
  // The profile screen shows the server's answer; members' rows follow with the next pull.
  'profile.update': noLocalEffect,
  // A tab just opened reads zero at once, on every device of the user once the pull comes.
  'unread.read': {
    touches: (args) => [{ table: 'unread', id: `${args.buble_id}:${args.contentType}` }],
    async apply(store, args) {
      const id = `${args.buble_id}:${args.contentType}`
      await store.put('unread', { id, buble_id: args.buble_id, contentType: args.contentType, unreadCount: 0 })
    },
  },
  ...WALL_OPTIMISTIC,
  ...EVENTS_OPTIMISTIC,
  ...CHAT_OPTIMISTIC,
  ...PIN_OPTIMISTIC,
  'member.mute': muteChange<'member.mute'>((args, createdAt) =>
    mutedUntilFor(args.duration, new Date(createdAt)).toISOString(),
  ),
  'member.unmute': muteChange<'member.unmute'>(() => null),
  // Reports are not synced rows (decision 101): the queue is read online, so both wait in the outbox alone.
  'report.create': noLocalEffect,
  'report.resolve': noLocalEffect,
}

/** Buble's device, as the sync engine opens it (@buble/sync/client/local-db DeviceSchema). */
export const BUBLE_DEVICE = { tables: ENTITY_TABLE, versions: ROW_TABLE_VERSIONS, optimistic: OPTIMISTIC }
