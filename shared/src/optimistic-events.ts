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
import { type Poll, type PollOption, pollOptionId, withVote } from './polls.ts'

type VoteState = { options: PollOption[]; totalVotes: number; userVote: string | null; hasVoted: boolean }

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
function withOptions(row: LocalRow, texts: readonly string[]): VoteState {
  const poll = row as unknown as VoteState
  const options = texts.map((text): PollOption => {
    const id = pollOptionId(row.id, text)
    const kept = poll.options.find((option) => option.id === id)
    return { id, option_text: text, votes_count: kept?.votes_count ?? 0 }
  })
  const userVote = options.some((option) => option.id === poll.userVote) ? poll.userVote : null
  const totalVotes = options.reduce((sum, option) => sum + option.votes_count, 0)
  return { options, totalVotes, userVote, hasVoted: userVote !== null }
}

/** The poll with the actor's vote set (null: removed); a vote for an option it lacks waits for the server's refusal. */
function voted(row: LocalRow, optionId: string | null): LocalRow {
  const poll = row as unknown as VoteState
  if (optionId !== null && !poll.options.some((option) => option.id === optionId)) return row
  return { ...row, ...withVote(poll, optionId) }
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
        options: args.options.map((text) => ({ id: pollOptionId(args.id, text), option_text: text, votes_count: 0 })),
        totalVotes: 0,
        userVote: null,
        hasVoted: false,
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
  'poll.vote': changeRow('polls', 'poll_id', (row, args) => voted(row, args.poll_option_id)),
  'poll.unvote': changeRow('polls', 'poll_id', (row) => voted(row, null)),
}
