/** Chat's REST calls (CONTRACT §3.3): thin adapters over the service. */

import { ChatPageQuery, ChatReactionBody, EditMessageBody, SendMessageBody } from '@buble/shared/chat'
import { Hono } from 'hono'
import type { AppEnv } from '../../lib/auth.ts'
import { sendJsonAnswer } from '../../lib/json-answers.ts'
import { describe } from '../../lib/openapi.ts'
import { bubleIdFromPath, idFromPath } from '../../lib/path-ids.ts'
import { validate } from '../../lib/validate.ts'
import { type ChatService, messageNotFound } from './service.ts'

const messageIdOf = (raw: string) => idFromPath(raw, messageNotFound)

export function chatRoutes(chat: ChatService) {
  const tag = 'chat'
  return new Hono<AppEnv>()
    .get(
      '/:bubleId/messages',
      describe({ tag, summary: 'A page of chat, oldest first within it: the newest, or the one before a message' }),
      validate('query', ChatPageQuery),
      async (c) =>
        sendJsonAnswer(c, await chat.page(c.var.user, bubleIdFromPath(c.req.param('bubleId')), c.req.valid('query'))),
    )
    .post(
      '/:bubleId/messages',
      describe({ tag, summary: 'Send a message (any member; the same id again answers it)', status: 201 }),
      validate('json', SendMessageBody),
      async (c) => {
        const bubleId = bubleIdFromPath(c.req.param('bubleId'))
        const { value, created } = await chat.send(c.var.user, bubleId, c.req.valid('json'))
        return c.json(value, created ? 201 : 200)
      },
    )
    .put(
      '/messages/:id',
      describe({ tag, summary: 'Edit your message (marks it edited)' }),
      validate('json', EditMessageBody),
      async (c) => c.json(await chat.edit(c.var.user, messageIdOf(c.req.param('id')), c.req.valid('json').content)),
    )
    .delete(
      '/messages/:id',
      describe({ tag, summary: 'Delete a message (sender, or delete_others_content)', status: 204 }),
      async (c) => {
        await chat.remove(c.var.user, messageIdOf(c.req.param('id')))
        return c.body(null, 204)
      },
    )
    .post(
      '/messages/:id/reactions',
      describe({ tag, summary: 'Toggle one of your reactions' }),
      validate('json', ChatReactionBody),
      async (c) =>
        c.json(await chat.react(c.var.user, messageIdOf(c.req.param('id')), c.req.valid('json').reactionType)),
    )
}
