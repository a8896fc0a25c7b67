/** The polls' REST calls (CONTRACT §3.3): thin adapters over the service. */

import { CreatePollBody, chosenOptionIds, UpdatePollBody, VoteBody } from '@buble/shared/polls'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { sendJsonAnswer } from '../../lib/json-answers.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath, idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import type { PollLists } from './lists.ts'
import { type PollsService, pollNotFound } from './service.ts'

const pollIdOf = (raw: string) => idFromPath(raw, pollNotFound)

export interface PollsRouteDeps {
  polls: PollsService
  lists: PollLists
}

export function pollsRoutes({ polls, lists }: PollsRouteDeps) {
  const tag = 'polls'
  return new Hono<AppEnv>()
    .get('/bubles/:id/polls', describe({ tag, summary: "A buble's polls, newest first, with your vote" }), async (c) =>
      sendJsonAnswer(c, await lists.polls(c.var.user.id, bubleIdFromPath(c.req.param('id')))),
    )
    .post(
      '/bubles/:id/polls',
      describe({
        tag,
        summary: 'Create a poll of 2–10 options (create_polls; the same id again answers it)',
        status: 201,
      }),
      validate('json', CreatePollBody),
      async (c) => {
        const bubleId = bubleIdFromPath(c.req.param('id'))
        const { value, created } = await polls.createPoll(c.var.user, bubleId, c.req.valid('json'))
        return c.json(value, created ? 201 : 200)
      },
    )
    .put(
      '/polls/:id',
      describe({ tag, summary: 'Edit a poll (creator, owner or manage_polls); options replace the list' }),
      validate('json', UpdatePollBody),
      async (c) => c.json(await polls.updatePoll(c.var.user, pollIdOf(c.req.param('id')), c.req.valid('json'))),
    )
    .delete(
      '/polls/:id',
      describe({ tag, summary: 'Delete a poll (creator, owner or manage_polls)', status: 204 }),
      async (c) => {
        await polls.deletePoll(c.var.user, pollIdOf(c.req.param('id')))
        return c.body(null, 204)
      },
    )
    .post(
      '/polls/:id/vote',
      describe({
        tag,
        summary:
          'Vote: poll_option_id, or poll_option_ids for several choices (new choices replace the old; 409 once closed, or again in a secret poll)',
      }),
      validate('json', VoteBody),
      async (c) =>
        c.json(await polls.vote(c.var.user, pollIdOf(c.req.param('id')), chosenOptionIds(c.req.valid('json')))),
    )
    .delete(
      '/polls/:id/vote',
      describe({ tag, summary: 'Remove your vote (idempotent; 409 once closed or secret)' }),
      async (c) => c.json(await polls.unvote(c.var.user, pollIdOf(c.req.param('id')))),
    )
}
