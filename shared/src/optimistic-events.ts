/**
 * What events, RSVPs, polls and votes do on the device before the server answers. Rows take the
 * server's shape (CONTRACT §3.3) so screens need not tell them apart. A create or an edit reads
 * 'Sending…' (`_pending`); an RSVP or a vote changes the row without that mark. Each sets values
 * from its args (the actor's RSVP, the actor's vote), so a re-run over pulled rows changes nothing more.
 */

import {
  changeRow,
  createRow,
  type DeviceAuthor,
  deleteRow,
  editRow,
  type LocalRow,
  memberRefOf,
  type OptimisticOf,
  updateRow,
} from './device-rows.ts'
import type { BubleEvent, Rsvp } from './events.ts'
import type { EVENT_MUTATIONS, MutationArgs, POLL_MUTATIONS } from './mutations.ts'
import { chosenOptionIds, type Poll, type PollOption, pollOptionId, withVote } from './polls.ts'
import { isOccurrence, splitSeries } from './recurrence.ts'

type VoteState = Pick<
  Poll,
  'options' | 'totalVotes' | 'votersCount' | 'userVote' | 'userVotes' | 'hasVoted' | 'secret' | 'hide_results'
>

/** The actor's answer (to one occurrence of a repeating event) in place of their earlier one (where it stood), or added last. */
function withRsvp(row: LocalRow, actor: DeviceAuthor, status: Rsvp['status'], occurrence?: string): LocalRow {
  const rsvps = (row.rsvps as Rsvp[] | undefined) ?? []
  const key = occurrence ?? null
  const mine: Rsvp = { user_id: actor.id, status, user: { name: actor.name }, occurrence: key }
  const at = rsvps.findIndex((rsvp) => rsvp.user_id === actor.id && (rsvp.occurrence ?? null) === key)
  return { ...row, rsvps: at < 0 ? [...rsvps, mine] : rsvps.map((rsvp, i) => (i === at ? mine : rsvp)) }
}

/**
 * A poll's options after an edit (the server's rule, shared/polls.ts): an option whose text stays
 * keeps its id and votes, a new one starts at none, and votes for a removed one go with it.
 */
function withOptions(row: LocalRow, texts: readonly string[]): Partial<VoteState> {
  const poll = row as unknown as VoteState
  // A secret poll's options are fixed once someone voted (the server refuses the edit).
  if (poll.secret && (poll.votersCount ?? 0) > 0) return {}
  const hidden = poll.totalVotes === null
  const options = texts.map((text): PollOption => {
    const id = pollOptionId(row.id, text)
    const kept = poll.options.find((option) => option.id === id)
    return { id, option_text: text, votes_count: hidden ? null : (kept?.votes_count ?? 0) }
  })
  const mine = (poll.userVotes ?? (poll.userVote ? [poll.userVote] : [])).filter((id) =>
    options.some((option) => option.id === id),
  )
  const totalVotes = hidden ? null : options.reduce((sum, option) => sum + (option.votes_count ?? 0), 0)
  if (poll.secret) return { options, totalVotes }
  return { options, totalVotes, userVote: mine[0] ?? null, userVotes: mine, hasVoted: mine.length > 0 }
}

/** The poll with the actor's choices set (none: removed); a vote for an option it lacks waits for the server's refusal. */
function voted(row: LocalRow, optionIds: readonly string[]): LocalRow {
  const poll = row as unknown as VoteState
  if (!optionIds.every((id) => poll.options.some((option) => option.id === id))) return row
  return { ...row, ...withVote(poll, optionIds) }
}

/** Only the fields an edit sends change (UpdateEventBody: absent means kept). */
const definedOf = (fields: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))

type EventEdit = MutationArgs<'event.update'>
const shifted = (iso: string, by: number) => new Date(Date.parse(iso) + by).toISOString()

/**
 * "This event" and "This and following events" (decision 97), as the server does them: the series
 * changes (a date taken out, or its rule ended before the occurrence) and a new row `new_id` holds
 * the occurrence (or the rest of the series) with the edit's fields and the answers that follow it.
 */
function editOccurrences(
  series: BubleEvent,
  { scope, occurrence, new_id: newId, id: _id, ...fields }: EventEdit & { occurrence: string; new_id: string },
): { series: Partial<BubleEvent>; created: BubleEvent | null } {
  const changes = definedOf(fields) as Partial<BubleEvent>
  const at = new Date(occurrence).toISOString()
  const base = { ...series, ...changes, id: newId, exdates: [] as string[], series_id: null, recurrence_id: null }
  if (scope === 'this')
    return {
      series: { exdates: [...series.exdates, at], rsvps: series.rsvps.filter((rsvp) => rsvp.occurrence !== at) },
      created: {
        ...base,
        event_time: fields.event_time ?? at,
        recurrence: null,
        series_id: series.id,
        recurrence_id: at,
        rsvps: series.rsvps.filter((rsvp) => rsvp.occurrence === at).map((rsvp) => ({ ...rsvp, occurrence: null })),
      },
    }
  // From the first occurrence on is every occurrence.
  if (at === new Date(series.event_time).toISOString() || series.recurrence === null)
    return { series: changes, created: null }
  const start = fields.event_time ?? at
  const by = Date.parse(start) - Date.parse(at)
  const { before, after } = splitSeries({ ...series, recurrence: series.recurrence }, at, start, fields.recurrence)
  const later = series.exdates.filter((date) => date >= at)
  const next = { event_time: start, recurrence: after, exdates: later.map((date) => shifted(date, by)) }
  const rsvps = series.rsvps.flatMap((rsvp): Rsvp[] => {
    if (rsvp.occurrence === null || rsvp.occurrence < at) return []
    const moved = shifted(rsvp.occurrence, by)
    if (after === null) return moved === start ? [{ ...rsvp, occurrence: null }] : []
    return isOccurrence(next, moved) ? [{ ...rsvp, occurrence: moved }] : []
  })
  return {
    series: {
      recurrence: before,
      exdates: series.exdates.filter((date) => date < at),
      rsvps: series.rsvps.filter((rsvp) => rsvp.occurrence === null || rsvp.occurrence < at),
    },
    created: { ...base, event_time: start, recurrence: after, exdates: after === null ? [] : next.exdates, rsvps },
  }
}

