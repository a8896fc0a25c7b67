import type { MutationName } from '@buble/shared/mutations'
import { expect, test } from 'vitest'
import {
  describeRejection,
  INTERNAL_TEXT,
  rejectionReason,
  statusDescription,
  statusLabel,
  tryAgainText,
} from './sync-texts.ts'

test.each<[MutationName, Record<string, unknown>, string, string | null]>([
  ['buble.create', { id: 'b1', name: 'Book Club' }, 'Failed to create Buble. Please try again.', 'Book Club'],
  ['buble.delete', { id: 'b1' }, 'Failed to delete Buble', null],
  ['buble.leave', { buble_id: 'b1' }, 'Failed to perform action', null],
  ['invite.create', { buble_id: 'b1' }, 'Failed to generate invite', null],
  ['invite.create', { buble_id: 'b1', email: 'dan@example.com' }, 'Failed to generate invite', 'dan@example.com'],
  ['invite.accept', { code: 'K7M2PQ9XRT' }, 'Invalid invite code or code has expired', 'K7M2PQ9XRT'],
  ['invite.revoke', { buble_id: 'b1', code: 'K7M2PQ9XRT' }, 'Failed to revoke invite code', null],
  ['profile.update', { name: 'Alice B', bio: 'Climber' }, 'Failed to update profile', 'Alice B\nClimber'],
  ['profile.update', { bio: 'Only the bio' }, 'Failed to update profile', 'Only the bio'],
  ['profile.update', { avatar_url: '/api/uploads/secure/a.png' }, 'Failed to update profile', null],
  ['post.create', { id: 'p1', buble_id: 'b1', content: 'Hello wall' }, 'Failed to create post', 'Hello wall'],
  ['post.update', { id: 'p1', content: 'Edited text' }, 'Failed to update post', 'Edited text'],
  ['post.delete', { id: 'p1' }, 'Failed to delete post', null],
  ['comment.create', { id: 'c1', post_id: 'p1', content: 'Nice!' }, 'Failed to create comment', 'Nice!'],
  ['comment.update', { id: 'c1', content: 'Nicer' }, 'Failed to update comment', 'Nicer'],
  ['comment.delete', { id: 'c1' }, 'Failed to delete comment', null],
  ['reaction.add', { post_id: 'p1', reactionType: 'love' }, 'Failed to save reaction', null],
  ['reaction.remove', { post_id: 'p1', reactionType: 'love' }, 'Failed to save reaction', null],
  [
    'event.create',
    { id: 'e1', buble_id: 'b1', title: 'Picnic', location: 'Park' },
    'Failed to create event',
    'Picnic\nPark',
  ],
  ['event.update', { id: 'e1', description: 'Bring food' }, 'Failed to update event', 'Bring food'],
  ['event.delete', { id: 'e1' }, 'Failed to perform action', null],
  ['event.rsvp', { event_id: 'e1', status: 'going' }, 'Failed to perform action', null],
  [
    'poll.create',
    { id: 'q1', buble_id: 'b1', question: 'Pizza?', options: ['Yes', 'No'] },
    'Failed to create poll',
    'Pizza?\nYes\nNo',
  ],
  ['poll.update', { id: 'q1', options: ['Yes', 'Maybe'] }, 'Failed to update poll', 'Yes\nMaybe'],
  ['poll.delete', { id: 'q1' }, 'Failed to perform action', null],
  ['poll.vote', { poll_id: 'q1', poll_option_id: 'o1' }, 'Failed to perform action', null],
  ['poll.unvote', { poll_id: 'q1' }, 'Failed to perform action', null],
])('%s %j → "%s", keeps %j', (name, args, headline, text) => {
  expect(describeRejection({ name, args })).toEqual({ headline, text })
})

test('a mutation this version does not know still gets a headline, and args that are not an object keep nothing', () => {
  expect(describeRejection({ name: 'chat.future' as MutationName, args: { content: 'Hi' } })).toEqual({
    headline: 'A change was not saved',
    text: null,
  })
  expect(describeRejection({ name: 'buble.create', args: null })).toEqual({
    headline: 'Failed to create Buble. Please try again.',
    text: null,
  })
})

test.each([
  ['synced', 0, 'Synced'],
  ['syncing', 2, 'Syncing…'],
  ['offline', 0, 'Offline'],
  ['offline', 3, 'Offline · 3 pending'],
  ['error', 1, 'Sync error'],
] as const)('the header says %s with %i pending as "%s"', (state, pending, label) => {
  expect(statusLabel({ state, pending })).toBe(label)
})

test('synced with refused changes, the description does not claim everything is saved', () => {
  expect(statusDescription({ state: 'synced', notSaved: 0 })).toBe(
    'Everything made on this device is saved on the server.',
  )
  expect(statusDescription({ state: 'synced', notSaved: 1 })).toBe(
    'Everything else made on this device is saved on the server.',
  )
})

test('a failure of the server alone (INTERNAL) reads as such; any other refusal keeps the server’s words', () => {
  expect(rejectionReason({ code: 'INTERNAL', message: 'Something went wrong on the server' })).toBe(
    'The server failed to save this change.',
  )
  expect(INTERNAL_TEXT).toBe('The server failed to save this change.')
  expect(rejectionReason({ code: 'FORBIDDEN', message: 'Only the owner can delete this Buble' })).toBe(
    'Only the owner can delete this Buble',
  )
})

test('a rate-limited change says when it may be tried again, on the device clock; nothing once that time has come', () => {
  const now = Date.parse('2026-11-23T10:00:00.000Z')
  const retryAt = '2026-11-23T10:05:00.000Z'
  // Worked out apart from the app's formatters: the hours and minutes of the device's own clock.
  const local = new Date(retryAt)
  const two = (n: number) => String(n).padStart(2, '0')
  // 10:00 and 10:05 UTC fall on the same day in every time zone.
  expect(tryAgainText(retryAt, now)).toBe(`You can try again at ${two(local.getHours())}:${two(local.getMinutes())}.`)
  expect(tryAgainText('2026-11-25T10:05:00.000Z', now)).toMatch(
    /^You can try again on \d{1,2} \w{3,4} 2026, \d\d:\d\d\.$/,
  )
  expect(tryAgainText(retryAt, Date.parse(retryAt))).toBeNull()
  expect(tryAgainText('2026-11-23T09:59:00.000Z', now)).toBeNull()
  expect(tryAgainText(undefined, now)).toBeNull()
})
