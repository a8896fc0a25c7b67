/** Polls and votes (CONTRACT §3.3, spec part 2 §2–§5, §9): shapes, bodies, participation labels. */

import { v5 as uuidv5 } from 'uuid'
import { z } from 'zod'
import { ClientId, type MemberRef, Uuid } from './bubles.ts'
import { LIMITS } from './constants.ts'
import { isStorableInstant } from './text.ts'

/** Spec part 2 §9: a poll has 2 to 10 options. */
export const POLL_MIN_OPTIONS = 2
export const POLL_MAX_OPTIONS = 10
/** The Latest Polls widget: 3 polls, the first 3 options of each. */
export const LATEST_POLLS_COUNT = 3
export const LATEST_POLL_OPTIONS = 3

export const POLL_MESSAGES = {
  questionRequired: 'Question is required',
  questionTooLong: `Question must be at most ${LIMITS.pollQuestion} characters`,
  optionRequired: 'Options must not be empty',
  optionTooLong: `An option may be at most ${LIMITS.pollOption} characters`,
  tooFewOptions: `A poll needs at least ${POLL_MIN_OPTIONS} options`,
  tooManyOptions: `A poll may have at most ${POLL_MAX_OPTIONS} options`,
  duplicateOptions: 'Options must differ from each other',
  pollNotFound: 'Poll not found',
  optionNotInPoll: 'poll_option_id is not an option of this poll',
  notAllowedToCreate: 'You are not allowed to create polls in this Buble',
  notAllowedToManage: 'Only the creator, the owner or a member who manages polls can change this poll',
  closesAtInvalid: 'closes_at must be a date and time, e.g. 2026-06-01T18:00:00Z',
  closesAtPast: 'The closing time must be in the future',
  hiddenNeedsClosing: 'Results can be hidden until the poll closes: set a closing time',
  chooseOption: 'Choose an option',
  oneChoiceOnly: 'This poll takes one choice',
  duplicateChoices: 'Choose each option once',
  secretFinal: 'Your vote in a secret poll is final: it cannot be changed or taken back',
  secretOptionsFixed: 'The options of a secret poll cannot change once someone has voted',
} as const

/** The refusal of a vote after the poll's closing time (409), in UTC: "This poll closed at 2026-06-01 18:00 UTC". */
export const pollClosedMessage = (closesAt: string | Date): string =>
  `This poll closed at ${new Date(closesAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`

export const PollQuestion = z
  .string({ error: POLL_MESSAGES.questionRequired })
  .trim()
  .min(1, { error: POLL_MESSAGES.questionRequired })
  .max(LIMITS.pollQuestion, { error: POLL_MESSAGES.questionTooLong })

export const PollOptionText = z
  .string({ error: POLL_MESSAGES.optionRequired })
  .trim()
  .min(1, { error: POLL_MESSAGES.optionRequired })
  .max(LIMITS.pollOption, { error: POLL_MESSAGES.optionTooLong })

export const PollOptions = z
  .array(PollOptionText, { error: POLL_MESSAGES.tooFewOptions })
  .min(POLL_MIN_OPTIONS, { error: POLL_MESSAGES.tooFewOptions })
  .max(POLL_MAX_OPTIONS, { error: POLL_MESSAGES.tooManyOptions })
  .refine((options) => new Set(options.map((o) => o.toLowerCase())).size === options.length, {
    error: POLL_MESSAGES.duplicateOptions,
  })

/** An ISO 8601 date and time with a zone, answered in UTC (the service checks it is in the future). */
export const PollClosesAt = z
  .string({ error: POLL_MESSAGES.closesAtInvalid })
  .trim()
  .max(64, { error: POLL_MESSAGES.closesAtInvalid })
  .refine((value) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value) && isStorableInstant(Date.parse(value)), {
    error: POLL_MESSAGES.closesAtInvalid,
  })
  .transform((value) => new Date(value).toISOString())

/**
 * A new poll. Its settings are fixed once made (docs/decisions/0098): `closes_at` (none: open
 * until deleted), `multiple` (several choices), `hide_results` (totals sent to nobody until the
 * poll closes; needs `closes_at`), `secret` (nobody can see who chose what; a vote is final).
 */
export const CreatePollBody = z.object({
  id: ClientId.optional(),
  question: PollQuestion,
  options: PollOptions,
  closes_at: PollClosesAt.nullish(),
  multiple: z.boolean({ error: 'multiple must be true or false' }).optional(),
  hide_results: z.boolean({ error: 'hide_results must be true or false' }).optional(),
  secret: z.boolean({ error: 'secret must be true or false' }).optional(),
})
export type CreatePollBody = z.infer<typeof CreatePollBody>

/**
 * `PUT /api/polls/:id`. New options replace the list: an option whose text stays keeps its id and
 * its votes; votes for an option removed go with it (docs/decisions/).
 */
export const UpdatePollBody = z.object({ question: PollQuestion.optional(), options: PollOptions.optional() })
export type UpdatePollBody = z.infer<typeof UpdatePollBody>

/**
 * A vote sets the caller's choices: `poll_option_id` (one) or `poll_option_ids` (a poll of several
 * choices: the whole set, which replaces the earlier one). Exactly one of the two (the service says
 * which is missing); `poll_option_id` alone equals `poll_option_ids: [it]`.
 */
