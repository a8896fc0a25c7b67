/**
 * Chat (CONTRACT §3.3, spec part 2 §2–§5): messages, replies, images and reactions. Every write is
 * one sync write, called alike by the REST routes and the push handler's mutations. A message's
 * data carries its reactions and the message it replies to, so a reaction moves its version, and
 * editing or deleting a message moves the versions of the replies quoting it.
 */

import { CHAT_MESSAGES, type ChatMessage, type SendMessageBody } from '@buble/shared/chat'
import { hasMentions } from '@buble/shared/mentions'
import type { ReactionType } from '@buble/shared/wall'
import { and, eq, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Db, Executor } from '../../db/client.ts'
import { chatMessages, chatReactions } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { contentKit } from '../../lib/content-kit.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { notFound, validationError } from '../../lib/errors.ts'
import { answerBytes, type JsonAnswer, jsonAnswer } from '../../lib/json-answers.ts'
import { bubleNotFound, requireMembership, requireWriter } from '../../lib/memberships.ts'
import { mention } from '../../lib/mentions.ts'
import { createPokeCache } from '../../lib/poke-cache.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { batchAnswers, firstOfEach, ONE_BY_ONE } from '../../lib/sync-sources.ts'
import { NEXT_VERSION, openWrite, readerAfterWrite, type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
import type { UploadedFiles } from '../../lib/uploaded-files.ts'
import { chatPageJson, loadMessage, writtenMessagesJson } from './queries.ts'
import { createSendGroups, type MessageToWrite, messagesInput, messagesWritten } from './send-batch.ts'

type MessageRow = typeof chatMessages.$inferSelect

export const messageNotFound = () => notFound(CHAT_MESSAGES.messageNotFound)

/**
 * A message that can be written with others in one statement: a text (a reply too), no image to
 * check, no mention to write.
 */
export const isPlainMessage = (body: SendMessageBody): boolean => !body.image_url && !hasMentions(body.content)

/** What chat asks of the rest of the app: the uploads' file rules, and who hears of new messages. */
export interface ChatHooks extends Pick<UploadedFiles, 'isBubleImage' | 'forgetFiles'> {
  contentAdded: ContentAddedBus
}

/** A notification's text: a message's first line, cut to this many characters. */
const NOTIFICATION_CHARS = 120

export const notificationText = (message: { content: string; type: string }): string => {
  const text = message.content.split('\n')[0]?.trim() ?? ''
  if (text.length === 0) return message.type === 'image' ? 'sent a photo' : ''
  if (text.length <= NOTIFICATION_CHARS) return text
  // A mention cut in half would show as a piece of its id: it goes whole.
  return `${text.slice(0, NOTIFICATION_CHARS - 1).replace(/<@[0-9a-fA-F-]*$/, '')}…`
}

const MiB = 1024 * 1024

const kit = contentKit({
  table: chatMessages,
  kind: 'chat_message',
  notFound: messageNotFound,
  authorOf: (message) => message.senderId,
  refusals: { 'content.edit': CHAT_MESSAGES.onlySenderEdits, 'content.delete': CHAT_MESSAGES.notAllowedToDelete },
})

/** The replies quoting `message` show its new content (or no longer show it): their versions move. */
async function touchReplies(w: SyncWriter, message: MessageRow): Promise<void> {
  await w.tx
    .update(chatMessages)
    .set({ version: NEXT_VERSION })
    .where(and(eq(chatMessages.bubleId, message.bubleId), eq(chatMessages.replyToId, message.id)))
}

/** Pages as answered, per caller (the statement is also the membership check), until their buble is poked. */
function chatPages(db: Db, pokes: PokeClock) {
  const pages = createPokeCache<JsonAnswer>(pokes, { maxEntries: 20_000, maxBytes: 64 * MiB, sizeOf: answerBytes })
  const bubleId$ = sql`${sql.placeholder('bubleId')}::uuid`
  const before$ = sql`${sql.placeholder('before')}::uuid`
  const statement = db
    .select({
      found: sql<boolean>`${before$} is null
        or exists (select 1 from chat_messages b where b.id = ${before$} and b.buble_id = m.buble_id)`,
      json: sql<string>`${chatPageJson(sql`m.buble_id`, before$, sql`${sql.placeholder('take')}::int`)}`,
    })
    .from(sql`memberships m`)
    .where(sql`m.buble_id = ${bubleId$} and m.user_id = ${sql.placeholder('userId')}::uuid`)
    .prepare('chat_page')

  return {
    /** `{messages, hasMore}`; 404 for a non-member, and for a `before` that is no message of this buble. */
    get(userId: string, bubleId: string, before: string | undefined, limit: number): Promise<JsonAnswer> {
      const key = `${userId}:${bubleId}:${before ?? ''}:${limit}`
      return pages.getOrLoad(key, bubleId, userId, async () => {
        const [row] = await statement.execute({ bubleId, userId, before: before ?? null, take: limit })
        if (!row) throw bubleNotFound()
        if (!row.found) throw messageNotFound()
        return jsonAnswer(row.json)
      })
    },
    close: () => pages.close(),
  }
}

export type ChatService = ReturnType<typeof chatService>

export function chatService({ db, database, log, now }: Deps, hooks: ChatHooks, pokes: PokeClock) {
  const pages = chatPages(db, pokes)

  /** Refuses a reply to a message of another buble (or none) and an image the sender did not upload into this buble. */
  async function checkSend(tx: Executor, bubleId: string, senderId: string, body: SendMessageBody): Promise<void> {
    if (body.reply_to_id) {
      const [original] = await tx
        .select({ id: chatMessages.id })
        .from(chatMessages)
        .where(and(eq(chatMessages.id, body.reply_to_id), eq(chatMessages.bubleId, bubleId)))
        .limit(1)
      if (!original) throw validationError([{ path: ['reply_to_id'], message: CHAT_MESSAGES.replyNotInBuble }])
    }
    if (body.image_url && !(await hooks.isBubleImage(tx, body.image_url, bubleId, senderId)))
      throw validationError([{ path: ['image_url'], message: CHAT_MESSAGES.badImage }])
  }

  const groups = createSendGroups(database.groupDb, log, { contentAdded: hooks.contentAdded, notificationText })

  /** What a message announces once committed, to the members' devices and notifications. */
  function announceMessage(
    w: SyncWriter,
    user: UserRow,
    bubleId: string,
    body: SendMessageBody,
    mentioned: readonly string[] = [],
  ) {
    w.changed(bubleId, 'chat_message')
    hooks.contentAdded.announce(w, {
      bubleId,
      contentType: 'chat',
      actorId: user.id,
      title: user.name,
      body: notificationText(body),
      mentioned,
    })
  }

  /**
   * Plain messages (`isPlainMessage`) of one sender in one statement inside the open write `w`
   * (`messagesWritten`, as a REST group). A message it does not write (an outsider, an id already
   * claimed, a reply elsewhere, the same id twice) is answered `ONE_BY_ONE`: `sendOne` gives it the
   * exact answer. The bubles are entered first, in id order, as every write in a buble does.
   */
  async function sendAtOnce(
    w: SyncWriter,
    user: UserRow,
    items: readonly (SendMessageBody & { id: string; buble_id: string })[],
    at: Date,
  ): Promise<(ChatMessage | typeof ONE_BY_ONE)[]> {
    const firsts = firstOfEach(items)
    for (const bubleId of [...new Set(firsts.map((item) => item.buble_id))].sort()) await w.enter(bubleId)
    const input = messagesInput(firsts.map((item): MessageToWrite => ({ ...item, sender_id: user.id, at })))
    const { rows } = (await w.tx.execute(
      sql`with ${messagesWritten(input)} ${writtenMessagesJson('written')}`,
    )) as unknown as { rows: { id: string; data: ChatMessage }[] }
    const written = new Map(rows.map((row) => [row.id, row.data]))
    for (const item of firsts) if (written.has(item.id)) announceMessage(w, user, item.buble_id, item)
    return batchAnswers(items, written)
  }

  /**
   * One message in its own sync write (or the push's open one). The answer is read after the commit.
   */
  async function sendOne(
    user: UserRow,
    bubleId: string,
    body: SendMessageBody & { id: string },
    at: Date = now(),
  ): Promise<Created<ChatMessage>> {
    const { id } = body
    const sent = await syncWrite(db, async (w) => {
      requireWriter(await requireMembership(w.tx, bubleId, user.id), at)
      // The message sent with this id, only while it is in this buble (of which the caller is a member).
      if ((await kit.claim(w.tx, id, user.id, eq(chatMessages.bubleId, bubleId))) === 'existing')
        return { id, created: false }
      await checkSend(w.tx, bubleId, user.id, body)
      const version = await w.takeVersion()
      await w.tx.insert(chatMessages).values({
        id,
        bubleId,
        senderId: user.id,
        content: body.content,
        type: body.type,
        imageUrl: body.image_url ?? null,
        replyToId: body.reply_to_id ?? null,
        createdAt: at,
        addedVersion: version,
        version,
      })
      const mentioned = await mention(w, hooks.contentAdded, user, {
        bubleId,
        contentType: 'chat',
        contentId: id,
        text: body.content,
        at,
      })
      announceMessage(w, user, bubleId, body, mentioned)
      return { id, created: true }
    })
    return { value: await loadMessage(readerAfterWrite(db), sent.id), created: sent.created }
  }

  return {
    /** A page of a buble's chat, oldest first within the page, as the kept answer. */
    page: (user: UserRow, bubleId: string, query: { before?: string | undefined; limit: number }) =>
      pages.get(user.id, bubleId, query.before, query.limit),

    /**
     * Any member sends; the same client id again answers the message sent with it. A text message
     * sent outside an open write goes with the next group (send-batch.ts), one inside a push's
     * write in one statement (`sendAtOnce`); the rest, and whatever those leave, one at a time.
     */
    async send(user: UserRow, bubleId: string, body: SendMessageBody): Promise<Created<ChatMessage>> {
      const id = body.id ?? uuidv7()
      // When it arrived: its created_at, also when a failed group leaves it to the one-message path.
      const at = now()
      if (isPlainMessage(body)) {
        const open = openWrite()
        const outcome = open
          ? (await sendAtOnce(open, user, [{ ...body, id, buble_id: bubleId }], at))[0]
          : await groups.send({ user, bubleId, id, body, at })
        if (outcome && outcome !== 'single' && outcome !== ONE_BY_ONE) return { value: outcome, created: true }
      }
      return sendOne(user, bubleId, { ...body, id }, at)
    },

    /** Plain messages several at once, inside the push's open write (the batcher of `chat.send`). */
    sendAtOnce: (user: UserRow, items: readonly (SendMessageBody & { id: string; buble_id: string })[]) =>
      syncWrite(db, (w) => sendAtOnce(w, user, items, now())),

    /** The sender edits the text: marked edited; the replies quoting it change too. */
    async edit(user: UserRow, messageId: string, content: string): Promise<ChatMessage> {
      return syncWrite(db, async (w) => {
        const message = await kit.forEdit(w.tx, messageId, user.id, now())
        await kit.touch(w, message, { content, isEdited: true })
        // Only members this edit mentions for the first time in the message hear of it.
        await mention(w, hooks.contentAdded, user, {
          bubleId: message.bubleId,
          contentType: 'chat',
          contentId: messageId,
          text: content,
          at: now(),
        })
        await touchReplies(w, message)
        return loadMessage(w.tx, messageId)
      })
    },

    /**
     * The sender, or a member holding delete_others_content. Its reactions go with it, devices get a
     * `del`; replies keep their `reply_to_id` and answer `replyTo: null`; its image is forgotten
     * once the delete has committed.
     */
    async remove(user: UserRow, messageId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        const message = await kit.forAction(w.tx, messageId, user.id, 'content.delete')
        await kit.remove(w, message)
        await touchReplies(w, message)
        if (message.imageUrl) w.afterCommit(() => void hooks.forgetFiles([message.imageUrl]))
      })
    },

    /** Toggles the caller's reaction of one type: added when absent, removed when present. */
    async react(user: UserRow, messageId: string, type: ReactionType) {
      return syncWrite(db, async (w) => {
        const { row: message } = await kit.forWriter(w.tx, messageId, user.id, now())
        const mine = and(
          eq(chatReactions.messageId, messageId),
          eq(chatReactions.userId, user.id),
          eq(chatReactions.type, type),
        )
        const removed = await w.tx.delete(chatReactions).where(mine).returning({ type: chatReactions.type })
        if (removed.length === 0)
          await w.tx.insert(chatReactions).values({ messageId, userId: user.id, type, createdAt: now() })
        await kit.touch(w, message)
        const { reactions, reactionsSummary } = await loadMessage(w.tx, messageId)
        return { reactions, reactionsSummary }
      })
    },

    close: () => pages.close(),
  }
}
