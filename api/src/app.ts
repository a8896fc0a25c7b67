/** Composes the API: the shared pieces, the list of features, cross-cutting middleware, the OpenAPI document, one error handler. */

import { Hono } from 'hono'
import type { Deps } from './deps.ts'
import { adminFeature } from './features/admin/feature.ts'
import { authFeature } from './features/auth/feature.ts'
import { bublesFeature } from './features/bubles/feature.ts'
import { calendarFeature } from './features/calendar/feature.ts'
import { chatFeature } from './features/chat/feature.ts'
import { donationsFeature } from './features/donations/feature.ts'
import { eventsFeature } from './features/events/feature.ts'
import { healthFeature } from './features/health/feature.ts'
import { localEventsFeature } from './features/local-events/feature.ts'
import { mediaFeature } from './features/media/feature.ts'
import { passkeysFeature } from './features/passkeys/feature.ts'
import { deletePasskeysOf } from './features/passkeys/service.ts'
import { pollsFeature } from './features/polls/feature.ts'
import { privacyFeature } from './features/privacy/feature.ts'
import { profileFeature } from './features/profile/feature.ts'
import { pushFeature } from './features/push/feature.ts'
import type { PushOptions } from './features/push/service.ts'
import { reportsFeature } from './features/reports/feature.ts'
import { searchFeature } from './features/search/feature.ts'
import { sessionsFeature } from './features/sessions/feature.ts'
import { storiesFeature } from './features/stories/feature.ts'
import { type SyncOptions, syncFeature } from './features/sync/feature.ts'
import { unreadFeature } from './features/unread/feature.ts'
import { uploadsFeature } from './features/uploads/feature.ts'
import { wallFeature } from './features/wall/feature.ts'
import { weatherFeature } from './features/weather/feature.ts'
import { useApiMiddleware } from './lib/api-middleware.ts'
import { type AppEnv, createAuthenticator } from './lib/auth.ts'
import { createContentAddedBus } from './lib/content-added.ts'
import { errorHandler, notFound } from './lib/errors.ts'
import { batchersOf, closeFeatures, foldMutations, jobsOf, syncSourcesOf, unreadSourcesOf } from './lib/feature.ts'
import { mutesService } from './lib/mutes.ts'
import { serveOpenApi } from './lib/openapi.ts'
import { createPokeClock } from './lib/poke-clock.ts'
import { createProviderFetch } from './lib/provider-fetch.ts'
import { RememberingRouter } from './lib/remembered-routes.ts'
import { createSafeFetch } from './lib/safe-fetch.ts'

/** Options only code can set (test servers), never the environment or a config file. */
export interface AppOptions extends SyncOptions {
  /**
   * Lets outbound fetches of user-supplied addresses (link previews, push endpoints) reach 127.0.0.1
   * and ::1, for the project's own tests against local pages. Only code can set it: no environment
   * variable or config file reaches it. (Providers need none of it: their configured origins are trusted.)
   */
  allowLoopbackFetch?: boolean
  /** How long weather and event search wait for their provider (CONTRACT §6: 5 s); tests shorten it. */
  providerTimeoutMs?: number
  /** Web Push retry timing and endpoint resolver, for tests (loopback comes from `allowLoopbackFetch`). */
  push?: Omit<PushOptions, 'allowLoopback'>
}

