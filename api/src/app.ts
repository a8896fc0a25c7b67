/** Composes the API: cross-cutting middleware, every feature's routes, the OpenAPI document, one error handler. */

import { LIMITS } from '@buble/shared/constants'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { generateSpecs } from 'hono-openapi'
import type { Deps } from './deps.ts'
import { adminListCache } from './features/admin/list-cache.ts'
import { adminRoutes } from './features/admin/routes.ts'
import { adminService } from './features/admin/service.ts'
import { authRoutes } from './features/auth/routes.ts'
import { authService } from './features/auth/service.ts'
import { invitesService } from './features/bubles/invites.ts'
import { membersService } from './features/bubles/members.ts'
import { bublesRoutes } from './features/bubles/routes.ts'
import { bublesService } from './features/bubles/service.ts'
import { bubleMutations, bubleSyncSources, bubleUnreadSources } from './features/bubles/sync.ts'
import { membershipWrites } from './features/bubles/writes.ts'
import { chatRoutes } from './features/chat/routes.ts'
import { chatService } from './features/chat/service.ts'
import { chatMutations, chatSyncSources, chatUnreadSources } from './features/chat/sync.ts'
import { donationsRoutes } from './features/donations/routes.ts'
import { donationsService } from './features/donations/service.ts'
import { eventsService } from './features/events/events-service.ts'
import { contentLists } from './features/events/lists.ts'
import { pollsService } from './features/events/polls-service.ts'
import { eventsRoutes, pollsRoutes } from './features/events/routes.ts'
import { eventsMutations, eventsSyncSources, eventsUnreadSources } from './features/events/sync.ts'
import { exportRoutes } from './features/export/routes.ts'
import { exportService } from './features/export/service.ts'
import { healthRoutes } from './features/health/routes.ts'
import { providersRoutes, providersService } from './features/providers/routes.ts'
import { pushRoutes } from './features/push/routes.ts'
import { pushSender } from './features/push/sender.ts'
import { type PushOptions, pushService } from './features/push/service.ts'
import type { PushHooks } from './features/sync/push.ts'
import { syncRoutes } from './features/sync/routes.ts'
import { syncService } from './features/sync/service.ts'
import { streamHandler } from './features/sync/stream.ts'
import { unreadRoutes } from './features/unread/routes.ts'
import { unreadService } from './features/unread/service.ts'
import { unreadMutations, unreadSyncSource } from './features/unread/sync.ts'
import { uploadsRoutes } from './features/uploads/routes.ts'
import { uploadsService } from './features/uploads/service.ts'
import { usersRoutes } from './features/users/routes.ts'
import { usersService } from './features/users/service.ts'
import { isBubleImage, isBubleStoryFile, orphanFilesJob } from './features/wall/files.ts'
import { fetchLinkPreview } from './features/wall/link-preview.ts'
import { createPreviewer } from './features/wall/previews.ts'
import { storiesRoutes, wallRoutes } from './features/wall/routes.ts'
import { type WallService, wallService } from './features/wall/service.ts'
import { storiesService } from './features/wall/stories.ts'
import { wallMutations, wallSyncSources, wallUnreadSources } from './features/wall/sync.ts'
import { type AppEnv, createAuthenticator, requireAuth } from './lib/auth.ts'
import { createContentAddedBus } from './lib/content-added.ts'
import { errorHandler, notFound } from './lib/errors.ts'
import { jsonBodies } from './lib/json-body.ts'
import { describe } from './lib/openapi.ts'
import { createPokeClock } from './lib/poke-clock.ts'
import { createSafeFetch } from './lib/safe-fetch.ts'
import { safeInput } from './lib/safe-input.ts'
import { securityHeaders } from './lib/security-headers.ts'
import type { MutationHandlers } from './lib/sync-sources.ts'

