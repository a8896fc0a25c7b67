/** Chat in sync: its synced table, what counts on the chat tab, and its mutations. */

import type { CHAT_MUTATIONS } from '@buble/shared/mutations'
import type { MutationBatchers, MutationHandlersOf, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import { loadMessages } from './queries.ts'
import { type ChatService, isPlainMessage } from './service.ts'

/** Messages by others count on the chat tab, from the version they were sent at. */
export const chatUnreadSources: UnreadSource[] = [
  {
    contentType: 'chat',
    entity: 'chat_message',
    table: 'chat_messages',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'sender_id',
  },
]

export const chatSyncSources: SyncSource[] = [
  {
    entity: 'chat_message',
    scan: scanTable('chat_message', 'chat_messages', 'buble_id'),
    load: (db, ids) => loadMessages(db, ids),
  },
]

export const chatMutations = (chat: ChatService): MutationHandlersOf<typeof CHAT_MUTATIONS> => ({
  'chat.send': async (user, { buble_id, ...body }) => (await chat.send(user, buble_id, body)).value,
  'chat.edit': (user, args) => chat.edit(user, args.id, args.content),
  'chat.delete': async (user, args) => {
    await chat.remove(user, args.id)
    return null
  },
  'chat.react': (user, args) => chat.react(user, args.message_id, args.reactionType),
})

/** Plain messages queued on a device go several at once: the same service, one statement. */
export const chatBatchers = (chat: ChatService): MutationBatchers => ({
  'chat.send': { takes: isPlainMessage, apply: (user, args) => chat.sendAtOnce(user, args) },
})
