/**
 * How the chat lays its messages out: a day separator before each new day, and runs of messages
 * from one sender (one name and avatar per run) broken by another sender, a new day or a pause.
 * Pure, so the rules are tested as a table (chat-timeline.test.ts).
 */

/** A pause longer than this starts a new run, even from the same sender. */
export const RUN_GAP_MS = 5 * 60_000

export interface TimelineMessage {
  id: string
  created_at: string
  sender: { id: string }
}

export type TimelineItem<M extends TimelineMessage> =
  | { kind: 'day'; key: string; label: string }
  | { kind: 'message'; key: string; message: M; firstOfRun: boolean; lastOfRun: boolean }

const WEEKDAY_DAY_MONTH = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'short' })
const WEEKDAY_DAY_MONTH_YEAR = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
})

/** The local calendar day of a moment, as 'YYYY-MM-DD' (compared, never shown). */
export function dayKey(at: Date): string {
  const month = String(at.getMonth() + 1).padStart(2, '0')
  const day = String(at.getDate()).padStart(2, '0')
  return `${at.getFullYear()}-${month}-${day}`
}

/** "Today", "Yesterday", "Sat 22 Nov", or "Fri 22 Nov 2024" for another year, in the viewer's time zone. */
export function dayLabel(iso: string, now: number): string {
  const at = new Date(iso)
  const today = new Date(now)
  if (dayKey(at) === dayKey(today)) return 'Today'
  const yesterday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - 1)
  if (dayKey(at) === dayKey(yesterday)) return 'Yesterday'
  // en-GB writes "Sat 22 Nov" with no comma; some engines add one after the weekday.
  const format = at.getFullYear() === today.getFullYear() ? WEEKDAY_DAY_MONTH : WEEKDAY_DAY_MONTH_YEAR
  return format.format(at).replace(',', '')
}

/** The messages (oldest first) with a separator before each day, each marked first/last of its run. */
export function chatTimeline<M extends TimelineMessage>(messages: readonly M[], now: number): TimelineItem<M>[] {
  const items: TimelineItem<M>[] = []
  let previous: M | undefined
  let lastMessage: Extract<TimelineItem<M>, { kind: 'message' }> | undefined
  for (const message of messages) {
    const day = dayKey(new Date(message.created_at))
    const newDay = !previous || dayKey(new Date(previous.created_at)) !== day
    if (newDay) items.push({ kind: 'day', key: `day-${day}`, label: dayLabel(message.created_at, now) })
    const firstOfRun =
      newDay ||
      previous?.sender.id !== message.sender.id ||
      Date.parse(message.created_at) - Date.parse(previous?.created_at ?? message.created_at) > RUN_GAP_MS
    if (firstOfRun && lastMessage) lastMessage.lastOfRun = true
    lastMessage = { kind: 'message', key: message.id, message, firstOfRun, lastOfRun: false }
    items.push(lastMessage)
    previous = message
  }
  if (lastMessage) lastMessage.lastOfRun = true
  return items
}
