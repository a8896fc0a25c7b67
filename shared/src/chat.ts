/** Chat (CONTRACT §3.3, spec part 2 §2–§5, §8): shapes, bodies and constants for server and client. */

import { z } from 'zod'
import { ClientId, type MemberRef, Uuid } from './bubles.ts'
import { LIMITS } from './constants.ts'
import { type Reactions, type ReactionsSummary, ReactionTypeSchema, UploadUrl } from './wall.ts'

/** A page of chat: the newest 50 by default, at most 100 (CONTRACT §3.3). */
export const CHAT_PAGE_SIZE = 50
export const CHAT_MAX_PAGE_SIZE = 100

export const CHAT_MESSAGE_TYPES = ['text', 'image'] as const
export type ChatMessageType = (typeof CHAT_MESSAGE_TYPES)[number]

export const CHAT_MESSAGES = {
  contentRequired: 'Message is required',
  tooLong: `A message may be at most ${LIMITS.chatMessage} characters`,
  imageRequired: 'An image message needs image_url',
  messageNotFound: 'Message not found',
  replyNotInBuble: 'reply_to_id must be a message of this buble',
  badImage: 'image_url must be an image uploaded to this buble',
  onlySenderEdits: 'Only the sender can edit this message',
  notAllowedToDelete: 'You may not delete this message',
} as const

/** Text of a message: trimmed, at most 4,000 characters; may be empty only beside an image. */
const MessageText = z.string().trim().max(LIMITS.chatMessage, { error: CHAT_MESSAGES.tooLong })

/** The fields of `POST /api/chat/:bubleId/messages`, before `asMessage` settles them. */
export const SendMessageFields = z.object({
  id: ClientId.optional(),
  content: MessageText.default(''),
  type: z.enum(CHAT_MESSAGE_TYPES, { error: 'type must be text or image' }).optional(),
  image_url: UploadUrl.nullish(),
  reply_to_id: Uuid('reply_to_id must be a UUID').nullish(),
})

/**
 * A message to send, settled: a text message needs text (spec part 2 §5); an image message needs
 * `image_url` and may carry a caption; `type` follows from `image_url` when not given. Used by the
 * REST body and the `chat.send` mutation alike.
 */
export const asMessage = <T extends z.ZodType<z.output<typeof SendMessageFields>>>(fields: T) =>
  fields
    .transform((body) => ({ ...body, type: body.type ?? (body.image_url ? ('image' as const) : ('text' as const)) }))
    .superRefine((body, ctx) => {
      if (body.type === 'image' && !body.image_url)
        ctx.addIssue({ code: 'custom', path: ['image_url'], message: CHAT_MESSAGES.imageRequired })
      if (body.type === 'text' && body.content.length === 0)
        ctx.addIssue({ code: 'custom', path: ['content'], message: CHAT_MESSAGES.contentRequired })
    })

export const SendMessageBody = asMessage(SendMessageFields)
export type SendMessageBody = z.output<typeof SendMessageBody>

export const EditMessageBody = z.object({
  content: MessageText.min(1, { error: CHAT_MESSAGES.contentRequired }),
})
export type EditMessageBody = z.infer<typeof EditMessageBody>

export const ChatReactionBody = z.object({ reactionType: ReactionTypeSchema })

export const ChatPageQuery = z.object({
  before: Uuid('before must be a message id').optional(),
  limit: z.coerce.number().int().min(1).max(CHAT_MAX_PAGE_SIZE).default(CHAT_PAGE_SIZE),
})

export interface ChatMessage {
  id: string
  buble_id: string
  content: string
  type: ChatMessageType
  image_url: string | null
  sender: MemberRef
  created_at: string
  is_edited: boolean
  reply_to_id: string | null
  replyTo: { id: string; content: string; sender: MemberRef } | null
  reactions: Reactions
  reactionsSummary: ReactionsSummary
}

/** `GET /api/chat/:bubleId/messages`: oldest first within the page; `hasMore` when older messages exist. */
export interface ChatPage {
  messages: ChatMessage[]
  hasMore: boolean
}
