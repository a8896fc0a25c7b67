/** Polls and votes (CONTRACT §3.3, spec part 2 §2–§5, §9): shapes, bodies, participation labels. */

import { v5 as uuidv5 } from 'uuid'
import { z } from 'zod'
import { ClientId, type MemberRef, Uuid } from './bubles.ts'
import { LIMITS } from './constants.ts'

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
} as const

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

export const CreatePollBody = z.object({ id: ClientId.optional(), question: PollQuestion, options: PollOptions })
export type CreatePollBody = z.infer<typeof CreatePollBody>

/**
 * `PUT /api/polls/:id`. New options replace the list: an option whose text stays keeps its id and
 * its votes; votes for an option removed go with it (docs/decisions/).
 */
export const UpdatePollBody = z.object({ question: PollQuestion.optional(), options: PollOptions.optional() })
export type UpdatePollBody = z.infer<typeof UpdatePollBody>

export const VoteBody = z.object({ poll_option_id: Uuid('poll_option_id must be a UUID') })
export type VoteBody = z.infer<typeof VoteBody>

export interface PollOption {
  id: string
  option_text: string
  votes_count: number
}

export interface Poll {
  id: string
  buble_id: string
  question: string
  options: PollOption[]
  totalVotes: number
  /** The caller's option id, or null. */
  userVote: string | null
  hasVoted: boolean
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

/**
 * A poll with the voter's choice applied (null removes it): counts move from the old option to
 * the new one. The device shows a vote at once with this, and re-running it gives the same poll.
 */
export function withVote<P extends Pick<Poll, 'options' | 'totalVotes' | 'userVote' | 'hasVoted'>>(
  poll: P,
  optionId: string | null,
): P {
  const previous = poll.userVote
  if (previous === optionId) return poll
  const options = poll.options.map((option) => {
    let votes = option.votes_count
    if (option.id === previous) votes = Math.max(0, votes - 1)
    if (option.id === optionId) votes += 1
    return { ...option, votes_count: votes }
  })
  const totalVotes = Math.max(0, poll.totalVotes + (optionId ? 1 : 0) - (previous ? 1 : 0))
  return { ...poll, options, totalVotes, userVote: optionId, hasVoted: optionId !== null }
}
