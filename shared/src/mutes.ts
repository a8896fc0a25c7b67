/**
 * Muting (issue 24 §2): how long a mute lasts, when it ends, whether it is in force, and the mute
 * body. Its words (the refusal every write of a muted member gets, the answers, the choices' labels)
 * are in mute-texts.ts: they need the time helpers, which the app's first page does not load.
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

/** A control's hint where the mute's end is shown nearby (the banner above it). */
export const MUTED_HERE = 'You are muted in this buble'

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
