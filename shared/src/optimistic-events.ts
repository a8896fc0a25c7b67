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
} from './device-rows.ts'
import type { BubleEvent, Rsvp } from './events.ts'
import type { EVENT_MUTATIONS, POLL_MUTATIONS } from './mutations.ts'
import { chosenOptionIds, type Poll, type PollOption, pollOptionId, withVote } from './polls.ts'

type VoteState = Pick<
  Poll,
  'options' | 'totalVotes' | 'votersCount' | 'userVote' | 'userVotes' | 'hasVoted' | 'secret' | 'hide_results'
>

/** The actor's answer in place of their earlier one (where it stood), or added last. */
function withRsvp(row: LocalRow, actor: DeviceAuthor, status: Rsvp['status']): LocalRow {
  const rsvps = (row.rsvps as Rsvp[] | undefined) ?? []
  const mine: Rsvp = { user_id: actor.id, status, user: { name: actor.name } }
  const at = rsvps.findIndex((rsvp) => rsvp.user_id === actor.id)
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
        rsvps: [],
      }) satisfies BubleEvent,
  ),
  'event.update': editRow('events', (_row, { id: _id, ...fields }) => definedOf(fields)),
  'event.delete': deleteRow('events'),
  'event.rsvp': changeRow('events', 'event_id', (row, args, actor) => withRsvp(row, actor, args.status)),
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
