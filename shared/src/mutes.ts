/**
 * Muting (issue 24 §2): how long a mute lasts, when it ends, whether it is in force, and the mute
 * body. The refusal text every write of a muted member gets is built in mute-message.ts (it needs the
 * time helpers, which the device's first page does not load).
 */

import { z } from 'zod'
import { Uuid } from './bubles.ts'

/** How long a moderator may mute a member for. */
export const MUTE_DURATIONS = ['1h', '1d', '1w', 'indefinite'] as const
export type MuteDuration = (typeof MUTE_DURATIONS)[number]

const HOUR = 60 * 60 * 1000
const DURATION_MS: Record<Exclude<MuteDuration, 'indefinite'>, number> = {
  '1h': HOUR,
  '1d': 24 * HOUR,
  '1w': 7 * 24 * HOUR,
}

/** The choices as the mute menu names them. */
export const MUTE_DURATION_LABELS: Readonly<Record<MuteDuration, string>> = {
  '1h': '1 hour',
  '1d': '1 day',
  '1w': '1 week',
  indefinite: 'Until unmuted',
}

/**
 * A mute "until unmuted" is stored as this far instant (decision 0100): one column, one comparison
 * (`now < muted_until`) for every mute, on the server, in SQL and on the device.
 */
export const MUTED_INDEFINITELY = '9999-12-31T00:00:00.000Z'
const INDEFINITE_MS = Date.parse(MUTED_INDEFINITELY)

/** When a mute of `duration` begun at `now` ends; null: it lasts until a moderator unmutes. */
export function muteEnd(duration: MuteDuration, now: Date): Date | null {
  return duration === 'indefinite' ? null : new Date(now.getTime() + DURATION_MS[duration])
}

/** What the member row stores for a mute of `duration` begun at `now` (the far instant for "until unmuted"). */
export const mutedUntilFor = (duration: MuteDuration, now: Date): Date =>
  muteEnd(duration, now) ?? new Date(MUTED_INDEFINITELY)

type Instant = string | Date | null | undefined
const msOf = (at: Instant): number => (at == null ? Number.NaN : typeof at === 'string' ? Date.parse(at) : at.getTime())

/** Whether a member whose row says `mutedUntil` is muted at `now`: a mute is in force while now < muted_until. */
export const isMutedAt = (mutedUntil: Instant, now: Date | number): boolean =>
  msOf(mutedUntil) > (typeof now === 'number' ? now : now.getTime())

/** Whether a stored end means "until unmuted". */
export const isIndefiniteMute = (mutedUntil: Instant): boolean => msOf(mutedUntil) >= INDEFINITE_MS

export const MUTE_MESSAGES = {
  muted: 'Member muted',
  unmuted: 'Member unmuted',
  noModerate: 'You are not allowed to mute members',
  notReached: 'You cannot mute this member',
  notYourself: 'You cannot mute yourself',
  indefinitely: 'You are muted in this buble until a moderator unmutes you',
  /** Where the end is shown nearby (the banner above): a control's hint. */
  mutedHere: 'You are muted in this buble',
} as const

export const MuteDurationSchema = z.enum(MUTE_DURATIONS, {
  error: `duration must be one of ${MUTE_DURATIONS.join(', ')}`,
})

/** `POST /api/bubles/:id/members/:userId/mute`. */
export const MuteBody = z.object({ duration: MuteDurationSchema })
export type MuteBody = z.infer<typeof MuteBody>

export const MuteTarget = z.object({
  buble_id: Uuid('buble_id must be a UUID'),
  user_id: Uuid('user_id must be a UUID'),
})

/** The answer to a mute or an unmute: what happened, and the member's end (null: not muted). */
export const MuteResponse = z.object({ message: z.string(), muted_until: z.string().nullable() })
export type MuteResponse = z.infer<typeof MuteResponse>