/** The shared pieces, then every feature, in the order their routes are mounted. */
export function createFeatures(deps: Deps, options: AppOptions = {}) {
  // What this process's caches know of changes; closed after the features.
  const pokes = createPokeClock(deps.bus)
  // "Something new arrived": posts, events, polls, members and chat announce; Web Push listens.
  const contentAdded = createContentAddedBus()
  const authenticate = createAuthenticator(deps.db, deps.tokens, {
    now: deps.now,
    onError: (err) => deps.log.warn('session last use not written', { err }),
  })
  const allowLoopback = options.allowLoopbackFetch === true
  const providerFetch = createProviderFetch(deps.config, options.providerTimeoutMs)
  const uploads = uploadsFeature(deps)
  const bubles = bublesFeature(deps, contentAdded, pokes)
  const profile = profileFeature(deps, {
    ...bubles.accountSteps,
    deletionSteps: [...bubles.accountSteps.deletionSteps, deletePasskeysOf],
  })
  const auth = authFeature(deps, [bubles.invites.activationStep])
  const linkFetch = createSafeFetch({ allowLoopback })
  const wall = wallFeature(deps, { files: uploads.files, contentAdded, pokes, safeFetch: linkFetch })
  const events = eventsFeature(deps, contentAdded, pokes)
  const polls = pollsFeature(deps, contentAdded, pokes)
  const mutes = mutesService(deps)
  const stories = storiesFeature(deps, uploads.files)
  const chat = chatFeature(deps, { ...uploads.files, contentAdded }, pokes)
  const reports = reportsFeature(deps, {
    // A moderator's delete is each kind's own delete (tombstones, files, positions).
    deleters: {
      post: (user, id) => wall.service.deletePost(user, id),
      comment: (user, id) => wall.service.deleteComment(user, id),
      chat_message: (user, id) => chat.service.remove(user, id),
      story: (user, id) => stories.service.remove(user, id),
      event: (user, id) => events.service.deleteEvent(user, id),
      poll: (user, id) => polls.service.deletePoll(user, id),
    },
    // "Mute the author" is the muting feature's one function (lib/mutes.ts), inside the resolve's write.
    mute: (user, bubleId, userId, duration) => mutes.muteMember(user, { buble_id: bubleId, user_id: userId, duration }),
    contentAdded,
  })
  const content = {
    health: healthFeature(deps),
    auth,
    passkeys: passkeysFeature(deps, { issueAuth: auth.service.issueAuth }),
    profile,
    sessions: sessionsFeature(deps),
    privacy: privacyFeature(deps),
    uploads,
    bubles,
    wall,
    stories,
    events,
    polls,
    chat,
    weather: weatherFeature(deps, providerFetch),
    localEvents: localEventsFeature(deps, providerFetch),
    admin: adminFeature(
      deps,
      {
        ...{ auth: auth.service, users: profile.service, bubles: bubles.service, invites: bubles.invites },
        ...{ wall: wall.service, events: events.service, polls: polls.service },
      },
      reports.service,
    ),
    donations: donationsFeature(deps),
    calendar: calendarFeature(deps, contentAdded),
    media: mediaFeature(deps),
    search: searchFeature(deps),
    reports,
  }
  const unread = unreadFeature(deps, unreadSourcesOf(content), pokes)
  const push = pushFeature(deps, { unread: unread.service, contentAdded }, { ...options.push, allowLoopback })
  const synced = { ...content, unread, push }
  // Every mutation name maps onto the service function its REST call uses (ARCHITECTURE: the one rule).
  const parts = {
    syncSources: syncSourcesOf(synced),
    unreadSources: unreadSourcesOf(synced),
    batchers: batchersOf(synced),
  }
  const sync = syncFeature(deps, { pokes, authenticate }, { ...parts, mutations: foldMutations(synced) }, options)
  const list = { ...synced, sync }
  return {
    list,
    contentAdded,
    authenticate,
    /** The features' per-minute jobs (server.ts adds them to the scheduler). */
    jobs: jobsOf(list),
    /** Stops what the features keep in memory (tests open and close apps in one process). */
    close() {
      closeFeatures(list)
      pokes.close()
    },
  }
}
export type Features = ReturnType<typeof createFeatures>

export function createApp(deps: Deps, features: Features = createFeatures(deps)) {
  const app = new Hono<AppEnv>({ router: new RememberingRouter() })
  useApiMiddleware(app, deps.config.corsOrigins, features.authenticate)
  for (const feature of Object.values(features.list)) if (feature.routes) app.route('/api', feature.routes)

  serveOpenApi(app, deps.config.version)
  app.all('/api/*', () => {
    throw notFound('No such API route')
  })
  app.onError(errorHandler(deps.log))
  return app
}
export type App = ReturnType<typeof createApp>
