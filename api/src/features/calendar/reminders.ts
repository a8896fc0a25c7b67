/**
 * Event reminders (issue 23 §3, decision 96): each minute one node (the job's advisory lock) finds
 * the members going or maybe going to an event whose reminder time has come, claims each reminder
 * in `event_reminders_sent` (event, member, start) and pushes only those it claimed, after the
 * commit. A claim already there (another run, another node) is skipped, so a reminder goes once;
 * an event moved to a new start is reminded of again. A repeating event reminds its members of
 * each occurrence they answered going or maybe to (decision 97). Deleted events are gone with their RSVPs.
 */

import { REMINDER_LEAD_MS, type ReminderChoice, reminderTitle } from '@buble/shared/calendar'
import { and, eq, gt, inArray, isNotNull, lt, lte, ne, or } from 'drizzle-orm'
import type { Tx } from '../../db/client.ts'
import { bubles, eventRemindersSent, eventRsvps, events, memberships, users } from '../../db/schema.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import type { ContentAdded } from '../../lib/content-added.ts'
import { eventOccurrences } from '../../lib/event-occurrences.ts'
import type { Job } from '../../lib/jobs.ts'

export const EVENT_REMINDER_JOB_LOCK = ADVISORY_LOCKS.eventReminderJob

/**
 * A reminder whose time passed longer ago than this is dropped, not sent late (the servers were
 * down): "starts in 1 hour" half an hour after the event began would only confuse.
 */
export const REMINDER_GRACE_MS = 15 * 60_000
/** Claims are kept this long after their start, then cleared (a moved event needs only the recent ones). */
const CLAIMS_KEPT_MS = 2 * 24 * 60 * 60 * 1000
const LONGEST_LEAD_MS = Math.max(...Object.values(REMINDER_LEAD_MS))

type Lead = Exclude<ReminderChoice, 'none'>

interface Due {
  eventId: string
  userId: string
  startsAt: Date
  lead: Lead
}

/** The reminders due at `now`: for each start of each event soon enough, each member who asked for one then. */
async function dueReminders(tx: Tx, now: Date): Promise<Due[]> {
  const until = new Date(now.getTime() + LONGEST_LEAD_MS)
  // A repeating event (decision 97) that began before may have an occurrence soon: its occurrences are looked at.
  const soon = await tx
    .select({ id: events.id, eventTime: events.eventTime, recurrence: events.recurrence, exdates: events.exdates })
    .from(events)
    .where(
      or(
        and(gt(events.eventTime, now), lte(events.eventTime, until)),
        and(isNotNull(events.recurrence), lte(events.eventTime, until)),
      ),
    )
  if (soon.length === 0) return []
  const answers = await tx
    .select({
      eventId: eventRsvps.eventId,
      userId: eventRsvps.userId,
      occurrence: eventRsvps.occurrence,
      reminder: users.eventReminder,
    })
    .from(eventRsvps)
    .innerJoin(events, eq(events.id, eventRsvps.eventId))
    .innerJoin(users, eq(users.id, eventRsvps.userId))
    // Still a member of the event's buble.
    .innerJoin(memberships, and(eq(memberships.bubleId, events.bubleId), eq(memberships.userId, eventRsvps.userId)))
    .where(
      and(
        inArray(
          eventRsvps.eventId,
          soon.map((event) => event.id),
        ),
        inArray(eventRsvps.status, ['going', 'maybe']),
        eq(users.status, 'active'),
        ne(users.eventReminder, 'none'),
      ),
    )
  const answersOf = new Map<string, typeof answers>()
  for (const answer of answers) {
    const list = answersOf.get(answer.eventId)
    if (list) list.push(answer)
    else answersOf.set(answer.eventId, [answer])
  }
  const due: Due[] = []
  for (const event of soon) {
    // Only events someone asked to be reminded of are expanded (a series' occurrences cost the most).
    const asked = answersOf.get(event.id)
    if (!asked) continue
    const starts = eventOccurrences(event, now, new Date(now.getTime() + LONGEST_LEAD_MS + 1))
    for (const answer of asked) {
      if (answer.reminder === 'none') continue
      const lead = answer.reminder
      for (const startsAt of starts) {
        // Of a repeating event, an answer is to one occurrence ('' : the event's one start).
        if (answer.occurrence !== '' && answer.occurrence !== startsAt.toISOString()) continue
        const remindAt = startsAt.getTime() - REMINDER_LEAD_MS[lead]
        if (remindAt <= now.getTime() && remindAt > now.getTime() - REMINDER_GRACE_MS)
          due.push({ eventId: event.id, userId: answer.userId, startsAt, lead })
      }
    }
  }
  return due
}

/** Claims the reminders not claimed before; answers the notifications to push for those claimed here. */
export async function claimReminders(tx: Tx, now: Date): Promise<ContentAdded[]> {
  await tx.delete(eventRemindersSent).where(lt(eventRemindersSent.startsAt, new Date(now.getTime() - CLAIMS_KEPT_MS)))
  const due = await dueReminders(tx, now)
  if (due.length === 0) return []
  // A claim another run holds uncommitted waits for it, then counts as taken.
  const claimed = await tx
    .insert(eventRemindersSent)
    .values(due.map(({ eventId, userId, startsAt }) => ({ eventId, userId, startsAt, sentAt: now })))
    .onConflictDoNothing()
    .returning()
  if (claimed.length === 0) return []
  const leadOf = new Map(due.map((d) => [`${d.eventId}:${d.userId}:${d.startsAt.getTime()}`, d.lead]))
  const details = await tx
    .select({
      id: events.id,
      title: events.title,
      location: events.location,
      bubleId: events.bubleId,
      bubleName: bubles.name,
    })
    .from(events)
    .innerJoin(bubles, eq(bubles.id, events.bubleId))
    .where(
      inArray(
        events.id,
        claimed.map((c) => c.eventId),
      ),
    )
  const byId = new Map(details.map((d) => [d.id, d]))
  // One notification per event, start and lead, naming its members.
  const notices = new Map<string, ContentAdded & { recipients: string[] }>()
  for (const claim of claimed) {
    const event = byId.get(claim.eventId)
    const lead = leadOf.get(`${claim.eventId}:${claim.userId}:${claim.startsAt.getTime()}`)
    if (!event || !lead) continue
    const key = `${claim.eventId}:${claim.startsAt.getTime()}:${lead}`
    const notice = notices.get(key) ?? {
      bubleId: event.bubleId,
      contentType: 'events',
      // Nobody's own doing: no member is left out as its author.
      actorId: '',
      title: reminderTitle(event.title, lead),
      body: event.location ? `${event.bubleName} · ${event.location}` : event.bubleName,
      recipients: [],
    }
    notice.recipients.push(claim.userId)
    notices.set(key, notice)
  }
  return [...notices.values()]
}

/** The per-minute job; `push` hears each reminder once its claim has committed. */
export function reminderJob(push: (notice: ContentAdded) => void): Job {
  return {
    name: 'event-reminders',
    lockKey: EVENT_REMINDER_JOB_LOCK,
    async run(tx, now) {
      const notices = await claimReminders(tx, now)
      return () => {
        for (const notice of notices) push(notice)
      }
    },
  }
}
