/** The profile's Calendar section: event reminders and the private calendar link (issue 23 §3). */

import type { ReminderChoice } from '@buble/shared/calendar'

export const CALENDAR_TEXTS = {
  title: 'Calendar',
  loading: 'Loading your calendar settings…',
  failed: 'Failed to load calendar settings',
  offline: 'You are offline. Connect to the internet to see your calendar settings.',
  tryAgain: 'Try Again',
  reminderLabel: 'Remind me of events',
  reminderHint: 'A notification before events you are going or maybe going to.',
  reminderSaved: 'Reminder saved',
  reminderFailed: 'Could not save your reminder. Check your connection and try again.',
  feedLabel: 'Your calendar link',
  feedHint:
    'Add it to Google Calendar, Apple Calendar or Thunderbird to see the events of all your Bubles there. Keep it to yourself: anyone with the link can see them.',
  copy: 'Copy',
  copied: 'Copied!',
  subscribe: 'Open in calendar app',
  reset: 'Reset link',
  resetTitle: 'Reset calendar link?',
  resetBody: 'The old link stops working. Calendars that use it stop updating until you add the new one.',
  resetConfirm: 'Reset link',
  resetBusy: 'Resetting…',
  resetFailed: 'Could not reset the link. Check your connection and try again.',
  resetDone: 'Your calendar link was reset',
} as const

export const REMINDER_OPTIONS: readonly { value: ReminderChoice; label: string }[] = [
  { value: 'none', label: 'Never' },
  { value: '1h', label: '1 hour before' },
  { value: '1d', label: '1 day before' },
]
