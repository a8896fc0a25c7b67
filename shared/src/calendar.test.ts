import { describe, expect, test } from 'vitest'
import { DEFAULT_REMINDER, REMINDER_LEAD_MS, ReminderChoice, reminderTitle } from './calendar.ts'

describe('event reminders', () => {
  test.each([
    ['1h', 'Book night starts in 1 hour', 60 * 60 * 1000],
    ['1d', 'Book night starts tomorrow', 24 * 60 * 60 * 1000],
  ] as const)('%s: "%s", %i ms before', (choice, title, lead) => {
    expect(reminderTitle('Book night', choice)).toBe(title)
    expect(REMINDER_LEAD_MS[choice]).toBe(lead)
  })

  test('three choices, 1 hour by default', () => {
    expect(ReminderChoice.options).toEqual(['none', '1h', '1d'])
    expect(DEFAULT_REMINDER).toBe('1h')
    expect(ReminderChoice.safeParse('2h').success).toBe(false)
  })
})
