/** Search in a buble (issue 23 §2, decision 95): members only, a page of hits newest first. */

import { hasMentions } from '@buble/shared/mentions'
import {
  type SearchHit,
  type SearchPage,
  type SearchQuery,
  searchCursorOf,
  snippetFromMarked,
} from '@buble/shared/search'
import type { Executor } from '../../db/client.ts'
import type { Deps } from '../../deps.ts'
import { requireMembership } from '../../lib/memberships.ts'
import { readableTexts } from '../../lib/mentions.ts'
import { headlines, MARK_CLOSE, MARK_OPEN, type SearchRow, searchBuble } from './queries.ts'

const hitOf = (bubleId: string, row: SearchRow): SearchHit => ({
  kind: row.kind,
  id: row.id,
  buble_id: bubleId,
  post_id: row.post_id,
  snippet: snippetFromMarked(row.marked, MARK_OPEN, MARK_CLOSE),
  author: { id: row.author_id, name: row.author_name, avatar_url: row.author_avatar },
  created_at: row.created_at,
})

/**
 * The page's rows whose text mentions someone, with their snippet made again from the text as people
 * read it (decision 94): `@Name`, never the stored `<@id>` or a piece of it.
 */
async function withMentionsByName(db: Executor, bubleId: string, q: string, rows: SearchRow[]): Promise<SearchRow[]> {
  const mentioning = rows.filter((row) => row.doc !== null && hasMentions(row.doc))
  if (mentioning.length === 0) return rows
  const texts = await readableTexts(
    db,
    bubleId,
    mentioning.map((row) => row.doc!),
  )
  const marked = await headlines(db, texts, q)
  const snippets = new Map(mentioning.map((row, n) => [row.id, marked[n]!]))
  return rows.map((row) => ({ ...row, marked: snippets.get(row.id) ?? row.marked }))
}

export function searchService({ db }: Pick<Deps, 'db'>) {
  return {
    /** The hits for `query.q` in `bubleId`; 404 for a non-member, who must not learn the buble exists. */
    async search(userId: string, bubleId: string, query: SearchQuery): Promise<SearchPage> {
      await requireMembership(db, bubleId, userId)
      // One more than the page tells whether another follows.
      const rows = await searchBuble(db, bubleId, query.q, query.before, query.limit + 1)
      const hasMore = rows.length > query.limit
      const shown = await withMentionsByName(db, bubleId, query.q, rows.slice(0, query.limit))
      const last = shown[shown.length - 1]
      return {
        results: shown.map((row) => hitOf(bubleId, row)),
        hasMore,
        before: hasMore && last ? searchCursorOf({ created_at: last.cursor_at, id: last.id }) : null,
      }
    },
  }
}
export type SearchService = ReturnType<typeof searchService>