/** One occurrence cancelled: taken out of the series, with its answers. */
const withoutOccurrence = (row: LocalRow, occurrence: string): LocalRow => {
  const at = new Date(occurrence).toISOString()
  const event = row as unknown as BubleEvent
  return {
    ...row,
    exdates: [...(event.exdates ?? []).filter((date) => date !== at), at],
    rsvps: (event.rsvps ?? []).filter((rsvp) => rsvp.occurrence !== at),
    _pending: true,
  }
}

const plainEdit = editRow<{ id: string }>('events', (_row, { id: _id, ...fields }) => definedOf(fields))
const plainDelete = deleteRow<{ id: string }>('events')

export const EVENTS_OPTIMISTIC: OptimisticOf<typeof EVENT_MUTATIONS & typeof POLL_MUTATIONS> = {
  // The args are the event's own fields (validated, blanks as null): the row is them and its maker.
  'event.create': createRow(
    'events',
    (args, actor, createdAt) =>
      ({
        ...args,
        creator_id: actor.id,
        creator: memberRefOf(actor),
        created_at: createdAt,
        exdates: [],
        series_id: null,
        recurrence_id: null,
        rsvps: [],
      }) satisfies BubleEvent,
  ),
  'event.update': {
    touches: (args) => [
      { table: 'events', id: args.id },
      ...(args.new_id ? [{ table: 'events', id: args.new_id }] : []),
    ],
    async apply(store, args, author, createdAt) {
      const { occurrence, new_id: newId } = args
      if (!args.scope || args.scope === 'all' || occurrence === undefined || newId === undefined) {
        const { id: _id, scope: _scope, occurrence: _at, new_id: _new, ...fields } = args
        return plainEdit.apply(store, { id: args.id, ...fields }, author, createdAt)
      }
      const row = await store.get('events', args.id)
      // Its new event already here: the edit is in these rows (run again, or pulled from the server).
      if (!row || (await store.get('events', newId))) return
      const { series, created } = editOccurrences(row as unknown as BubleEvent, { ...args, occurrence, new_id: newId })
      await store.put('events', { ...row, ...series, _pending: true })
      if (created) await store.put('events', { ...(created as unknown as LocalRow), _pending: true })
    },
  },
  'event.delete': {
    touches: (args) => [{ table: 'events', id: args.id }],
    apply: (store, args, author, createdAt) =>
      args.occurrence === undefined
        ? plainDelete.apply(store, args, author, createdAt)
        : updateRow(store, 'events', args.id, (row) => withoutOccurrence(row, args.occurrence as string)),
  },
  'event.rsvp': changeRow('events', 'event_id', (row, args, actor) =>
    withRsvp(row, actor, args.status, args.occurrence),
  ),
  // Option ids are derived as the server derives them, so a vote can follow a poll made offline.
  'poll.create': createRow(
    'polls',
    (args, actor, createdAt) =>
      ({
        id: args.id,
        buble_id: args.buble_id,
        question: args.question,
        options: args.options.map((text) => ({
          id: pollOptionId(args.id, text),
          option_text: text,
          votes_count: args.hide_results ? null : 0,
        })),
        totalVotes: args.hide_results ? null : 0,
        votersCount: 0,
        userVote: null,
        userVotes: [],
        hasVoted: false,
        closes_at: args.closes_at ?? null,
        closed: false,
        multiple: args.multiple ?? false,
        hide_results: args.hide_results ?? false,
        secret: args.secret ?? false,
        created_at: createdAt,
        creator: memberRefOf(actor),
        creator_id: actor.id,
      }) satisfies Poll,
  ),
  'poll.update': editRow('polls', (row, args) => ({
    ...(args.question !== undefined && { question: args.question }),
    ...(args.options !== undefined && withOptions(row, args.options)),
  })),
  'poll.delete': deleteRow('polls'),
  'poll.vote': changeRow('polls', 'poll_id', (row, args) => voted(row, chosenOptionIds(args))),
  // A secret vote is final: the server refuses its unvote, and the device does not pretend.
  'poll.unvote': changeRow('polls', 'poll_id', (row) => ((row as unknown as VoteState).secret ? row : voted(row, []))),
}
