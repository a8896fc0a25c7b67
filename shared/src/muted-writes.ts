/**
 * Which queued writes a muted member is refused (issue 24 §2). The server refuses them in their
 * services; a device that knows its member is muted refuses them itself (pwa/src/data/muted-writes.ts),
 * finding their buble in the args or on a row the write touches.
 */

import type { MutationName } from './mutations.ts'

export const MUTED_WRITES = [
  'post.create',
  'post.update',
  'comment.create',
  'comment.update',
  'reaction.add',
  'reaction.remove',
  'chat.send',
  'chat.edit',
  'chat.react',
  'event.create',
  'event.update',
  'event.rsvp',
  'poll.create',
  'poll.update',
  'poll.vote',
  'poll.unvote',
] as const satisfies readonly MutationName[]

export type MutedWrite = (typeof MUTED_WRITES)[number]
export const isMutedWrite = (name: string): name is MutedWrite => (MUTED_WRITES as readonly string[]).includes(name)
