/**
 * Polls and votes (CONTRACT §3.3). Totals live on the poll and its options, kept in the vote's
 * transaction, so a vote moves the poll's version and every member's copy shows the new totals.
 * Option ids are derived from the poll and the text (shared/polls.ts), so an edit keeping a text
 * keeps its id and its votes.
 */

import { can } from '@buble/shared/permissions'
import { type CreatePollBody, POLL_MESSAGES, type Poll, pollOptionId, type UpdatePollBody } from '@buble/shared/polls'
import { and, eq, notInArray, sql } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { pollOptions, polls, pollVotes } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { UserRow } from '../../lib/accounts.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { contentKit } from '../../lib/content-kit.ts'
import type { Created } from '../../lib/entity-ids.ts'
import { forbidden, notFound, validationError } from '../../lib/errors.ts'
import { memberActorOf, requireMembership } from '../../lib/memberships.ts'
import { type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'
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

/** The poll's data changed (totals included): recounted from its votes, with a new version. */
const touchPoll = (w: SyncWriter, poll: PollRow, set: Partial<PollRow> = {}): Promise<void> =>
  kit.touch(w, poll, { ...set, totalVotes: sql`(select count(*)::int from poll_votes where poll_id = ${poll.id})` })

export type PollsService = ReturnType<typeof pollsService>

export function pollsService({ db, now }: Deps, contentAdded: ContentAddedBus) {
  /** Sets (or with null removes) the caller's vote; the same vote again changes nothing. */
  async function setVote(user: UserRow, pollId: string, optionId: string | null): Promise<Poll> {
    return syncWrite(db, async (w) => {
      const { row: poll } = await kit.forMember(w.tx, pollId, user.id)
      if (optionId !== null) {
        const [option] = await w.tx
          .select({ id: pollOptions.id })
          .from(pollOptions)
          .where(and(eq(pollOptions.id, optionId), eq(pollOptions.pollId, pollId)))
          .limit(1)
        if (!option) throw validationError([{ path: ['poll_option_id'], message: POLL_MESSAGES.optionNotInPoll }])
      }
      const mine = and(eq(pollVotes.pollId, pollId), eq(pollVotes.userId, user.id))
      // Writes in one buble run one at a time (forMember locked the buble): nothing changes this row meanwhile.
      const [previous] = await w.tx.select({ optionId: pollVotes.optionId }).from(pollVotes).where(mine).limit(1)
      if ((previous?.optionId ?? null) === optionId) return loadPoll(w.tx, pollId, user.id)
      if (previous) {
        await w.tx.delete(pollVotes).where(mine)
        await bump(w, previous.optionId, -1)
      }
      if (optionId !== null) {
        await w.tx.insert(pollVotes).values({ pollId, userId: user.id, optionId, createdAt: now() })
        await bump(w, optionId, 1)
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
        if (!can(memberActorOf(me), 'poll.create')) throw forbidden(POLL_MESSAGES.notAllowedToCreate)
        const id = body.id ?? uuidv7()
        // The poll made with this id, only while it is in this buble (of which the caller is a member).
        if ((await kit.claim(w.tx, id, user.id, eq(polls.bubleId, bubleId))) === 'existing')
          return { value: await loadPoll(w.tx, id, user.id), created: false }
        const version = await w.takeVersion()
        await w.tx.insert(polls).values({
          id,
          bubleId,
          creatorId: user.id,
          question: body.question,
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
        const poll = await kit.forAction(w.tx, pollId, user.id, 'content.edit')
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

    /** A new vote replaces the old one. An option of another poll is a 400 and changes nothing. */
    vote: (user: UserRow, pollId: string, optionId: string) => setVote(user, pollId, optionId),
    /** Removes the caller's vote; idempotent. */
    unvote: (user: UserRow, pollId: string) => setVote(user, pollId, null),
  }
}
