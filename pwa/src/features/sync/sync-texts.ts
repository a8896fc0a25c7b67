/** What the sync status says: the header's few words, and what each refused change was, in the user's terms. */

import { BUBLE_MESSAGES } from '@buble/shared/bubles'
import type { MutationName } from '@buble/shared/mutations'
import { INTERNAL_REJECTION } from '@buble/sync/protocol'
import type { Rejection, SyncSummary } from '../../data/sync-status.ts'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { formatClock, formatDay, formatMoment } from '../../ui/format.ts'

/** The header's label: 'Synced', 'Syncing…', 'Offline', 'Offline · 3 pending', 'Sync error'. */
export function statusLabel({ state, pending }: Pick<SyncSummary, 'state' | 'pending'>): string {
  switch (state) {
    case 'synced':
      return 'Synced'
    case 'syncing':
      return 'Syncing…'
    case 'offline':
      return pending > 0 ? `Offline · ${pending} pending` : 'Offline'
    case 'error':
      return 'Sync error'
  }
}

/** One sentence on what the state means for the user's changes. */
export function statusDescription({ state, notSaved }: Pick<SyncSummary, 'state' | 'notSaved'>): string {
  switch (state) {
    case 'synced':
      return notSaved > 0
        ? 'Everything else made on this device is saved on the server.'
        : 'Everything made on this device is saved on the server.'
    case 'syncing':
      return 'Sending your changes and fetching what others did.'
    case 'offline':
      return 'You are offline. What you change is kept on this device and sent once you are back online.'
    case 'error':
      return 'The server could not be reached properly. Buble keeps trying by itself; your changes stay on this device.'
  }
}

// The same words the screen would have shown had the change failed there and then (spec part 1 §8,
// part 2 §8; the spec names no text for a reaction (a chat reaction is an 'action'); RSVPs, votes and deletes of events and polls
// are 'actions').
const HEADLINES: Record<MutationName, string> = {
  'buble.create': ERROR_TEXTS.createBuble,
  'buble.delete': ERROR_TEXTS.deleteBuble,
  'buble.leave': ERROR_TEXTS.performAction,
  'invite.create': ERROR_TEXTS.generateInvite,
  'invite.accept': BUBLE_MESSAGES.inviteInvalid,
  'invite.revoke': ERROR_TEXTS.revokeInvite,
  'profile.update': ERROR_TEXTS.updateProfile,
  'unread.read': ERROR_TEXTS.performAction,
  'post.create': 'Failed to create post',
  'post.update': 'Failed to update post',
  'post.delete': 'Failed to delete post',
  'comment.create': 'Failed to create comment',
  'comment.update': 'Failed to update comment',
  'comment.delete': 'Failed to delete comment',
  'reaction.add': 'Failed to save reaction',
  'reaction.remove': 'Failed to save reaction',
  'event.create': ERROR_TEXTS.createEvent,
  'event.update': ERROR_TEXTS.updateEvent,
  'event.delete': ERROR_TEXTS.performAction,
  'event.rsvp': ERROR_TEXTS.performAction,
  'poll.create': ERROR_TEXTS.createPoll,
  'poll.update': ERROR_TEXTS.updatePoll,
  'poll.delete': ERROR_TEXTS.performAction,
  'poll.vote': ERROR_TEXTS.performAction,
  'poll.unvote': ERROR_TEXTS.performAction,
  'chat.send': 'Failed to send message',
  'chat.edit': 'Failed to edit message',
  'chat.delete': 'Failed to delete message',
  'chat.react': ERROR_TEXTS.performAction,
  'post.pin': 'Failed to pin post',
  'post.unpin': 'Failed to unpin post',
  'member.mute': 'Failed to mute member',
  'member.unmute': 'Failed to unmute member',
  'report.create': 'Failed to send report',
  'report.resolve': 'Failed to handle report',
}

const typed = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null)

/** Several typed fields, one a line; null when none was typed. */
const lines = (...values: unknown[]): string | null =>
  values
    .flat()
    .map(typed)
    .filter((part) => part !== null)
    .join('\n') || null

function keptText(name: MutationName, args: Record<string, unknown>): string | null {
  switch (name) {
    case 'buble.create':
      return typed(args.name)
    case 'invite.accept':
      return typed(args.code)
    case 'invite.create':
      return typed(args.email)
    case 'profile.update':
      return lines(args.name, args.bio)
    case 'post.create':
    case 'post.update':
    case 'comment.create':
    case 'comment.update':
    case 'chat.send':
    case 'chat.edit':
      return typed(args.content)
    case 'event.create':
    case 'event.update':
      return lines(args.title, args.description, args.location)
    case 'poll.create':
    case 'poll.update':
      return lines(args.question, Array.isArray(args.options) ? args.options : [])
    case 'report.create':
      return typed(args.note)
    case 'unread.read':
    case 'invite.revoke':
    case 'buble.delete':
    case 'buble.leave':
    case 'post.delete':
    case 'comment.delete':
    case 'reaction.add':
    case 'reaction.remove':
    case 'event.delete':
    case 'event.rsvp':
    case 'poll.delete':
    case 'poll.vote':
    case 'poll.unvote':
    case 'chat.delete':
    case 'chat.react':
    case 'post.pin':
    case 'post.unpin':
    case 'member.mute':
    case 'member.unmute':
    case 'report.resolve':
      return null
  }
}

export interface RejectionText {
  headline: string
  /** What the user typed, kept so it can be copied and tried again; null when they typed nothing. */
  text: string | null
}

/** The headline of a refused change and the text it carried. */
export function describeRejection({ name, args }: Pick<Rejection, 'name' | 'args'>): RejectionText {
  const fields = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : {}
  // A rejection stored by another version of the app may name a mutation this one does not know.
  return {
    headline: HEADLINES[name] ?? 'A change was not saved',
    text: name in HEADLINES ? keptText(name, fields) : null,
  }
}

/** The server failed with this change alone (a fault of its own, not a refusal): our words, not its generic ones. */
export const INTERNAL_TEXT = 'The server failed to save this change.'

/** Why a change was not saved: the server's words, or INTERNAL_TEXT for a failure of the server's own. */
export function rejectionReason({ code, message }: Pick<Rejection, 'code' | 'message'>): string {
  return code === INTERNAL_REJECTION.code ? INTERNAL_TEXT : message
}

/**
 * When a change refused for coming too often (RATE_LIMITED) may be sent again, on this device's
 * clock as the list's other times: 'You can try again at 14:05.', or 'on 24 Nov 2026, 14:05' when
 * that is not today; null when there is no such time or it has come.
 */
export function tryAgainText(retryAt: string | undefined, now: number): string | null {
  if (!retryAt || !(Date.parse(retryAt) > now)) return null
  return formatDay(retryAt) === formatDay(new Date(now).toISOString())
    ? `You can try again at ${formatClock(retryAt)}.`
    : `You can try again on ${formatMoment(retryAt)}.`
}
