import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import { defineFeature } from '../../lib/feature.ts'
import type { PokeClock } from '../../lib/poke-clock.ts'
import { chatRoutes } from './routes.ts'
import { type ChatHooks, chatService } from './service.ts'
import { chatBatchers, chatMutations, chatSyncSources, chatUnreadSources } from './sync.ts'

/** The buble's chat. */
export function chatFeature(deps: Deps, hooks: ChatHooks, pokes: PokeClock) {
  const chat = chatService(deps, hooks, pokes)
  return defineFeature({
    service: chat,
    routes: new Hono<AppEnv>().route('/chat', chatRoutes(chat)),
    mutations: chatMutations(chat),
    batchers: chatBatchers(chat),
    syncSources: chatSyncSources,
    unreadSources: chatUnreadSources,
    close: () => chat.close(),
  })
}
