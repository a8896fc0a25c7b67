/**
 * What chat mutations do on the device before the server answers (CONTRACT §3.3): a message sent
 * here shows at once in the server's shape, marked pending ('Sending…'); an edit reads pending
 * too; a reaction changes the message without that mark. `chat.react` toggles on the server, and
 * a toggle run again over the server's row would undo itself, so what it comes to (on or off) is
 * settled once, when it is made, and every run (rebase) sets that.
 */

import type { ChatMessage } from './chat.ts'
import { deleteRow, editRow, memberRefOf, type OptimisticOf, refTo, updateRow } from './device-rows.ts'
import type { CHAT_MUTATIONS } from './mutations.ts'
import { hasReaction, withReaction } from './optimistic-wall.ts'

const message = refTo('chat_messages')

/** What a `chat.react` came to when it was made: the actor's reaction of that type on or off. */
export interface SettledReaction {
  on: boolean
}

const isSettledReaction = (value: unknown): value is SettledReaction =>
  typeof value === 'object' && value !== null && typeof (value as SettledReaction).on === 'boolean'

export const CHAT_OPTIMISTIC: OptimisticOf<typeof CHAT_MUTATIONS> = {
  'chat.send': {
    touches: (args) => [message(args.id)],
    async apply(store, args, actor, createdAt) {
      // Re-applied over the server's row (answered, waiting for the end of a pull): the server's wins.
      if (await store.get('chat_messages', args.id)) return
      const quoted = args.reply_to_id ? await store.get('chat_messages', args.reply_to_id) : undefined
      const row: ChatMessage = {
        id: args.id,
        buble_id: args.buble_id,
        content: args.content,
        type: args.type,
        image_url: args.image_url ?? null,
        sender: memberRefOf(actor),
        created_at: createdAt,
        is_edited: false,
        reply_to_id: args.reply_to_id ?? null,
        replyTo: quoted
          ? { id: quoted.id, content: String(quoted.content ?? ''), sender: quoted.sender as ChatMessage['sender'] }
          : null,
        reactions: {},
        reactionsSummary: {},
      }
      await store.put('chat_messages', { ...row, _pending: true })
    },
  },
  'chat.edit': editRow('chat_messages', (_row, args) => ({ content: args.content, is_edited: true })),
  // Replies keep their quote until the server's rows say otherwise.
  'chat.delete': deleteRow('chat_messages'),
  'chat.react': {
    touches: (args) => [message(args.message_id)],
    async settle(store, args, actor): Promise<SettledReaction> {
      return { on: !hasReaction(await store.get('chat_messages', args.message_id), actor, args.reactionType) }
    },
    apply: (store, args, actor, _createdAt, settled) =>
      updateRow(store, 'chat_messages', args.message_id, (row) =>
        withReaction(
          row,
          actor,
          args.reactionType,
          // Run without a settled value (by itself, say) it toggles what it finds.
          isSettledReaction(settled) ? settled.on : !hasReaction(row, actor, args.reactionType),
        ),
      ),
  },
}
