/**
 * The one refusal text of issue 24 §2, for REST, sync and the device alike: "You are muted in this
 * buble until Sat 29 Nov, 19:00 CET" (Stockholm time, as the app shows times), or for a mute without
 * an end "… until a moderator unmutes you". Apart from mutes.ts so that only what shows it loads time.ts.
 */

import { isIndefiniteMute, MUTE_MESSAGES } from './mutes.ts'
import { DISPLAY_TIME_ZONE, formatZonedEventTime } from './time.ts'

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
