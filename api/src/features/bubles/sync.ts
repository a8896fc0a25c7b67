/** The bubles feature in sync: its synced tables (bubles, members) and the mutations it handles. */

import type { BUBLE_MUTATIONS, MUTE_MUTATIONS } from '@buble/shared/mutations'
import type { MutesService } from '../../lib/mutes.ts'
import type { MutationBatchers, MutationHandlersOf, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import type { InvitesService } from './invites.ts'
import { loadBubles, loadMembersByKey } from './queries.ts'
import type { BublesService } from './service.ts'

/** New members count on the members tab's unread counter. */
export const bubleUnreadSources: UnreadSource[] = [
  {
    contentType: 'members',
    entity: 'member',
    table: 'memberships',
    bubleColumn: 'buble_id',
    addedColumn: 'joined_version',
    authorColumn: 'user_id',
  },
]

export const bubleSyncSources: SyncSource[] = [
  {
    entity: 'buble',
    scan: scanTable('buble', 'bubles', 'id'),
    load: async (db, ids, userId) => new Map((await loadBubles(db, ids, userId)).map((buble) => [buble.id, buble])),
  },
  {
    entity: 'member',
    // A member's change id is `<buble_id>:<user_id>`, so a device can name the row it makes offline.
    scan: scanTable('member', 'memberships', 'buble_id', "x.buble_id::text || ':' || x.user_id::text"),
    load: (db, keys) => loadMembersByKey(db, keys),
  },
]

export function bubleMutations({
  bubles,
  invites,
}: {
  bubles: BublesService
  invites: InvitesService
}): MutationHandlersOf<typeof BUBLE_MUTATIONS> {
  return {
    'buble.create': async (user, args) => (await bubles.create(user, args)).buble,
    'buble.delete': async (user, args) => {
      await bubles.remove(user, args.id)
      return null
    },
    'buble.leave': async (user, args) => {
      await bubles.leave(user, args.buble_id)
      return null
    },
    'invite.create': (user, { buble_id, ...body }) => invites.createInvite(user, buble_id, body),
    'invite.accept': (user, args) => invites.acceptInvite(user, args.code),
    'invite.revoke': async (user, args) => {
      await invites.revokeInvite(user, args.buble_id, args.code)
      return null
    },
  }
}

/** Muting a member (issue 24 §2): the service REST and the reports queue use too. */
export const muteMutations = (mutes: MutesService): MutationHandlersOf<typeof MUTE_MUTATIONS> => ({
  'member.mute': (user, args) => mutes.muteMember(user, args),
  'member.unmute': (user, args) => mutes.unmuteMember(user, args),
})

/** Bubles made offline go several at once: the same service, one statement (an id given, as a device always gives one). */
export const bubleBatchers = (bubles: BublesService): MutationBatchers => ({
  'buble.create': {
    takes: (args) => args.id !== undefined,
    apply: (user, args) =>
      bubles.createAtOnce(
        user,
        args.map(({ id, name }) => ({ id: id!, name })),
      ),
  },
})
