/**
 * The member list of a buble as JSON, kept per process: every visit to the members tab and the
 * management screens reads it, while it changes rarely. Any poke this process hears for the buble
 * (a join, a removal, a role, a renamed member) forgets it (lib/poke-cache.ts). Its member ids also
 * answer the membership check, so a hit costs no query; someone not in it is sent to the database.
 */

import { createHash } from 'node:crypto'
import type { Member } from '@buble/shared/bubles'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'

const MAX_BUBLES = 2_000

export interface MemberList {
  /** The JSON, encoded once: a list of 500 is tens of kilobytes, re-encoded on every answer otherwise. */
  body: Uint8Array<ArrayBuffer>
  etag: string
}

const encoder = new TextEncoder()

interface Entry extends MemberList {
  memberIds: ReadonlySet<string>
}

export type MemberListCache = ReturnType<typeof createMemberListCache>

export function createMemberListCache(clock: PokeClock) {
  const lists = createPokeCache<Entry>(clock, { maxEntries: MAX_BUBLES })
  return {
    /** The list for a member of the buble, when one is remembered and nothing changed since. */
    get(bubleId: string, viewerId: string): MemberList | null {
      const entry = lists.get(bubleId)
      return entry?.memberIds.has(viewerId) ? entry : null
    },
    /** Keeps the list read from the database after `since` (the clock's mark), and answers it. */
    set(bubleId: string, members: readonly Member[], since: number): MemberList {
      const json = JSON.stringify(members)
      const list = { body: encoder.encode(json), etag: `"${createHash('sha1').update(json).digest('base64url')}"` }
      lists.set(bubleId, { ...list, memberIds: new Set(members.map((member) => member.user_id)) }, since, bubleId)
      return list
    },
    close: () => lists.close(),
  }
}
