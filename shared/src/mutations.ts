/**
 * The catalogue of mutations (CONTRACT §5): every write a device may queue, named `entity.verb`,
 * with the schema of its args. Each mutation is declared here once, in its feature's group; every
 * other list of names (the server's handlers, the device's optimistic changes) is a type derived
 * from these maps, so a name added here is a compile error wherever it is not handled yet.
 */

import { z } from 'zod'
import { UpdateProfileBody } from './auth.ts'
import { BubleName, ClientId, CreateInviteBody, InviteCode, Uuid } from './bubles.ts'
import { asMessage, ChatReactionBody, EditMessageBody, SendMessageFields } from './chat.ts'
import { CreateEventBody, EventTime, RsvpBody, UpdateEventBody } from './events.ts'
import { MuteBody, MuteTarget } from './mutes.ts'
import { CreatePollBody, UpdatePollBody, VoteBody } from './polls.ts'
import { CreateReportBody, ResolveReportsBody } from './reports.ts'
import { ContentTypeSchema } from './unread.ts'
import { CreateCommentBody, CreatePostBody, ReactionBody, UpdateCommentBody, UpdatePostBody } from './wall.ts'

const BubleId = Uuid('buble_id must be a UUID')
const PostId = Uuid('post_id must be a UUID')
const EntityId = Uuid('id must be a UUID')
const EventId = Uuid('event_id must be a UUID')
const PollId = Uuid('poll_id must be a UUID')
const MessageId = Uuid('message_id must be a UUID')

// Each mutation's args are the REST body plus the ids of its path (CONTRACT §6). Creates must carry
// their `id`, so the row made offline keeps it.

/** Bubles and their invites: every buble write can wait in the outbox too. */
export const BUBLE_MUTATIONS = {
  'buble.create': z.object({ id: ClientId, name: BubleName }),
  'buble.delete': z.object({ id: BubleId }),
  'buble.leave': z.object({ buble_id: BubleId }),
  'invite.create': CreateInviteBody.extend({ buble_id: BubleId }),
  'invite.accept': z.object({ code: InviteCode }),
  'invite.revoke': z.object({ buble_id: BubleId, code: InviteCode }),
}

/** The wall: posts, their comments and reactions. */
export const WALL_MUTATIONS = {
  'post.create': CreatePostBody.extend({ id: ClientId, buble_id: BubleId }),
  'post.update': UpdatePostBody.extend({ id: EntityId }),
  'post.delete': z.object({ id: EntityId }),
  'comment.create': CreateCommentBody.extend({ id: ClientId, post_id: PostId }),
  'comment.update': UpdateCommentBody.extend({ id: EntityId }),
  'comment.delete': z.object({ id: EntityId }),
  'reaction.add': ReactionBody.extend({ post_id: PostId }),
  'reaction.remove': ReactionBody.extend({ post_id: PostId }),
}

/** Events and their RSVPs. */
export const EVENT_MUTATIONS = {
  'event.create': CreateEventBody.extend({ id: ClientId, buble_id: BubleId }),
  'event.update': UpdateEventBody.extend({ id: EntityId }),
  'event.delete': z.object({ id: EntityId, occurrence: EventTime.optional() }),
  'event.rsvp': RsvpBody.extend({ event_id: EventId }),
}

/** Polls and votes. */
export const POLL_MUTATIONS = {
  'poll.create': CreatePollBody.extend({ id: ClientId, buble_id: BubleId }),
  'poll.update': UpdatePollBody.extend({ id: EntityId }),
  'poll.delete': z.object({ id: EntityId }),
  'poll.vote': VoteBody.extend({ poll_id: PollId }),
  'poll.unvote': z.object({ poll_id: PollId }),
}

/** Chat messages and their reactions. */
export const CHAT_MUTATIONS = {
  'chat.send': asMessage(SendMessageFields.extend({ id: ClientId, buble_id: BubleId })),
  'chat.edit': EditMessageBody.extend({ id: EntityId }),
  'chat.delete': z.object({ id: EntityId }),
  'chat.react': ChatReactionBody.extend({ message_id: MessageId }),
}

/** Pins on the wall (issue 23 §5), after the contract's names. */
export const PIN_MUTATIONS = {
  'post.pin': z.object({ id: EntityId }),
  'post.unpin': z.object({ id: EntityId }),
}

/** Muting a member of a buble (issue 24 §2): `member.mute` for a duration, `member.unmute` at once. */
export const MUTE_MUTATIONS = {
  'member.mute': MuteBody.extend(MuteTarget.shape),
  'member.unmute': MuteTarget,
}

/** Reports and the moderation queue (issue 24 §1): a member reports, a moderator resolves an item's reports. */
export const REPORT_MUTATIONS = {
  'report.create': CreateReportBody.extend({ id: ClientId, buble_id: BubleId }),
  'report.resolve': ResolveReportsBody.safeExtend({ buble_id: BubleId }),
}

/** A tab read: its unread counter back to zero. */
export const UNREAD_MUTATIONS = {
  'unread.read': z.object({ buble_id: BubleId, contentType: ContentTypeSchema }),
}

/** The user's own profile. */
export const PROFILE_MUTATIONS = {
  'profile.update': UpdateProfileBody,
}

// CONTRACT §5's names come first (buble.create among them), then the other buble writes.
const { 'buble.create': createBuble, ...otherBubleWrites } = BUBLE_MUTATIONS

/** Every mutation's args schema. */
export const MUTATION_ARGS = {
  'buble.create': createBuble,
  ...WALL_MUTATIONS,
  ...EVENT_MUTATIONS,
  ...POLL_MUTATIONS,
  ...CHAT_MUTATIONS,
  ...UNREAD_MUTATIONS,
  ...PROFILE_MUTATIONS,
  ...otherBubleWrites,
  ...PIN_MUTATIONS,
  ...MUTE_MUTATIONS,
  ...REPORT_MUTATIONS,
} satisfies Record<string, z.ZodType>

export type MutationName = keyof typeof MUTATION_ARGS
export type MutationArgs<N extends MutationName> = z.output<(typeof MUTATION_ARGS)[N]>
/** Args as a caller writes them, before the schema trims and normalises. */
export type MutationInput<N extends MutationName> = z.input<(typeof MUTATION_ARGS)[N]>

/** Every mutation name, in the catalogue's order. */
export const MUTATION_NAMES = Object.keys(MUTATION_ARGS) as MutationName[]

/** Whether a name (off the wire, or from a device's store) is a mutation of the catalogue. */
export const isMutationName = (name: string): name is MutationName => Object.hasOwn(MUTATION_ARGS, name)
