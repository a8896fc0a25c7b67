/**
 * The one refusal text of issue 24 §2, for REST, sync and the device alike: "You are muted in this
 * buble until Sat 29 Nov, 19:00 CET" (Stockholm time, as the app shows times), or for a mute without
 * an end "… until a moderator unmutes you"; and the other words of muting. Apart from mutes.ts so that
 * only what shows them loads time.ts.
 */

import { z } from 'zod'
import { isIndefiniteMute, type MuteDuration } from './mutes.ts'
import { DISPLAY_TIME_ZONE, formatZonedEventTime } from './time.ts'

/** The choices as the mute menu names them. */
export const MUTE_DURATION_LABELS: Readonly<Record<MuteDuration, string>> = {
  '1h': '1 hour',
  '1d': '1 day',
  '1w': '1 week',
  indefinite: 'Until unmuted',
}

export const MUTE_MESSAGES = {
  muted: 'Member muted',
  unmuted: 'Member unmuted',
  noModerate: 'You are not allowed to mute members',
  notReached: 'You cannot mute this member',
  notYourself: 'You cannot mute yourself',
  indefinitely: 'You are muted in this buble until a moderator unmutes you',
} as const

/** The answer to a mute or an unmute: what happened, and the member's end (null: not muted). */
export const MuteResponse = z.object({ message: z.string(), muted_until: z.string().nullable() })
export type MuteResponse = z.infer<typeof MuteResponse>

/** The end of a mute as the app shows it: Stockholm time with its zone, e.g. 'Sat 29 Nov, 19:00 CET'. */
export const formatMuteEnd = (mutedUntil: string | Date, now: Date | number = Date.now()): string =>
  formatZonedEventTime(typeof mutedUntil === 'string' ? mutedUntil : mutedUntil.toISOString(), DISPLAY_TIME_ZONE, now)

/**
 * The refusal every write of a muted member gets, and the banner's text: "You are muted in this
 * buble until Sat 29 Nov, 19:00 CET", or, for a mute without an end, "… until a moderator unmutes you".
 */
export function mutedMessage(mutedUntil: string | Date, now: Date | number = Date.now()): string {
  if (isIndefiniteMute(mutedUntil)) return MUTE_MESSAGES.indefinitely
  return `You are muted in this buble until ${formatMuteEnd(mutedUntil, now)}`
}
