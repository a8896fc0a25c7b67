/**
 * Polls and votes (CONTRACT §3.3). Totals live on the poll and its options, kept in the vote's
 * transaction, so a vote moves the poll's version and every member's copy shows the new totals.
 * Option ids are derived from the poll and the text (shared/polls.ts), so an edit keeping a text
 * keeps its id and its votes. A poll may close at a time (votes refused after it, a job brings the
 * final totals to devices), take several choices, hide its totals until it closes, and be a secret
 * ballot: its choices only move the options' counts, and `poll_voters` says who voted, nothing
 * more (docs/decisions/0098).
 */

import { can } from '@buble/shared/permissions'
import {
  type CreatePollBody,
  POLL_MESSAGES,
  type Poll,
  pollClosedMessage,
  pollOptionId,
  type UpdatePollBody,
} from '@buble/shared/polls'
import { and, eq, inArray, lte, notInArray, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { pollOptions, polls, pollVoters, pollVotes } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { ADVISORY_LOCKS } from '../../lib/advisory-locks.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { contentKit } from '../../lib/content-kit.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { conflict, forbidden, notFound, validationError } from '../../lib/errors.ts'
import type { Job } from '../../lib/jobs.ts'
import { memberActorOf, requireMembership, requireWriter } from '../../lib/memberships.ts'
import { NEXT_VERSION, type SyncWriter, syncWrite, syncWriteIn } from '../../lib/sync-writes.ts'
import { loadPoll } from './queries.ts'

type PollRow = typeof polls.$inferSelect

export const pollNotFound = () => notFound(POLL_MESSAGES.pollNotFound)

const kit = contentKit({
  table: polls,
  kind: 'poll',
  notFound: pollNotFound,
  authorOf: (poll) => poll.creatorId,
  refusals: { 'content.edit': POLL_MESSAGES.notAllowedToManage, 'content.delete': POLL_MESSAGES.notAllowedToManage },
})

/** Options in the order given, with their derived ids. */
const optionRows = (pollId: string, texts: readonly string[]) =>
  texts.map((text, position) => ({ id: pollOptionId(pollId, text), pollId, optionText: text, position }))

/** Moves one option's count by `delta`. */
const bump = (w: SyncWriter, optionId: string, delta: number) =>
  w.tx
    .update(pollOptions)
    .set({ votesCount: sql`greatest(${pollOptions.votesCount} + ${delta}, 0)` })
    .where(eq(pollOptions.id, optionId))

/**
 * The poll's data changed (totals included): recounted from its options' counts and its voters
 * (a poll uses `poll_votes` or, secret, `poll_voters`: the sum is the one in use), with a new version.
 */
const touchPoll = (w: SyncWriter, poll: PollRow, set: Partial<PollRow> = {}): Promise<void> =>
  kit.touch(w, poll, {
    ...set,
    totalVotes: sql`(select coalesce(sum(votes_count), 0)::int from poll_options where poll_id = ${poll.id})`,
    votersCount: sql`(select count(distinct user_id)::int from poll_votes where poll_id = ${poll.id})
      + (select count(*)::int from poll_voters where poll_id = ${poll.id})`,
  })

/** The poll-closing job's advisory lock: one process at a time runs it, across every process on the database. */
export const CLOSING_JOB_LOCK = ADVISORY_LOCKS.pollClosingJob

/**
 * A secret vote's answer: no totals, as they would show what this vote changed, and the answer of
 * a pushed mutation is kept with its user (applied_mutations). The totals come with the next read.
 */
const withoutTotals = (poll: Poll): Poll => ({
  ...poll,
  options: poll.options.map((option) => ({ ...option, votes_count: null })),
  totalVotes: null,
})

const choiceError = (message: string) => validationError([{ path: ['poll_option_ids'], message }])

export type PollsService = ReturnType<typeof pollsService>

export function pollsService({ db, now }: Deps, contentAdded: ContentAddedBus) {
  /** The choices of a vote, checked against the poll: one unless it takes several, each once, each its own. */
  async function checkChoices(w: SyncWriter, poll: PollRow, optionIds: readonly string[]): Promise<void> {
    if (new Set(optionIds).size !== optionIds.length) throw choiceError(POLL_MESSAGES.duplicateChoices)
    if (!poll.multiple && optionIds.length > 1) throw choiceError(POLL_MESSAGES.oneChoiceOnly)
    const found = await w.tx
      .select({ id: pollOptions.id })
      .from(pollOptions)
      .where(and(inArray(pollOptions.id, [...optionIds]), eq(pollOptions.pollId, poll.id)))
    if (found.length !== optionIds.length)
      throw validationError([{ path: ['poll_option_id'], message: POLL_MESSAGES.optionNotInPoll }])
  }

  /**
   * Sets (or with none removes) the caller's choices; the same choices again change nothing. After
   * the closing time: 409 with when it closed. A secret poll takes one vote per member, final, and
   * keeps no trace of whose it is: the options' counts move, `poll_voters` gets the member.
   */
  async function setVote(user: UserRow, pollId: string, optionIds: readonly string[]): Promise<Poll> {
    return syncWrite(db, async (w) => {
      const { row: poll } = await kit.forWriter(w.tx, pollId, user.id, now())
      if (poll.closed || (poll.closesAt && poll.closesAt.getTime() <= now().getTime()))
        throw conflict(pollClosedMessage(poll.closesAt ?? now()))
      if (optionIds.length > 0) await checkChoices(w, poll, optionIds)
      if (poll.secret) {
        if (optionIds.length === 0) throw conflict(POLL_MESSAGES.secretFinal)
        // Writes in one buble run one at a time (forMember locked the buble); the key makes a second vote a conflict.
        const [first] = await w.tx
          .insert(pollVoters)
          .values({ pollId, userId: user.id })
          .onConflictDoNothing()
          .returning({ pollId: pollVoters.pollId })
        if (!first) throw conflict(POLL_MESSAGES.secretFinal)
        for (const optionId of optionIds) await bump(w, optionId, 1)
        await touchPoll(w, poll)
        return withoutTotals(await loadPoll(w.tx, pollId, user.id))
      }
      const mine = and(eq(pollVotes.pollId, pollId), eq(pollVotes.userId, user.id))
      // Writes in one buble run one at a time (forMember locked the buble): nothing changes these rows meanwhile.
      const previous = (await w.tx.select({ optionId: pollVotes.optionId }).from(pollVotes).where(mine)).map(
        (row) => row.optionId,
      )
      if (previous.length === optionIds.length && previous.every((id) => optionIds.includes(id)))
        return loadPoll(w.tx, pollId, user.id)
      if (previous.length > 0) {
        await w.tx.delete(pollVotes).where(mine)
        for (const optionId of previous) await bump(w, optionId, -1)
      }
      if (optionIds.length > 0) {
        const at = now()
        await w.tx
          .insert(pollVotes)
          .values(optionIds.map((optionId) => ({ pollId, userId: user.id, optionId, createdAt: at })))
        for (const optionId of optionIds) await bump(w, optionId, 1)
      }
      await touchPoll(w, poll)
      return loadPoll(w.tx, pollId, user.id)
    })
  }

  return {
    /** A new poll; the same client id again answers the poll made with it. */
    async createPoll(user: UserRow, bubleId: string, body: CreatePollBody): Promise<Created<Poll>> {
      return syncWrite(db, async (w) => {
        const me = await requireMembership(w.tx, bubleId, user.id)
        requireWriter(me, now())
        if (!can(memberActorOf(me), 'poll.create')) throw forbidden(POLL_MESSAGES.notAllowedToCreate)
        const closesAt = body.closes_at ? new Date(body.closes_at) : null
        if (body.hide_results && !closesAt)
          throw validationError([{ path: ['hide_results'], message: POLL_MESSAGES.hiddenNeedsClosing }])
        const id = body.id ?? uuidv7()
        // The poll made with this id, only while it is in this buble (of which the caller is a member).
        if ((await kit.claim(w.tx, id, user.id, eq(polls.bubleId, bubleId))) === 'existing')
          return { value: await loadPoll(w.tx, id, user.id), created: false }
        // Checked after the claim: the same create pushed again after its closing time answers the poll.
        if (closesAt && closesAt.getTime() <= now().getTime())
          throw validationError([{ path: ['closes_at'], message: POLL_MESSAGES.closesAtPast }])
        const version = await w.takeVersion()
        await w.tx.insert(polls).values({
          id,
          bubleId,
          creatorId: user.id,
          question: body.question,
          closesAt,
          multiple: body.multiple ?? false,
          hideResults: body.hide_results ?? false,
          secret: body.secret ?? false,
          createdAt: now(),
          addedVersion: version,
          version,
        })
        await w.tx.insert(pollOptions).values(optionRows(id, body.options))
        w.changed(bubleId, 'poll')
        contentAdded.announce(w, {
          bubleId,
          contentType: 'polls',
          actorId: user.id,
          title: `New poll: ${body.question}`,
          body: `Added by ${user.name}`,
        })
        return { value: await loadPoll(w.tx, id, user.id), created: true }
      })
    },

    /**
     * Creator, owner or manage_polls. New options replace the list: an option whose text stays
     * (case aside) keeps its id and votes, takes the new spelling and place; a removed option's
     * votes go with it, and the totals are recounted.
     */
    async updatePoll(user: UserRow, pollId: string, body: UpdatePollBody): Promise<Poll> {
      return syncWrite(db, async (w) => {
        const poll = await kit.forEdit(w.tx, pollId, user.id, now())
        // Counts alone cannot follow a changed option list: a secret poll's options stay once someone voted.
        if (body.options && poll.secret && poll.votersCount > 0) throw conflict(POLL_MESSAGES.secretOptionsFixed)
        if (body.options) {
          const rows = optionRows(pollId, body.options)
          const keep = rows.map((row) => row.id)
          await w.tx.delete(pollOptions).where(and(eq(pollOptions.pollId, pollId), notInArray(pollOptions.id, keep)))
          await w.tx
            .insert(pollOptions)
            .values(rows)
            .onConflictDoUpdate({
              target: pollOptions.id,
              set: { optionText: sql`excluded.option_text`, position: sql`excluded.position` },
            })
        }
        await touchPoll(w, poll, body.question !== undefined ? { question: body.question } : {})
        return loadPoll(w.tx, pollId, user.id)
      })
    },

    /** Creator, owner or manage_polls; options and votes go with it, devices get a `del`. */
    async deletePoll(user: UserRow, pollId: string): Promise<void> {
      await syncWrite(db, async (w) => {
        await kit.remove(w, await kit.forAction(w.tx, pollId, user.id, 'content.delete'))
      })
    },

    /** A platform admin's edit of the question (CONTRACT §3.4): no membership needed, the same sync write. */
    async adminUpdatePoll(pollId: string, question: string): Promise<PollRow> {
      return syncWrite(db, async (w) => {
        const poll = await kit.find(w.tx, pollId)
        await touchPoll(w, poll, { question })
        return poll
      })
    },

    /** A platform admin's delete: as `deletePoll`, without the membership check; answers the deleted row. */
    async adminDeletePoll(pollId: string): Promise<PollRow> {
      return syncWrite(db, async (w) => {
        const poll = await kit.find(w.tx, pollId, true)
        await kit.remove(w, poll)
        return poll
      })
    },

    /** New choices replace the old ones. An option of another poll is a 400 and changes nothing. */
    vote: (user: UserRow, pollId: string, optionIds: readonly string[]) => {
      if (optionIds.length === 0) throw choiceError(POLL_MESSAGES.chooseOption)
      return setVote(user, pollId, optionIds)
    },
    /** Removes the caller's choices; idempotent (a secret vote is final: 409). */
    unvote: (user: UserRow, pollId: string) => setVote(user, pollId, []),

    /**
     * Every minute: polls whose closing time passed are marked closed with a new version, so their
     * final totals (hidden ones included) reach every device and every kept list.
     */
    closingJob: {
      name: 'poll-closing',
      lockKey: CLOSING_JOB_LOCK,
      async run(tx, at) {
        await syncWriteIn(tx, async (w) => {
          const rows = await w.tx
            .update(polls)
            .set({ closed: true, version: NEXT_VERSION })
            .where(and(eq(polls.closed, false), lte(polls.closesAt, at)))
            .returning({ bubleId: polls.bubleId })
          for (const bubleId of new Set(rows.map((row) => row.bubleId))) w.changed(bubleId, 'poll')
        })
      },
    } satisfies Job,
  }
}
