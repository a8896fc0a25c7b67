/** The private calendar feed and event reminders of a member (issue 23 §3). */

import { z } from 'zod'

/** When a member is reminded of an event they are going or maybe going to. */
export const ReminderChoice = z.enum(['none', '1h', '1d'])
export type ReminderChoice = z.infer<typeof ReminderChoice>

export const DEFAULT_REMINDER: ReminderChoice = '1h'

/** How long before an event's start each choice reminds. */
export const REMINDER_LEAD_MS: Record<Exclude<ReminderChoice, 'none'>, number> = {
  '1h': 60 * 60 * 1000,
  '1d': 24 * 60 * 60 * 1000,
}

/** The reminder's notification title, in the spec's tone. */
export const reminderTitle = (eventTitle: string, choice: Exclude<ReminderChoice, 'none'>): string =>
  `${eventTitle} starts ${choice === '1h' ? 'in 1 hour' : 'tomorrow'}`

/** A member's calendar settings: the reminder choice and their secret feed's address. */
export const CalendarSettings = z.object({
  reminder: ReminderChoice,
  /** `webcal://…/api/calendar/<secret>.ics`, for Apple Calendar and Thunderbird. */
  feed_url: z.string(),
  /** The same feed over http(s), for Google Calendar's "From URL". */
  feed_http_url: z.string(),
})
export type CalendarSettings = z.infer<typeof CalendarSettings>

export const UpdateCalendarSettingsBody = z.strictObject({ reminder: ReminderChoice })
export type UpdateCalendarSettingsBody = z.infer<typeof UpdateCalendarSettingsBody>
