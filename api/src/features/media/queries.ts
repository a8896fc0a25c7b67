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

/**
 * Times are compared to the millisecond, as the cursor carries them. Each branch stops at the
 * cursor and the page's size by itself, so a page reads at most `take` rows of each table.
 */
export async function mediaPage(db: Executor, { bubleId, before, take, now }: MediaPageArgs): Promise<MediaItem[]> {
  const at = sql`date_trunc('milliseconds', t.created_at)`
  const after = before ? sql`and (${at}, t.id) < (${before.at}::timestamptz, ${before.id}::uuid)` : sql``
  const branch = (source: string, mediaType: SQL, url: string, author: string, table: string, where: SQL) =>
    sql`(select t.id as source_id, ${source}::text as source, ${mediaType} as media_type, ${sql.raw(`t.${url}`)} as url,
        ${sql.raw(`t.${author}`)} as author_id, ${at} as at
      from ${sql.raw(table)} t where t.buble_id = ${bubleId} and ${where} ${after}
      order by ${at} desc, t.id desc limit ${take})`
  const rows = rowsOf<{ data: MediaItem }>(
    await db.execute(sql`select ${sql.raw(ITEM_JSON)} as data from (
        ${branch('post', sql`'image'::text`, 'image_url', 'author_id', 'posts', sql`t.image_url is not null`)}
        union all
        ${branch('chat', sql`'image'::text`, 'image_url', 'sender_id', 'chat_messages', sql`t.image_url is not null`)}
        union all
        ${branch('story', sql`t.media_type`, 'media_url', 'author_id', 'stories', sql`t.expires_at > ${now.toISOString()}::timestamptz`)}
      ) x join users u on u.id = x.author_id
      order by x.at desc, x.source_id desc
      limit ${take}`),
  )
  return rows.map((row) => row.data)
}
