/**
 * The offline-first wire protocol of CONTRACT §5: mutation names, the push and pull shapes.
 * Both halves (the PWA's outbox and the server's push handler) validate with these.
 */

import { UpdateProfileBody } from '@buble/shared/auth'
import { BubleName, ClientId, CreateInviteBody, InviteCode, Uuid } from '@buble/shared/bubles'
import { asMessage, ChatReactionBody, EditMessageBody, SendMessageFields } from '@buble/shared/chat'
import { CreateEventBody, RsvpBody, UpdateEventBody } from '@buble/shared/events'
import { CreatePollBody, UpdatePollBody, VoteBody } from '@buble/shared/polls'
import { hasUnsafeText, isClientIdText, unsafeTextMessage } from '@buble/shared/text'
import { ContentTypeSchema } from '@buble/shared/unread'
import { CreateCommentBody, CreatePostBody, ReactionBody, UpdateCommentBody, UpdatePostBody } from '@buble/shared/wall'
import { z } from 'zod'

/**
 * Every mutation a device may queue, named `entity.verb`: CONTRACT §5's names, then the other
 * buble writes (delete, leave, invites), so that every write can also wait in the outbox.
 */
export const MUTATION_NAMES = [
  'buble.create',
  'post.create',
  'post.update',
  'post.delete',
  'comment.create',
  'comment.update',
  'comment.delete',
  'reaction.add',
  'reaction.remove',
  'event.create',
  'event.update',
  'event.delete',
  'event.rsvp',
  'poll.create',
  'poll.update',
  'poll.delete',
  'poll.vote',
  'poll.unvote',
  'chat.send',
  'chat.edit',
  'chat.delete',
  'chat.react',
  'unread.read',
  'profile.update',
  'buble.delete',
  'buble.leave',
  'invite.create',
  'invite.accept',
  'invite.revoke',
] as const
export type MutationName = (typeof MUTATION_NAMES)[number]

export const isMutationName = (name: string): name is MutationName =>
  (MUTATION_NAMES as readonly string[]).includes(name)

const BubleId = Uuid('buble_id must be a UUID')
const PostId = Uuid('post_id must be a UUID')
const EntityId = Uuid('id must be a UUID')
const EventId = Uuid('event_id must be a UUID')
const PollId = Uuid('poll_id must be a UUID')
const MessageId = Uuid('message_id must be a UUID')

/**
 * The args of each mutation the server handles: the REST body plus the ids of its path (CONTRACT
 * §6). Creates must carry their `id`, so the row made offline keeps it. A name of MUTATION_NAMES
 * without an entry here is not handled yet and is rejected as UNKNOWN_MUTATION.
 */
export const MUTATION_ARGS = {
  'buble.create': z.object({ id: ClientId, name: BubleName }),
  'buble.delete': z.object({ id: BubleId }),
  'buble.leave': z.object({ buble_id: BubleId }),
  'invite.create': CreateInviteBody.extend({ buble_id: BubleId }),
  'invite.accept': z.object({ code: InviteCode }),
  'invite.revoke': z.object({ buble_id: BubleId, code: InviteCode }),
  'profile.update': UpdateProfileBody,
  'unread.read': z.object({ buble_id: BubleId, contentType: ContentTypeSchema }),
  'post.create': CreatePostBody.extend({ id: ClientId, buble_id: BubleId }),
  'post.update': UpdatePostBody.extend({ id: EntityId }),
  'post.delete': z.object({ id: EntityId }),
  'comment.create': CreateCommentBody.extend({ id: ClientId, post_id: PostId }),
  'comment.update': UpdateCommentBody.extend({ id: EntityId }),
  'comment.delete': z.object({ id: EntityId }),
  'reaction.add': ReactionBody.extend({ post_id: PostId }),
  'reaction.remove': ReactionBody.extend({ post_id: PostId }),
  'event.create': CreateEventBody.extend({ id: ClientId, buble_id: BubleId }),
  'event.update': UpdateEventBody.extend({ id: EntityId }),
  'event.delete': z.object({ id: EntityId }),
  'event.rsvp': RsvpBody.extend({ event_id: EventId }),
  'poll.create': CreatePollBody.extend({ id: ClientId, buble_id: BubleId }),
  'poll.update': UpdatePollBody.extend({ id: EntityId }),
  'poll.delete': z.object({ id: EntityId }),
  'poll.vote': VoteBody.extend({ poll_id: PollId }),
  'poll.unvote': z.object({ poll_id: PollId }),
  'chat.send': asMessage(SendMessageFields.extend({ id: ClientId, buble_id: BubleId })),
  'chat.edit': EditMessageBody.extend({ id: EntityId }),
  'chat.delete': z.object({ id: EntityId }),
  'chat.react': ChatReactionBody.extend({ message_id: MessageId }),
} satisfies Partial<Record<MutationName, z.ZodType>>

