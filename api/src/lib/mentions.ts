/**
 * Mentions on the server (issue 23 §1, decision 94): which members a new or edited text mentions
 * for the first time, written inside the content's own sync write. Only members of the buble count,
 * never the author; a member already mentioned in the same content is not mentioned again. The
 * rows give the tab its `@` mark (the unread feature reads them) and the ids get the push.
 */

import { hasMentions, memberNames, mentionedIds, renderMentions } from '@buble/shared/mentions'
import type { ContentType } from '@buble/shared/unread'
import { sql } from 'drizzle-orm'
import type { Executor } from '../db/client.ts'
import type { UserRow } from './accounts.ts'
import type { ContentAddedBus } from './content-added.ts'
import { rowsOf } from './sql-json.ts'
import { NEXT_VERSION, pgUuidArray, type SyncWriter } from './sync-writes.ts'

export interface MentioningContent {
  bubleId: string
  /** The tab whose `@` mark it sets (comments are the wall's). */
  contentType: ContentType
  contentId: string
  text: string
  at: Date
}

/** Writes the mentions `content.text` newly makes, answering the members newly mentioned. */
export async function recordMentions(w: SyncWriter, author: UserRow, content: MentioningContent): Promise<string[]> {
  const ids = mentionedIds(content.text).filter((id) => id !== author.id)
  if (ids.length === 0) return []
  const { rows } =
    (await w.tx.execute(sql`insert into mentions (user_id, content_id, buble_id, content_type, created_at, version)
      select m.user_id, ${content.contentId}, m.buble_id, ${content.contentType}, ${content.at.toISOString()}::timestamptz, ${NEXT_VERSION}
      from memberships m
      where m.buble_id = ${content.bubleId} and m.user_id = any(${pgUuidArray(ids)})
      on conflict do nothing
      returning user_id`)) as unknown as { rows: { user_id: string }[] }
  return rows.map((row) => row.user_id)
}

/** Records the mentions and, once committed, tells the push of them; answers who was newly mentioned. */
export async function mention(
  w: SyncWriter,
  bus: ContentAddedBus,
  author: UserRow,
  content: MentioningContent,
): Promise<string[]> {
  const userIds = await recordMentions(w, author, content)
  bus.announceMentions(w, {
    bubleId: content.bubleId,
    contentType: content.contentType,
    actorId: author.id,
    actorName: author.name,
    userIds,
    body: content.text,
  })
  return userIds
}

/**
 * Texts of one buble as people read them: each member's token as `@Name` (their name now), anyone
 * else's as `@someone`. One read of the mentioned members' names, only when a text has a token.
 */
export async function readableTexts(db: Executor, bubleId: string, texts: readonly string[]): Promise<string[]> {
  if (!texts.some(hasMentions)) return [...texts]
  const ids = [...new Set(texts.flatMap(mentionedIds))]
  const rows = rowsOf<{ id: string; name: string }>(
    await db.execute(
      sql`select u.id, u.name from memberships m join users u on u.id = m.user_id
        where m.buble_id = ${bubleId} and m.user_id = any(${pgUuidArray(ids)})`,
    ),
  )
  const nameOf = memberNames(rows)
  return texts.map((text) => renderMentions(text, nameOf))
}
