/**
 * Chat messages in their answer shape (CONTRACT §3.3), built by PostgreSQL: a page with senders,
 * the messages replied to and every reaction is one statement, never a query per message.
 */

import type { ChatMessage } from '@buble/shared/chat'
import { type SQL, sql } from 'drizzle-orm'
import type { Executor } from '../../db/client.ts'
import { isoJson, jsonObject, memberRefJson, reactionsJson, rowsOf } from '../../lib/sql-json.ts'
import { pgUuidArray } from '../../lib/sync-writes.ts'

/**
 * The JSON of message `c` sent by `u`, with `r` the message it replies to (left joined: null once
 * deleted, or from another buble, which a send refuses anyway) sent by `ru`.
 */
const MESSAGE_JSON = jsonObject<ChatMessage>({
  id: 'c.id',
  buble_id: 'c.buble_id',
  content: 'c.content',
  type: 'c.type',
  image_url: 'c.image_url',
  sender: memberRefJson('u'),
  created_at: isoJson('c.created_at'),
  is_edited: 'c.is_edited',
  reply_to_id: 'c.reply_to_id',
  replyTo: `case when r.id is null then null
    else ${jsonObject<NonNullable<ChatMessage['replyTo']>>({ id: 'r.id', content: 'r.content', sender: memberRefJson('ru') })} end`,
  ...reactionsJson('chat_reactions', 'message_id', 'c.id'),
})

/** A message `c`'s sender and the message it replies to, for MESSAGE_JSON. */
const MESSAGE_JOINS = `join users u on u.id = c.sender_id
  left join chat_messages r on r.id = c.reply_to_id and r.buble_id = c.buble_id
  left join users ru on ru.id = r.sender_id`

/** The newest uuid: "before everything" when a page has no `before`. */
const LAST_UUID = 'ffffffff-ffff-ffff-ffff-ffffffffffff'

/**
 * The page of buble `bubleId` just older than message `before` (or the newest), at most `take`,
 * as the answer's JSON text `{messages, hasMore}`: an index range read over
 * `(buble_id, created_at, id)` backwards, one row more than the page to learn `hasMore`.
 * All arguments are SQL expressions; `before` may be null.
 */
export const chatPageJson = (bubleId: SQL, before: SQL, take: SQL) => sql`(select json_build_object(
    'messages', coalesce(json_agg(x.data order by x.created_at, x.id) filter (where x.n <= ${take}), '[]'::json),
    'hasMore', count(*) > ${take})::text
  from (select c.created_at, c.id, row_number() over (order by c.created_at desc, c.id desc) as n,
      ${sql.raw(MESSAGE_JSON)} as data
    from (select p.* from chat_messages p
      where p.buble_id = ${bubleId}
        and (p.created_at, p.id) < (
          coalesce((select b.created_at from chat_messages b where b.id = ${before}), 'infinity'::timestamptz),
          coalesce(${before}, ${sql.raw(`'${LAST_UUID}'::uuid`)}))
      order by p.created_at desc, p.id desc limit ${take} + 1) c
    ${sql.raw(MESSAGE_JOINS)}) x)`

/**
 * The JSON of the rows `written` (a data-modifying WITH returning whole chat_messages rows) as
 * REST answers them: new rows have no reactions, and their replies point at messages already there.
 */
export const writtenMessagesJson = (written: string) =>
  sql.raw(`select c.id, ${MESSAGE_JSON} as data from ${written} c ${MESSAGE_JOINS}`)

/** Messages by id, as REST answers them (the sync loader too). */
export async function loadMessages(db: Executor, ids: readonly string[]): Promise<Map<string, ChatMessage>> {
  if (ids.length === 0) return new Map()
  const rows = rowsOf<{ data: ChatMessage }>(
    await db.execute(
      sql`select ${sql.raw(MESSAGE_JSON)} as data from chat_messages c ${sql.raw(MESSAGE_JOINS)} where c.id = any(${pgUuidArray(ids)})`,
    ),
  )
  return new Map(rows.map(({ data }) => [data.id, data]))
}

export async function loadMessage(db: Executor, id: string): Promise<ChatMessage> {
  const message = (await loadMessages(db, [id])).get(id)
  if (!message) throw new Error(`chat message ${id} vanished`)
  return message
}