/** Options only code can set (test servers), never the environment or a config file. */
export interface AppOptions {
  pushHooks?: PushHooks
  /** How often a live stream sends a keep-alive and checks its token again (default 25 s). */
  streamHeartbeatMs?: number
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

export function createServices(deps: Deps, options: AppOptions = {}) {
  // What this process's caches know of changes; closed with the services.
  const pokes = createPokeClock(deps.bus)
  // "Something new arrived": posts, events, polls, members and chat announce; Web Push listens.
  const contentAdded = createContentAddedBus()
  const writes = membershipWrites(deps.now, contentAdded)
  const bubles = bublesService(deps, writes, pokes)
  const members = membersService(deps, writes)
  const invites = invitesService(deps, writes)
  const uploads = uploadsService(deps)
  // Outbound fetches go through one guard (CONTRACT §7).
  const safeFetch = createSafeFetch({ allowLoopback: options.allowLoopbackFetch === true })
  let wallRef: WallService | undefined
  const previewer = createPreviewer({
    wall: () => wallRef as WallService,
    fetchPreview: (url) => fetchLinkPreview(safeFetch, url),
    log: deps.log,
  })
  const wall = wallService(
    deps,
    {
      isBubleImage,
      forgetFiles: (urls) => uploads.forgetFiles(urls),
      previewOwed: (postId, url) => previewer.previewOwed(postId, url),
      contentAdded,
    },
    pokes,
  )
  wallRef = wall
  const stories = storiesService(deps, { isBubleStoryFile, forgetFiles: (urls) => uploads.forgetFiles(urls) })
  // Content types register what counts on their tab (later features add theirs).
  const events = eventsService(deps, contentAdded)
  const polls = pollsService(deps, contentAdded)
  const lists = contentLists(deps.db, pokes)
  const adminLists = adminListCache(deps)
  const chat = chatService(
    deps,
    { isBubleImage, forgetFiles: (urls) => uploads.forgetFiles(urls), contentAdded },
    pokes,
  )
  const unreadSources = [...bubleUnreadSources, ...wallUnreadSources, ...eventsUnreadSources, ...chatUnreadSources]
  const unread = unreadService(deps, unreadSources, pokes)
  const pushOptions = { ...options.push, allowLoopback: options.allowLoopbackFetch === true }
  const pushSending = pushSender(deps, unread, contentAdded, pushOptions)
  const push = pushService(deps, pushOptions, { audienceChanged: pushSending.audienceChanged })
  const users = usersService(deps, {
    deletionSteps: [bubles.accountDeletionStep],
    profileSteps: [bubles.profileChangeStep],
  })
  // Every mutation name maps onto the service function its REST call uses (ARCHITECTURE: the one rule).
  const mutations = {
    ...bubleMutations({ bubles, invites }),
    ...unreadMutations(unread),
    ...wallMutations(wall),
    ...eventsMutations(events, polls),
    ...chatMutations(chat),
    'profile.update': (user, args) => users.updateProfile(user, args),
  } satisfies MutationHandlers
  const sync = syncService(
    { db: deps.db, log: deps.log, pokes },
    [...bubleSyncSources, ...wallSyncSources, ...eventsSyncSources, ...chatSyncSources, unreadSyncSource(unread)],
    unreadSources,
    mutations,
    options.pushHooks,
  )
  return {
    auth: authService(deps, { activationSteps: [invites.activationStep] }),
    users,
    uploads,
    wall,
    stories,
    events,
    polls,
    lists,
    chat,
    contentAdded,
    previewer,
    providers: providersService({
      config: deps.config,
      log: deps.log,
      now: deps.now,
      // The base URLs are the operator's configuration, not user input (CONTRACT §7): a mirror, a
      // proxy or a stub on the local network or on 127.0.0.1 is reached, with the same timeout, size
      // cap and redirect limit; a redirect elsewhere is checked like any address.
      safeFetch: createSafeFetch({
        timeoutMs: options.providerTimeoutMs ?? 5000,
        trustedOrigins: [
          deps.config.weather.baseUrl,
          deps.config.weather.geocodingUrl,
          deps.config.ticketmaster.baseUrl,
        ],
      }),
    }),
    /** The per-minute jobs of the features (server.ts adds them to the scheduler). */
    jobs: [stories.expiryJob, previewer.job, orphanFilesJob((urls) => uploads.forgetFiles(urls))],
    bubles,
    members,
    invites,
    unread,
    sync,
    push,
    pushSending,
    adminLists,
    /** Stops what the services keep in memory (tests open and close apps in one process). */
    close() {
      sync.close()
      bubles.close()
      unread.close()
      wall.close()
      lists.close()
      chat.close()
      pushSending.close()
      pokes.close()
      void adminLists.close()
    },
  }
}
export type Services = ReturnType<typeof createServices>

/** CONTRACT §7: no inline or eval'd script, nothing framed, nothing embedded. */
export const CONTENT_SECURITY_POLICY = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  mediaSrc: ["'self'", 'blob:'],
  connectSrc: ["'self'"],
  fontSrc: ["'self'"],
  workerSrc: ["'self'"],
  manifestSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  frameAncestors: ["'none'"],
  formAction: ["'self'"],
}