export const VoteBody = z.object({
  poll_option_id: Uuid('poll_option_id must be a UUID').optional(),
  poll_option_ids: z
    .array(Uuid('poll_option_ids must be UUIDs'), { error: 'poll_option_ids must be a list of UUIDs' })
    .min(1, { error: POLL_MESSAGES.chooseOption })
    .max(POLL_MAX_OPTIONS, { error: POLL_MESSAGES.tooManyOptions })
    .optional(),
})
export type VoteBody = z.infer<typeof VoteBody>

/** The option ids a vote chooses, in the order given (duplicates kept: the service refuses them). */
export const chosenOptionIds = (body: VoteBody): string[] =>
  body.poll_option_ids ?? (body.poll_option_id ? [body.poll_option_id] : [])

export interface PollOption {
  id: string
  option_text: string
  /** null while the poll hides its results (before it closes). */
  votes_count: number | null
}

export interface Poll {
  id: string
  buble_id: string
  question: string
  options: PollOption[]
  /** Votes cast (with several choices, more than the voters); null while results are hidden. */
  totalVotes: number | null
  /** Members who voted, always sent (it says nothing of the choices). */
  votersCount: number
  /** The caller's (first) option id, or null; always null in a secret poll. */
  userVote: string | null
  /** Every option the caller chose, in the options' order; always empty in a secret poll. */
  userVotes: string[]
  hasVoted: boolean
  /** ISO 8601 UTC, or null: open until deleted. */
  closes_at: string | null
  /** The server has closed it (its final totals are in); a device also reads `closes_at` against its clock. */
  closed: boolean
  multiple: boolean
  hide_results: boolean
  secret: boolean
  created_at: string
  creator: MemberRef
  creator_id: string
}

/**
 * An option's id: derived from its poll and its text (case aside), so a device that makes a poll
 * offline knows the ids the server will give, a vote can wait in the outbox behind the poll's
 * create, and an edit that keeps an option's text keeps its id and its votes.
 */
export const pollOptionId = (pollId: string, optionText: string): string =>
  uuidv5(optionText.trim().toLowerCase(), pollId.toLowerCase())

export type Participation = 'High' | 'Medium' | 'Low'

/** Spec part 2 §9: High at 70 % or more, Medium at 40 % or more; below that (not named by the spec) Low. */
export function participationLabel(percent: number): Participation {
  if (percent >= 70) return 'High'
  if (percent >= 40) return 'Medium'
  return 'Low'
}

/** The share of members who voted, a whole percent (0 with no members). */
export const participationPercent = (totalVotes: number, memberCount: number): number =>
  memberCount > 0 ? Math.round((Math.min(totalVotes, memberCount) / memberCount) * 100) : 0

/** An option's bar: its votes relative to the member count, 0–100. */
export const optionBarPercent = (votes: number, memberCount: number): number =>
  memberCount > 0 ? Math.min(100, Math.round((votes / memberCount) * 100)) : 0

/**
 * An option's share of the votes cast, a whole percent (0 before any vote): shown beside the spec's
 * bar against the member count, so 1 of 1 votes reads as all of them, not as half a buble of two.
 */
export const voteSharePercent = (votes: number, totalVotes: number): number =>
  totalVotes > 0 ? Math.min(100, Math.round((Math.max(0, votes) / totalVotes) * 100)) : 0

/** The options with the most votes (several: a tie); none before any vote or while totals are hidden. */
export function pollWinners<O extends Pick<PollOption, 'votes_count'>>(options: readonly O[]): O[] {
  const top = Math.max(0, ...options.map((option) => option.votes_count ?? 0))
  return top > 0 ? options.filter((option) => option.votes_count === top) : []
}

/** Whether the poll takes no more votes: closed by the server, or its closing time passed on `now`. */
export const isPollClosed = (poll: Pick<Poll, 'closes_at' | 'closed'>, now: number): boolean =>
  poll.closed || (poll.closes_at !== null && Date.parse(poll.closes_at) <= now)

type VoteState = Pick<Poll, 'options' | 'totalVotes' | 'votersCount' | 'userVote' | 'userVotes' | 'hasVoted' | 'secret'>

/**
 * A poll with the voter's choices set (an empty list removes them): counts move from the old
 * options to the new ones (hidden counts stay hidden). In a secret poll the choice is not kept:
 * only `hasVoted` and the counts move, and a second vote changes nothing (the server refuses it).
 * The device shows a vote at once with this, and re-running it gives the same poll.
 */
export function withVote<P extends VoteState>(poll: P, optionIds: readonly string[]): P {
  const chosen = poll.options.filter((option) => optionIds.includes(option.id)).map((option) => option.id)
  const previous = poll.secret ? [] : (poll.userVotes ?? (poll.userVote ? [poll.userVote] : []))
  if (poll.secret && (poll.hasVoted || chosen.length === 0)) return poll
  if (!poll.secret && chosen.length === previous.length && chosen.every((id) => previous.includes(id))) return poll
  const options = poll.options.map((option) => {
    if (option.votes_count === null) return option
    let votes = option.votes_count
    if (previous.includes(option.id)) votes = Math.max(0, votes - 1)
    if (chosen.includes(option.id)) votes += 1
    return { ...option, votes_count: votes }
  })
  const totalVotes = poll.totalVotes === null ? null : Math.max(0, poll.totalVotes + chosen.length - previous.length)
  const votersCount = Math.max(0, (poll.votersCount ?? 0) + (chosen.length > 0 ? 1 : 0) - (poll.hasVoted ? 1 : 0))
  const mine = poll.secret ? [] : chosen
  return {
    ...poll,
    options,
    totalVotes,
    votersCount,
    userVote: mine[0] ?? null,
    userVotes: mine,
    hasVoted: chosen.length > 0,
  }
}
