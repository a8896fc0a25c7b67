/**
 * What a data export reads: one keyset-paged query per file, each answering one user's own rows in
 * batches, so a member with years of posts never has them all in memory at once.
 */

import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import {
  bubles,
  eventRsvps,
  events,
  memberships,
  pollOptions,
  polls,
  pollVotes,
  pushSubscriptions,
  sessions,
  uploads,
} from '../../db/schema.ts'
import { contentQueries } from './content-queries.ts'
import { after, EXPORT_BATCH, iso, keyset } from './keyset.ts'

export function exportQueries(db: Db, userId: string) {
  const content = contentQueries(db, userId)
  const memberships_ = () =>
    keyset(async (last?: { buble_id: string }) => {
      const rows = await db
        .select({ memberships, name: bubles.name, slug: bubles.slug })
        .from(memberships)
        .innerJoin(bubles, eq(bubles.id, memberships.bubleId))
        .where(and(eq(memberships.userId, userId), after(memberships.bubleId, last?.buble_id)))
        .orderBy(asc(memberships.bubleId))
        .limit(EXPORT_BATCH)
      return rows.map(({ memberships: m, name, slug }) => ({
        buble_id: m.bubleId,
        name,
        slug,
        role: m.role,
        permissions: m.permissions,
        joined_at: iso(m.joinedAt),
      }))
    })

  const events_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(events)
        .where(and(eq(events.creatorId, userId), after(events.id, last?.id)))
        .orderBy(asc(events.id))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        id: row.id,
        buble_id: row.bubleId,
        title: row.title,
        description: row.description,
        location: row.location,
        event_time: iso(row.eventTime),
        external_url: row.externalUrl,
        external_source: row.externalSource,
        created_at: iso(row.createdAt),
      }))
    })

  const rsvps_ = () =>
    // A repeating event has one answer per occurrence: the key is the event and the occurrence.
    keyset(async (last?: { event_id: string; occurrence: string | null }) => {
      const rows = await db
        .select({ rsvp: eventRsvps, title: events.title, eventTime: events.eventTime, bubleId: events.bubleId })
        .from(eventRsvps)
        .innerJoin(events, eq(events.id, eventRsvps.eventId))
        .where(
          and(
            eq(eventRsvps.userId, userId),
            last &&
              sql`(${eventRsvps.eventId}, ${eventRsvps.occurrence}) > (${last.event_id}::uuid, ${last.occurrence ?? ''})`,
          ),
        )
        .orderBy(asc(eventRsvps.eventId), asc(eventRsvps.occurrence))
        .limit(EXPORT_BATCH)
      return rows.map(({ rsvp, title, eventTime, bubleId }) => ({
        event_id: rsvp.eventId,
        buble_id: bubleId,
        event_title: title,
        event_time: iso(eventTime),
        occurrence: rsvp.occurrence || null,
        status: rsvp.status,
        created_at: iso(rsvp.createdAt),
        updated_at: iso(rsvp.updatedAt),
      }))
    })

  const polls_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(polls)
        .where(and(eq(polls.creatorId, userId), after(polls.id, last?.id)))
        .orderBy(asc(polls.id))
        .limit(EXPORT_BATCH)
      // One query for the options of the whole batch, not one per poll.
      const ids = rows.map((row) => row.id)
      const options =
        ids.length === 0
          ? []
          : await db
              .select()
              .from(pollOptions)
              .where(inArray(pollOptions.pollId, ids))
              .orderBy(asc(pollOptions.pollId), asc(pollOptions.position))
      const optionsOf = new Map<string, typeof options>()
      for (const option of options) optionsOf.set(option.pollId, [...(optionsOf.get(option.pollId) ?? []), option])
      // Totals a poll hides until it closes are hidden from its creator too (docs/decisions/0098).
      const shown = (row: (typeof rows)[number]) => !row.hideResults || row.closed
      return rows.map((row) => ({
        id: row.id,
        buble_id: row.bubleId,
        question: row.question,
        options: (optionsOf.get(row.id) ?? []).map((option) => ({
          id: option.id,
          option_text: option.optionText,
          votes_count: shown(row) ? option.votesCount : null,
        })),
        total_votes: shown(row) ? row.totalVotes : null,
        created_at: iso(row.createdAt),
      }))
    })

  // Choices kept in poll_votes only: a secret poll's are nowhere (docs/decisions/0098). A poll of
  // several choices has a row per option, so the key is the pair.
  const votes_ = () =>
    keyset(async (last?: { poll_id: string; option_id: string }) => {
      const rows = await db
        .select({
          vote: pollVotes,
          question: polls.question,
          bubleId: polls.bubleId,
          optionText: pollOptions.optionText,
        })
        .from(pollVotes)
        .innerJoin(polls, eq(polls.id, pollVotes.pollId))
        .innerJoin(pollOptions, eq(pollOptions.id, pollVotes.optionId))
        .where(
          and(
            eq(pollVotes.userId, userId),
            last &&
              sql`(${pollVotes.pollId}, ${pollVotes.optionId}) > (${last.poll_id}::uuid, ${last.option_id}::uuid)`,
          ),
        )
        .orderBy(asc(pollVotes.pollId), asc(pollVotes.optionId))
        .limit(EXPORT_BATCH)
      return rows.map(({ vote, question, bubleId, optionText }) => ({
        poll_id: vote.pollId,
        buble_id: bubleId,
        question,
        option_id: vote.optionId,
        option_text: optionText,
        created_at: iso(vote.createdAt),
      }))
    })

  // Endpoints only: the keys would let anyone holding the file push to the device.
  const pushSubscriptions_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select({
          id: pushSubscriptions.id,
          endpoint: pushSubscriptions.endpoint,
          createdAt: pushSubscriptions.createdAt,
          lastSuccessAt: pushSubscriptions.lastSuccessAt,
        })
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), after(pushSubscriptions.id, last?.id)))
        .orderBy(asc(pushSubscriptions.id))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        id: row.id,
        endpoint: row.endpoint,
        created_at: iso(row.createdAt),
        last_success_at: iso(row.lastSuccessAt),
      }))
    })

  // The devices signed in, as the member's list shows them (decision 103: no address is kept).
  const sessions_ = () =>
    keyset(async (last?: { id: string }) => {
      const rows = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), after(sessions.id, last?.id)))
        .orderBy(asc(sessions.id))
        .limit(EXPORT_BATCH)
      return rows.map((row) => ({
        id: row.id,
        device: row.device,
        browser: row.browser,
        place: row.place,
        created_at: iso(row.createdAt),
        last_used_at: iso(row.lastUsedAt),
        expires_at: iso(row.expiresAt),
      }))
    })

  const uploads_ = () =>
    keyset(async (last?: { key: string }) =>
      db
        .select({ key: uploads.key })
        .from(uploads)
        .where(and(eq(uploads.ownerId, userId), after(uploads.key, last?.key)))
        .orderBy(asc(uploads.key))
        .limit(EXPORT_BATCH),
    )

  /** The JSON files of an export, in the order they are written, each a source of row batches. */
  const files: [name: string, rows: () => AsyncGenerator<object[]>][] = [
    ['memberships.json', memberships_],
    ['posts.json', content.posts],
    ['comments.json', content.comments],
    ['reactions.json', content.reactions],
    ['stories.json', content.stories],
    ['chat-messages.json', content.chatMessages],
    ['events.json', events_],
    ['rsvps.json', rsvps_],
    ['polls.json', polls_],
    ['votes.json', votes_],
    ['push-subscriptions.json', pushSubscriptions_],
    ['sessions.json', sessions_],
  ]
  return { files, uploads: uploads_ }
}
