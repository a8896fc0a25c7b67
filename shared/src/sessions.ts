/** The devices signed in to an account (issue 24 §4): request and answer shapes, and how a device is named. */

import { z } from 'zod'

/** How often at most a session's last use is written: a request never waits for it (decision 103). */
export const SESSION_TOUCH_INTERVAL_MS = 5 * 60 * 1000

/** One signed-in session of the caller. `current` marks the session whose token asked. */
export const DeviceSession = z.object({
  id: z.string(),
  /** "iPhone", "Android", "macOS", "Windows"…; null when the User-Agent said nothing usable. */
  device: z.string().nullable(),
  /** "Safari", "Chrome", "Firefox"…; null when unknown. */
  browser: z.string().nullable(),
  /** From the operator's trusted place header (a CDN's city or country), else null. */
  place: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string(),
  current: z.boolean(),
})
export type DeviceSession = z.infer<typeof DeviceSession>

export const DeviceSessionList = z.array(DeviceSession)
export type DeviceSessionList = z.infer<typeof DeviceSessionList>

// Not bubles.ts's Uuid: importing it would bring the buble schemas along to the profile.
export const SessionIdParam = z.object({
  id: z.uuid({ error: 'Invalid session id' }).transform((id) => id.toLowerCase()),
})
export type SessionIdParam = z.infer<typeof SessionIdParam>

export const EndSessionsResponse = z.object({ message: z.string(), ended: z.number().int().nonnegative() })
export type EndSessionsResponse = z.infer<typeof EndSessionsResponse>

export const SESSION_MESSAGES = {
  ended: 'Signed out',
  endedOthers: 'Signed out everywhere else',
  signedOut: 'Signed out',
  notFound: 'Session not found',
} as const

/** "Chrome on Android", "Safari on iPhone"; either half may be unknown, and both. */
export function deviceLabel(session: { browser: string | null; device: string | null }): string {
  const { browser, device } = session
  if (browser && device) return `${browser} on ${device}`
  if (browser) return browser
  if (device) return device
  return 'Unknown device'
}
