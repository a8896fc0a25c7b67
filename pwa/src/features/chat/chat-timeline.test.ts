import { describe, expect, test } from 'vitest'
import { chatTimeline, dayLabel, RUN_GAP_MS } from './chat-timeline.ts'

// Moments built in the local time zone, so the table reads the same wherever it runs.
const at = (y: number, mo: number, d: number, h = 12, mi = 0) => new Date(y, mo - 1, d, h, mi).toISOString()
const NOW = new Date(2025, 10, 24, 15, 0).getTime() // Mon 24 Nov 2025, 15:00

describe('dayLabel', () => {
  test.each([
    ['earlier today', at(2025, 11, 24, 0, 1), 'Today'],
    ['later today (a clock ahead)', at(2025, 11, 24, 23, 59), 'Today'],
    ['yesterday, just before midnight', at(2025, 11, 23, 23, 59), 'Yesterday'],
    ['yesterday morning', at(2025, 11, 23, 0, 0), 'Yesterday'],
    ['two days ago', at(2025, 11, 22, 9), 'Sat 22 Nov'],
    ['last month', at(2025, 10, 1), 'Wed 1 Oct'],
    ['another year', at(2024, 11, 22), 'Fri 22 Nov 2024'],
  ])('%s → %s', (_, iso, expected) => {
    expect(dayLabel(iso, NOW)).toBe(expected)
  })

  test('yesterday across a month and a year boundary', () => {
    const newYear = new Date(2026, 0, 1, 8).getTime()
    expect(dayLabel(at(2025, 12, 31, 22), newYear)).toBe('Yesterday')
    expect(dayLabel(at(2025, 12, 30, 22), newYear)).toBe('Tue 30 Dec 2025')
  })
})

const msg = (id: string, sender: string, created_at: string) => ({ id, created_at, sender: { id: sender } })
/** The timeline as short strings: a day as `# label`, a message as `id` with `[` first and `]` last of its run. */
const shape = (messages: ReturnType<typeof msg>[]) =>
  chatTimeline(messages, NOW).map((item) =>
    item.kind === 'day'
      ? `# ${item.label}`
      : `${item.firstOfRun ? '[' : ''}${item.message.id}${item.lastOfRun ? ']' : ''}`,
  )

describe('chatTimeline', () => {
  const gapMinutes = RUN_GAP_MS / 60_000
  test.each([
    ['nothing', [], []],
    ['one message', [msg('a', 'ann', at(2025, 11, 24, 9))], ['# Today', '[a]']],
    [
      'one sender in quick succession is one run',
      [
        msg('a', 'ann', at(2025, 11, 24, 9, 0)),
        msg('b', 'ann', at(2025, 11, 24, 9, 1)),
        msg('c', 'ann', at(2025, 11, 24, 9, 2)),
      ],
      ['# Today', '[a', 'b', 'c]'],
    ],
    [
      'another sender starts a run',
      [
        msg('a', 'ann', at(2025, 11, 24, 9, 0)),
        msg('b', 'ben', at(2025, 11, 24, 9, 1)),
        msg('c', 'ann', at(2025, 11, 24, 9, 2)),
      ],
      ['# Today', '[a]', '[b]', '[c]'],
    ],
    [
      'a pause of exactly the gap keeps the run',
      [msg('a', 'ann', at(2025, 11, 24, 9, 0)), msg('b', 'ann', at(2025, 11, 24, 9, gapMinutes))],
      ['# Today', '[a', 'b]'],
    ],
    [
      'a longer pause starts a new run',
      [msg('a', 'ann', at(2025, 11, 24, 9, 0)), msg('b', 'ann', at(2025, 11, 24, 9, gapMinutes + 1))],
      ['# Today', '[a]', '[b]'],
    ],
    [
      'a new day separates and starts a run, even a minute apart',
      [
        msg('a', 'ann', at(2025, 11, 22, 10)),
        msg('b', 'ann', at(2025, 11, 23, 23, 59)),
        msg('c', 'ann', at(2025, 11, 24, 0, 0)),
        msg('d', 'ben', at(2025, 11, 24, 0, 1)),
      ],
      ['# Sat 22 Nov', '[a]', '# Yesterday', '[b]', '# Today', '[c]', '[d]'],
    ],
  ])('%s', (_, messages, expected) => {
    expect(shape(messages)).toEqual(expected)
  })

  test('each message keeps its own key, each day one', () => {
    const items = chatTimeline([msg('a', 'ann', at(2025, 11, 23)), msg('b', 'ann', at(2025, 11, 24))], NOW)
    const keys = items.map((item) => item.key)
    expect(new Set(keys).size).toBe(keys.length)
  })
})
