/**
 * The gallery's statement (issue 23 §5): the images of a buble's posts and chat messages and the
 * images and videos of its stories still showing, newest first, one page after a cursor. Deleted
 * content has no row left, so it is never listed; an expired story is left out by its time.
 */

import type { MediaItem } from '@buble/shared/media'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { isoJson, jsonObject, memberRefJson, rowsOf } from '../../lib/sql-json.ts'

const ITEM_JSON = jsonObject<MediaItem>({
  id: `x.source || ':' || x.source_id`,
  source: 'x.source',
  source_id: 'x.source_id',
  media_type: 'x.media_type',
  url: 'x.url',
  author: memberRefJson('u'),
  created_at: isoJson('x.at'),
})

export interface MediaPageArgs {
  bubleId: string
  before: { at: string; id: string } | undefined
  /** How many rows to read: one more than the page, to know whether another follows. */
  take: number
  now: Date
}

/** An item and the cursor after it (its stored time, to the microsecond, and its source id). */
export interface MediaRow {
  item: MediaItem
  cursor: string
}

/**
 * Each branch walks its table's `(buble_id, created_at, id)` index backwards from the cursor and
 * stops at the page's size, so a page reads about `take` rows of each table, however long the
 * history. The cursor keeps the microseconds, so the order it resumes is the stored one.
 */
export async function mediaPage(db: Executor, { bubleId, before, take, now }: MediaPageArgs): Promise<MediaRow[]> {
  const after = before ? sql`and (t.created_at, t.id) < (${before.at}::timestamptz, ${before.id}::uuid)` : sql``
  const branch = (source: string, mediaType: SQL, url: string, author: string, table: string, where: SQL) =>
    sql`(select t.id as source_id, ${source}::text as source, ${mediaType} as media_type, ${sql.raw(`t.${url}`)} as url,
        ${sql.raw(`t.${author}`)} as author_id, t.created_at as at
      from ${sql.raw(table)} t where t.buble_id = ${bubleId} and ${where} ${after}
      order by t.created_at desc, t.id desc limit ${take})`
  const rows = rowsOf<{ data: MediaItem; cursor: string }>(
    await db.execute(sql`select ${sql.raw(ITEM_JSON)} as data,
        to_char(x.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '~' || x.source_id as cursor from (
        ${branch('post', sql`'image'::text`, 'image_url', 'author_id', 'posts', sql`t.image_url is not null`)}
        union all
        ${branch('chat', sql`'image'::text`, 'image_url', 'sender_id', 'chat_messages', sql`t.image_url is not null`)}
        union all
        ${branch('story', sql`t.media_type`, 'media_url', 'author_id', 'stories', sql`t.expires_at > ${now.toISOString()}::timestamptz`)}
      ) x join users u on u.id = x.author_id
      order by x.at desc, x.source_id desc
      limit ${take}`),
  )
  return rows.map((row) => ({ item: row.data, cursor: row.cursor }))
}
