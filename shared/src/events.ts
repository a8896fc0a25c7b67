/** Events and RSVPs (CONTRACT §3.3, spec part 2 §2–§5, §9): shapes, bodies and the Event Stats rule. */

import { z } from 'zod'
import { ClientId, type MemberRef } from './bubles.ts'
import { LIMITS } from './constants.ts'
import { RecurrenceRule } from './recurrence.ts'
import { hasControlCharacters, isStorableInstant, STORABLE_YEARS } from './text.ts'

export const RSVP_STATUSES = ['going', 'maybe', 'cant_go'] as const
export type RsvpStatus = (typeof RSVP_STATUSES)[number]
export const RsvpStatusSchema = z.enum(RSVP_STATUSES, { error: 'status must be going, maybe or cant_go' })

export const EDIT_SCOPES = ['all', 'this', 'following'] as const
export type EditScope = (typeof EDIT_SCOPES)[number]
export const EditScopeSchema = z.enum(EDIT_SCOPES, { error: 'scope must be all, this or following' })

/** The buttons of an event card, in their order (spec part 2 §2). */
export const RSVP_LABELS: Readonly<Record<RsvpStatus, string>> = {
  going: 'Going',
  maybe: 'Maybe',
  cant_go: "Can't Go",
}

export const EVENT_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${LIMITS.eventTitle} characters`,
  titleControl: 'Title must not contain control characters',
  descriptionTooLong: `Description must be at most ${LIMITS.eventDescription} characters`,
  locationTooLong: `Location must be at most ${LIMITS.location} characters`,
  timeRequired: 'Event time is required',
  timeInvalid: 'event_time must be a date and time',
  timeInPast: 'This time has already passed: pick a date and time still to come',
  timeOutOfRange: `event_time must fall between the years ${STORABLE_YEARS.min} and ${STORABLE_YEARS.max}`,
  badExternalUrl: 'external_url must be an http or https address',
  eventNotFound: 'Event not found',
  notAllowedToCreate: 'You are not allowed to create events in this Buble',
  notAllowedToManage: 'Only the creator, the owner or a member who manages events can change this event',
} as const

export const EventTitle = z
  .string({ error: EVENT_MESSAGES.titleRequired })
  .trim()
  .min(1, { error: EVENT_MESSAGES.titleRequired })
  .max(LIMITS.eventTitle, { error: EVENT_MESSAGES.titleTooLong })
  .refine((title) => !hasControlCharacters(title), { error: EVENT_MESSAGES.titleControl })

/** Optional text: trimmed, blank is null. */
const OptionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, { error: tooLong })
    .nullish()
    .transform((value) => (value ? value : null))

export const EventDescription = OptionalText(LIMITS.eventDescription, EVENT_MESSAGES.descriptionTooLong)
export const EventLocation = OptionalText(LIMITS.location, EVENT_MESSAGES.locationTooLong)

/** An ISO 8601 date and time (with a zone or offset), stored and answered in UTC. */
export const EventTime = z
  .string({ error: EVENT_MESSAGES.timeRequired })
  .trim()
  .min(1, { error: EVENT_MESSAGES.timeRequired })
  .max(64, { error: EVENT_MESSAGES.timeInvalid })
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && !Number.isNaN(Date.parse(value)), {
    error: EVENT_MESSAGES.timeInvalid,
    abort: true,
  })
  // In UTC, as stored: '9999-12-31T23:59:59-14:00' is already the year 10000.
  .refine((value) => isStorableInstant(Date.parse(value)), { error: EVENT_MESSAGES.timeOutOfRange })
  .transform((value) => new Date(value).toISOString())

export const ExternalUrl = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => /^https?:\/\/[^\s]+$/i.test(value), { error: EVENT_MESSAGES.badExternalUrl })
  .nullish()
  .transform((value) => value ?? null)

export const ExternalSource = z
  .string()
  .trim()
  .max(50)
  .nullish()
  .transform((value) => (value ? value : null))

export const CreateEventBody = z.object({
  id: ClientId.optional(),
  title: EventTitle,
  description: EventDescription,
  location: EventLocation,
  event_time: EventTime,
  external_url: ExternalUrl,
  external_source: ExternalSource,
  /** An RRULE (shared/recurrence.ts); absent or null: the event does not repeat. */
  recurrence: RecurrenceRule,
})
export type CreateEventBody = z.infer<typeof CreateEventBody>

/** `PUT /api/events/:id`: the fields sent change, the rest stay. */
export const UpdateEventBody = z.object({
  title: EventTitle.optional(),
  description: EventDescription.optional(),
  location: EventLocation.optional(),
  event_time: EventTime.optional(),
  /** A new rule; null: the event stops repeating. */
  recurrence: RecurrenceRule.optional(),
  /**
   * Of a repeating event, what the edit changes: every occurrence ('all', the default), the one
   * starting at `occurrence` ('this': it becomes an event of its own, `new_id`), or that one and
   * those after it ('following': a new series `new_id` from it, the old one ends before it).
   */
  scope: EditScopeSchema.optional(),
  occurrence: EventTime.optional(),
  new_id: ClientId.optional(),
})
export type UpdateEventBody = z.infer<typeof UpdateEventBody>

/** `occurrence`: of a repeating event, the start of the one answered (required there, refused elsewhere). */
export const RsvpBody = z.object({ status: RsvpStatusSchema, occurrence: EventTime.optional() })
export type RsvpBody = z.infer<typeof RsvpBody>

export interface Rsvp {
  user_id: string
  status: RsvpStatus
  user: { name: string }
  /** Of a repeating event, the start of the occurrence answered; null for an event that does not repeat. */
  occurrence: string | null
}

export interface BubleEvent {
  id: string
  buble_id: string
  title: string
  description: string | null
  location: string | null
  event_time: string
  creator_id: string
  creator: MemberRef
  created_at: string
  external_url: string | null
  external_source: string | null
  /** An RRULE: the event repeats from `event_time` (shared/recurrence.ts); null: it does not. */
  recurrence: string | null
  /** Occurrences taken out of the series (cancelled, or changed into an event of their own). */
  exdates: string[]
  /** An occurrence changed on its own: its series, and the start it had there. */
  series_id: string | null
  recurrence_id: string | null
  rsvps: Rsvp[]
}

/** Spec part 2 §9: Event Stats shows the top 5. */
export const EVENT_STATS_SIZE = 5

export type EventHeat = 'Hot' | 'Popular' | 'Emerging'

/** Spec part 2 §9: going counts 1, maybe counts 0.5. */
export function eventScore(rsvps: readonly { status: RsvpStatus }[]): number {
  let score = 0
  for (const rsvp of rsvps) score += rsvp.status === 'going' ? 1 : rsvp.status === 'maybe' ? 0.5 : 0
  return score
}

/** "Hot" needs more than one answer of interest (going or maybe): one answer alone is not a crowd. */
export const HOT_MIN_ANSWERS = 2

/**
 * Hot above 0.7 of the best score, Popular above 0.4, else Emerging (spec part 2 §9); an event that
 * would be Hot on fewer than HOT_MIN_ANSWERS answers reads Popular (`answers` omitted: not checked).
 */
export function eventHeat(score: number, maxScore: number, answers = Number.POSITIVE_INFINITY): EventHeat {
  if (maxScore <= 0) return 'Emerging'
  if (score > 0.7 * maxScore) return answers >= HOT_MIN_ANSWERS ? 'Hot' : 'Popular'
  if (score > 0.4 * maxScore) return 'Popular'
  return 'Emerging'
}

/**
 * An event whose time has come (it started, or was set to start, before `now`): marked Past and
 * listed after the upcoming ones, and refused as the time of a new event (decision 80).
 */
export const isPastEventTime = (eventTime: string, now: number): boolean => Date.parse(eventTime) < now

export interface RankedEvent<E> {
  event: E
  going: number
  maybe: number
  score: number
  heat: EventHeat
}

/**
 * Event Stats: the events with any interest (a score above 0), best score first, ties by the
 * sooner event, at most EVENT_STATS_SIZE, each labelled against the best score.
 */
export function rankEvents<E extends { id: string; event_time: string; rsvps: readonly { status: RsvpStatus }[] }>(
  events: readonly E[],
  size = EVENT_STATS_SIZE,
): RankedEvent<E>[] {
  const scored = events
    .map((event) => ({
      event,
      going: event.rsvps.filter((r) => r.status === 'going').length,
      maybe: event.rsvps.filter((r) => r.status === 'maybe').length,
      score: eventScore(event.rsvps),
    }))
    .filter((entry) => entry.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.event.event_time.localeCompare(b.event.event_time) ||
        a.event.id.localeCompare(b.event.id),
    )
    .slice(0, size)
  const max = scored[0]?.score ?? 0
  return scored.map((entry) => ({ ...entry, heat: eventHeat(entry.score, max, entry.going + entry.maybe) }))
}
