/** A buble's chat as the panel reads it (a live query over the device's database), and the chat's writes. */

import { CHAT_PAGE_SIZE, type ChatMessage } from '@buble/shared/chat'
import type { LocalRow } from '@buble/shared/device-rows'
import type { ReactionType } from '@buble/shared/wall'
import Dexie from 'dexie'
import { useLiveQuery } from 'dexie-react-hooks'
import { useEffect, useMemo, useState } from 'react'
import { withCurrentMakers } from './authors.ts'
import { useDevice } from './data-context.tsx'
import { type CreateInput, queueCreate } from './device.ts'
import type { DeviceDb } from './device-db.ts'
import type { PagedRows } from './live-rows.ts'

/** A message as stored: `_pending` while it (or its edit) has not reached the server. */
export type LocalChatMessage = ChatMessage & LocalRow

const INDEX = '[buble_id+created_at]'

/** The buble's messages from `since` on (or its newest page), and whether older ones exist. */
async function readWindow(db: DeviceDb, bubleId: string, since: string | null) {
  const span =
    since === null
      ? db.chat_messages
          .where(INDEX)
          .between([bubleId, Dexie.minKey], [bubleId, Dexie.maxKey])
          .reverse()
          .limit(CHAT_PAGE_SIZE)
      : db.chat_messages.where(INDEX).between([bubleId, since], [bubleId, Dexie.maxKey], true, true).reverse()
  const rows = ((await span.toArray()) as LocalChatMessage[]).reverse()
  const oldest = rows[0]
  const older = oldest ? await olderThan(db, bubleId, oldest.created_at, 1) : []
  return { rows: await withCurrentMakers(db, bubleId, rows, 'sender'), hasMore: older.length > 0 }
}

/** Up to `count` messages older than `before`, newest first. */
const olderThan = (db: DeviceDb, bubleId: string, before: string, count: number) =>
  db.chat_messages
    .where(INDEX)
    .between([bubleId, Dexie.minKey], [bubleId, before], true, false)
    .reverse()
    .limit(count)
    .toArray()

/**
 * A buble's chat, oldest first for display: the newest CHAT_PAGE_SIZE messages, then everything
 * from the oldest one shown on, so new messages add to the window instead of pushing old ones out
 * of it. `loadMore` widens it by another page of older ones.
 */
export function useChatMessages(bubleId: string, focusId?: string | null): PagedRows<LocalChatMessage> {
  const { db } = useDevice()
  const [since, setSince] = useState<string | null>(null)
  // A message opened from search (`focusId`): the window reaches back to it.
  useEffect(() => {
    if (!focusId) return
    let current = true
    void db.chat_messages.get(focusId).then((row) => {
      const at = (row as LocalChatMessage | undefined)?.created_at
      if (current && at && row?.buble_id === bubleId) setSince((shown) => (shown === null || at < shown ? at : shown))
    })
    return () => {
      current = false
    }
  }, [db, bubleId, focusId])
  const result = useLiveQuery(
    () =>
      readWindow(db, bubleId, since).then(
        (window) => ({ status: 'ready' as const, ...window }),
        (err: unknown) => {
          console.error('Failed to load messages', err)
          return { status: 'failed' as const, hasMore: false }
        },
      ),
    [db, bubleId, since],
  )
  const oldest = result?.status === 'ready' ? result.rows[0]?.created_at : undefined

  // Pin the window to the first page once it is read.
  useEffect(() => {
    if (since === null && oldest) setSince(oldest)
  }, [since, oldest])

  return {
    ...(result ?? { status: 'loading', hasMore: false }),
    async loadMore() {
      if (!oldest) return false
      const older = await olderThan(db, bubleId, oldest, CHAT_PAGE_SIZE)
      const next = older.at(-1)?.created_at
      if (typeof next !== 'string') return false
      setSince(next)
      return true
    },
  }
}

export type NewMessage = CreateInput<'chat.send'>

/** The chat's writes: each shows at once and waits in the outbox; a send answers the new message's id. */
export function useChatActions() {
  const device = useDevice()
  return useMemo(
    () => ({
      send: (message: NewMessage) => queueCreate(device, 'chat.send', message),
      edit: (id: string, content: string) => device.mutate('chat.edit', { id, content }),
      remove: (id: string) => device.mutate('chat.delete', { id }),
      /** Toggles the user's reaction of one type (the server toggles too). */
      react: (messageId: string, reactionType: ReactionType) =>
        device.mutate('chat.react', { message_id: messageId, reactionType }),
    }),
    [device],
  )
}

export type ChatActions = ReturnType<typeof useChatActions>
