/** Polls in sync: their synced table, what counts on their tab, and their mutations. */

import type { POLL_MUTATIONS } from '@buble/shared/mutations'
import { chosenOptionIds } from '@buble/shared/polls'
import type { MutationHandlersOf, SyncSource, UnreadSource } from '../../lib/sync-sources.ts'
import { scanTable } from '../../lib/sync-sources.ts'
import { loadPolls } from './queries.ts'
import type { PollsService } from './service.ts'

/** Polls by others count on their tab, from the version they were added at. */
export const pollsUnreadSources: UnreadSource[] = [
  {
    contentType: 'polls',
    entity: 'poll',
    table: 'polls',
    bubleColumn: 'buble_id',
    addedColumn: 'added_version',
    authorColumn: 'creator_id',
  },
]

export const pollsSyncSources: SyncSource[] = [
  // A poll's data carries the puller's own vote (CONTRACT §6: as the caller would get it).
  {
    entity: 'poll',
    scan: scanTable('poll', 'polls', 'buble_id'),
    load: (db, ids, userId) => loadPolls(db, ids, userId),
  },
]

export const pollsMutations = (polls: PollsService): MutationHandlersOf<typeof POLL_MUTATIONS> => ({
  'poll.create': async (user, { buble_id, ...body }) => (await polls.createPoll(user, buble_id, body)).value,
  'poll.update': (user, { id, ...body }) => polls.updatePoll(user, id, body),
  'poll.delete': async (user, args) => {
    await polls.deletePoll(user, args.id)
    return null
  },
  // The answer of a secret vote names no choice (queries.ts), so the result kept in applied_mutations names none either.
  'poll.vote': (user, args) => polls.vote(user, args.poll_id, chosenOptionIds(args)),
  'poll.unvote': (user, args) => polls.unvote(user, args.poll_id),
})
