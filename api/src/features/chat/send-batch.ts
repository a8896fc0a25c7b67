/**
 * Group commit for chat sends: messages sent while the previous group is being written go to the
 * database together, in one sync write that is one statement (`syncStatement`: the checks, the
 * client ids claimed, the insert, each buble's stamp and poke, and the answers, in one round trip
 * and one commit with its one `fdatasync`), instead of one transaction of eight round trips each. A
 * busy buble's chat is the app's hottest write; one at a time, a commit's disk flush (under the
 * version lock there was then) capped every process at a few hundred messages a second.
 *
 * Only the plain case is grouped: a text message (a reply too) sent outside an open write. The
 * group's statement claims the client ids and keeps only the senders that are members (and replies
 * to a message of the same buble); anything it does not write (an outsider, an id already claimed,
 * a reply elsewhere) is answered by the one-message path, which gives the exact 404/409/400 or the
 * message already sent with that id. A group that fails as a whole rolls back and each of its
 * messages goes the one-message path, so one bad message never fails the others.
 */

import type { ChatMessage, SendMessageBody } from '@buble/shared/chat'
import DataLoader from 'dataloader'
import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import type { Logger } from '../../lib/log.ts'
import { notMutedSql } from '../../lib/memberships.ts'
import { firstOfEach } from '../../lib/sync-sources.ts'
import { notifyPayloads, SYNC_CHANNEL, syncStatement } from '../../lib/sync-writes.ts'
import { writtenMessagesJson } from './queries.ts'

/** One message waiting for its group. */
export interface QueuedSend {
  user: UserRow
  bubleId: string
  id: string
  body: SendMessageBody
  /** When it was received: its `created_at`, whatever group it lands in. */
  at: Date
}

/** The message as written by its group, or 'single': the one-message path answers it. */
export type GroupOutcome = ChatMessage | 'single'

/** Most messages one statement writes; a bigger gathering is written as several groups at once. */
const MAX_GROUP = 200

export interface SendGroupHooks {
  contentAdded: ContentAddedBus
  /** The notification line of a message. */
  notificationText(body: SendMessageBody): string
}

/** A message for `messagesWritten`: its id, buble, sender and when it was received, with what was sent. */
export interface MessageToWrite extends SendMessageBody {
  id: string
  buble_id: string
  sender_id: string
  at: Date
}

/** The JSON `messagesWritten` reads: the messages in order, with distinct ids. */
export const messagesInput = (messages: readonly MessageToWrite[]): string =>
  JSON.stringify(
    messages.map((message, n) => ({
      n,
      id: message.id,
      buble_id: message.buble_id,
      sender_id: message.sender_id,
      content: message.content,
      type: message.type,
      reply_to_id: message.reply_to_id ?? null,
      created_at: message.at.toISOString(),
    })),
  )

/**
 * Text messages (`messagesInput`) in one statement's WITH list, ending in `written` (the rows
 * inserted, whole): only a sender who is a member, a reply to a message of the same buble, an id
 * not claimed before; the ids claimed and the versions taken in the messages' order. What it leaves
 * out, the one-message path answers.
 */
export const messagesWritten = (input: string) => sql`input as materialized (
      select x.* from jsonb_to_recordset(${input}::jsonb) as x(
        n int, id uuid, buble_id uuid, sender_id uuid, content text, type text, reply_to_id uuid, created_at timestamptz)
    ),
    allowed as (
      select i.* from input i
      where exists (select 1 from memberships m where m.buble_id = i.buble_id and m.user_id = i.sender_id
          and ${notMutedSql('m', sql`i.created_at`)})
        and (i.reply_to_id is null
          or exists (select 1 from chat_messages r where r.id = i.reply_to_id and r.buble_id = i.buble_id))
    ),
    claimed as (
      insert into entity_ids (id, kind, user_id)
      select id, 'chat_message', sender_id from allowed
      on conflict do nothing
      returning id
    ),
    versioned as (
      select a.*, buble_next_version() as version
      from (select a.* from allowed a join claimed c on c.id = a.id order by a.n) a
    ),
    written as (
      insert into chat_messages (id, buble_id, sender_id, content, type, reply_to_id, created_at, added_version, version)
      select id, buble_id, sender_id, content, type, reply_to_id, created_at, version, version from versioned
      returning *
    )`

export function createSendGroups(db: Db, log: Logger, hooks: SendGroupHooks) {
  /** The group being written, if any: the next one is dispatched when it is done. */
  let writing: Promise<unknown> | undefined

  /** The group's statement: `messagesWritten`, then each touched buble stamped with its newest version and poked, and the answers. */
  const groupStatement = (input: string, pokes: string) => sql`with ${messagesWritten(input)},
    stamped as (
      update bubles b set changed_version = greatest(b.changed_version, w.version)
      from (select buble_id, max(version) as version from written group by buble_id) w
      where b.id = w.buble_id
      returning pg_notify(${SYNC_CHANNEL}, ${pokes}::jsonb ->> b.id::text)
    )
    ${writtenMessagesJson('written')}`

  async function writeGroup(queued: readonly QueuedSend[]): Promise<GroupOutcome[]> {
    // The same id twice in one group: the first is written here, the others find it by the one-message path.
    const candidates = firstOfEach(queued)
    const input = messagesInput(
      candidates.map((send) => ({
        ...send.body,
        id: send.id,
        buble_id: send.bubleId,
        sender_id: send.user.id,
        at: send.at,
      })),
    )
    const pokes = [...new Set(candidates.map((send) => send.bubleId))].map((bubleId) => ({
      buble_id: bubleId,
      entity: 'chat_message' as const,
    }))
    const payloads = Object.fromEntries(pokes.map((poke) => [poke.buble_id, notifyPayloads([poke])[0]]))
    let rows: { id: string; data: ChatMessage }[]
    try {
      rows = await syncStatement(db, 'chat_send_group', groupStatement(input, JSON.stringify(payloads)), pokes)
    } catch (err) {
      log.warn('a group of chat messages failed; each is sent alone', { err, messages: queued.length })
      return queued.map(() => 'single')
    }
    const written = new Map(rows.map((row) => [row.id, row.data]))
    for (const send of candidates)
      if (written.has(send.id))
        hooks.contentAdded.committed({
          bubleId: send.bubleId,
          contentType: 'chat',
          actorId: send.user.id,
          title: send.user.name,
          body: hooks.notificationText(send.body),
        })
    // A duplicate id in the group, and anything the statement did not write, go the one-message path.
    const first = new Set(candidates)
    return queued.map((send) => (first.has(send) && written.get(send.id)) || 'single')
  }

  const groups = new DataLoader<QueuedSend, GroupOutcome>(
    (queued) => {
      const group = writeGroup(queued)
      writing = group
      void group.finally(() => {
        if (writing === group) writing = undefined
      })
      return group
    },
    {
      cache: false,
      maxBatchSize: MAX_GROUP,
      // Group commit: while a group is being written the next one gathers, and goes when it is done.
      batchScheduleFn: (dispatch) => {
        if (writing) void writing.finally(dispatch)
        else setImmediate(dispatch)
      },
    },
  )

  return {
    /** Writes the message with the next group: 'single' when the one-message path must answer it. */
    send: (queued: QueuedSend): Promise<GroupOutcome> => groups.load(queued),
  }
}
