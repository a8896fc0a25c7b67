/** The buble's gallery (issue 23 §5): read only, for members; the files stay behind the secure upload URLs. */

import type { MediaPage, MediaQuery } from '@buble/shared/media'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { requireMembership } from '../../lib/memberships.ts'
import { mediaPage } from './queries.ts'

export type MediaService = ReturnType<typeof mediaService>

export function mediaService({ db, now }: Deps) {
  return {
    /** A page of the gallery, newest first; 404 for a non-member. */
    async page(user: UserRow, bubleId: string, { before, limit }: MediaQuery): Promise<MediaPage> {
      await requireMembership(db, bubleId, user.id)
      const rows = await mediaPage(db, { bubleId, before, take: limit + 1, now: now() })
      const page = rows.slice(0, limit)
      const last = page.at(-1)
      return { items: page.map((row) => row.item), next: rows.length > limit && last ? last.cursor : null }
    },
  }
}