/** The mutations a device can queue today. */
export type HandledMutation = keyof typeof MUTATION_ARGS
export type MutationArgs<N extends HandledMutation> = z.output<(typeof MUTATION_ARGS)[N]>
/** Args as a caller writes them, before the schema trims and normalises. */
export type MutationInput<N extends HandledMutation> = z.input<(typeof MUTATION_ARGS)[N]>

export const isHandledMutation = (name: string): name is HandledMutation => Object.hasOwn(MUTATION_ARGS, name)

/** The most mutations one push may carry. */
export const MAX_PUSH_BATCH = 100
/** The most changes one pull answers by default. */
export const DEFAULT_PULL_LIMIT = 500

/** One queued mutation as it crosses the wire; its args are checked per name by the server. */
export const Mutation = z.object({
  id: z.uuid(),
  // Any string: a name the server does not know rejects that mutation alone (UNKNOWN_MUTATION), and
  // only a name of ours is ever stored or echoed.
  name: z.string().max(256),
  args: z.record(z.string(), z.unknown()),
  createdAt: z
    .string()
    .max(64)
    .refine((at) => !hasUnsafeText(at), unsafeTextMessage('createdAt')),
})
export type Mutation = z.infer<typeof Mutation>

export const PushBody = z.object({
  // Stored with every applied mutation: checked for length and characters first.
  clientId: z.string().refine(isClientIdText, 'clientId must be 1 to 128 letters, digits or . _ : -'),
  mutations: z.array(Mutation).min(1).max(MAX_PUSH_BATCH),
})
export type PushBody = z.infer<typeof PushBody>

export const MutationResult = z.object({
  id: z.string(),
  status: z.enum(['applied', 'duplicate', 'rejected']),
  code: z.string().optional(),
  message: z.string().optional(),
  /** With `RATE_LIMITED`: seconds until the same mutation may be tried again (the device shows when). */
  retryAfter: z.number().int().positive().optional(),
  data: z.unknown().optional(),
})
export type MutationResult = z.infer<typeof MutationResult>

/**
 * The code of a mutation that failed on the server for a reason of the server's own (a bug, not the
 * mutation's args or rights): rejected alone, so the rest of the batch and of the queue flows. A
 * device that gets 5xx answers three times for one batch also marks its culprit with it.
 */
export const INTERNAL_REJECTION = { code: 'INTERNAL', message: 'Something went wrong on the server' } as const

export const PushResponse = z.object({ results: z.array(MutationResult) })
export type PushResponse = z.infer<typeof PushResponse>

export const ENTITIES = [
  'buble',
  'member',
  'post',
  'comment',
  'event',
  'poll',
  'chat_message',
  'story',
  'unread',
] as const
export type Entity = (typeof ENTITIES)[number]

export const Change = z.object({
  entity: z.enum(ENTITIES),
  op: z.enum(['put', 'del']),
  id: z.string(),
  buble_id: z.string().nullable(),
  data: z.unknown().optional(),
})
export type Change = z.infer<typeof Change>

export const PullQuery = z.object({
  // Opaque to clients; the server answers `reset` for one it cannot read.
  cursor: z.string().max(8192).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(DEFAULT_PULL_LIMIT),
})
export type PullQuery = z.infer<typeof PullQuery>

export const PullResponse = z.object({
  cursor: z.string(),
  hasMore: z.boolean(),
  reset: z.boolean().optional(),
  changes: z.array(Change),
})
export type PullResponse = z.infer<typeof PullResponse>
