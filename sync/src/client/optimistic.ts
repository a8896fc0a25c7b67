/**
 * What each mutation does to the device's rows before the server has seen it. Each change is
 * written against a RowStore so the same code runs when the mutation is made and when it is
 * re-applied over rows a pull brought (rebase). Changes set values rather than adjust them, so
 * running one twice is the same as once. A change that depends on the rows it finds (a toggle)
 * settles what it comes to once, when it is made, and every run sets that (`settle`).
 */

import { newOwnedBuble } from '@buble/shared/bubles'
import type { MutationArgs, MutationName } from '@buble/shared/mutations'
import type { Actor, LocalRow, RowTable } from './local-db.ts'
import { CHAT_OPTIMISTIC } from './optimistic-chat.ts'
import { EVENTS_OPTIMISTIC } from './optimistic-events.ts'
import { WALL_OPTIMISTIC } from './optimistic-wall.ts'

export interface RowStore {
  get(table: RowTable, id: string): Promise<LocalRow | undefined>
  put(table: RowTable, row: LocalRow): Promise<void>
  delete(table: RowTable, id: string): Promise<void>
}

export interface RowRef {
  table: RowTable
  id: string
}

export interface Optimistic<N extends MutationName> {
  /** Every row the change may write or delete. */
  touches(args: MutationArgs<N>, actor: Actor): RowRef[]
  /**
   * What a change that depends on the device's rows comes to (a toggle: on or off), worked out
   * once when the mutation is made and kept on its outbox entry; never sent to the server.
   */
  settle?(store: RowStore, args: MutationArgs<N>, actor: Actor): Promise<unknown>
  /** `settled` is what `settle` answered when the mutation was made. */
  apply(store: RowStore, args: MutationArgs<N>, actor: Actor, createdAt: string, settled?: unknown): Promise<void>
}

type OptimisticMap = { [N in MutationName]: Optimistic<N> }

const memberKey = (bubleId: string, userId: string) => `${bubleId}:${userId}`

/** Nothing to show before the server answers (online-only writes: invite codes, joining). */
const noLocalEffect = { touches: () => [], apply: async () => {} }

const removeBuble = {
  touches: (args: { id: string } | { buble_id: string }) => [
    { table: 'bubles' as const, id: 'id' in args ? args.id : args.buble_id },
  ],
  // The buble leaves the device's lists at once; its content goes when the server's `del` arrives.
  apply: async (store: RowStore, args: { id: string } | { buble_id: string }) =>
    store.delete('bubles', 'id' in args ? args.id : args.buble_id),
}

export const OPTIMISTIC: OptimisticMap = {
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
}