export function createApp(deps: Deps, services: Services = createServices(deps), options: AppOptions = {}) {
  const app = new Hono<AppEnv>()
  app.use(
    securityHeaders({
      contentSecurityPolicy: CONTENT_SECURITY_POLICY,
      referrerPolicy: 'strict-origin-when-cross-origin',
      xContentTypeOptions: 'nosniff',
      crossOriginEmbedderPolicy: false,
    }),
  )
  if (deps.config.corsOrigins.length > 0) {
    app.use('/api/*', cors({ origin: [...deps.config.corsOrigins], credentials: false, maxAge: 600 }))
  }
  const jsonBodyLimit = jsonBodies(LIMITS.jsonBodyBytes)
  // Uploads set their own, larger limits.
  app.use('/api/*', (c, next) => (c.req.path.startsWith('/api/uploads/') ? next() : jsonBodyLimit(c, next)))
  // No NUL or unpaired surrogate in any path or query (bodies: validate(); a push: per mutation).
  app.use('/api/*', safeInput())
  const authenticate = createAuthenticator(deps.db, deps.tokens)
  app.use('/api/*', requireAuth(authenticate))

  const api = new Hono<AppEnv>()
    .route('/health', healthRoutes(deps.database.kind, deps.config.version))
    .route('/auth', authRoutes(services.auth, deps.config.trustProxy))
    .route('/users', usersRoutes(services.users))
    .route('/', exportRoutes(exportService(deps)))
    .route('/uploads', uploadsRoutes(services.uploads))
    .route('/bubles', bublesRoutes(services))
    .route('/unread', unreadRoutes(services.unread))
    .route('/push', pushRoutes(services.push, deps.vapid.publicKey))
    .route('/wall', wallRoutes(services.wall))
    .route('/', storiesRoutes(services.stories))
    .route('/', eventsRoutes({ ...services, now: deps.now }))
    .route('/', pollsRoutes({ ...services, now: deps.now }))
    .route('/chat', chatRoutes(services.chat))
    .route('/sync', syncRoutes(services.sync))
    .route('/', providersRoutes(services.providers))
    .route('/admin', adminRoutes(adminService(deps, services), deps.now))
    .route('/donations', donationsRoutes(donationsService(deps), deps.config.trustProxy))
    .get(
      '/stream',
      describe({ tag: 'sync', summary: 'Server-sent events: ready, then a poke whenever your bubles change' }),
      streamHandler({
        db: deps.db,
        bus: deps.bus,
        authenticate,
        log: deps.log,
        heartbeatMs: options.streamHeartbeatMs,
      }),
    )
  app.route('/api', api)

  let spec: Promise<unknown> | undefined
  app.get('/api/openapi.json', async (c) => {
    spec ??= generateSpecs(app, {
      documentation: {
        openapi: '3.1.0',
        info: {
          title: 'Buble API',
          version: deps.config.version,
          description: 'The HTTP contract of Buble (CONTRACT.md).',
        },
        components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
        security: [{ bearer: [] }],
      },
      exclude: ['/api/openapi.json'],
    })
    return c.json(await spec)
  })

  app.all('/api/*', () => {
    throw notFound('No such API route')
  })
  app.onError(errorHandler(deps.log))
  return app
}
export type App = ReturnType<typeof createApp>
