/** Unread counters in sync: the caller's own read marks, and a loader computing counters per caller. */

import type { UNREAD_MUTATIONS } from '@buble/shared/mutations'
import type { ContentType } from '@buble/shared/unread'
import { sql } from 'drizzle-orm'
import type { MutationHandlersOf, SyncSource } from '../../lib/sync-sources.ts'
import type { UnreadService } from './service.ts'

export function unreadSyncSource(unread: UnreadService): SyncSource {
  return {
    entity: 'unread',
    userScan: (userId, lower) =>
      sql`select 'put'::text as op, 'unread'::text as entity, m.buble_id::text || ':' || m.content_type as id,
        m.buble_id, m.version from unread_marks m
        where m.user_id = ${userId} and m.version > ${lower}`,
    userHead: (userId) => sql`(select max(version) from unread_marks where user_id = ${userId})`,
    async load(db, ids, userId) {
      const wanted = ids.map((id) => ({ bubleId: id.slice(0, 36), contentType: id.slice(37) as ContentType }))
      return unread.countersOf(db, userId, wanted)
    },
  }
}

export const unreadMutations = (unread: UnreadService): MutationHandlersOf<typeof UNREAD_MUTATIONS> => ({
  'unread.read': async (user, args) => {
    await unread.markRead(user, args.buble_id, args.contentType)
    return null
  },
})
