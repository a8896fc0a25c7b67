/**
 * Starts Buble: config, secrets, database and migrations, the API and the built PWA on one port, the scheduler.
 * `boot` takes options only code can set (test servers); `node api/src/server.ts` boots with none.
 */

import { realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { type AppOptions, createApp, createServices } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import type { Deps } from './deps.ts'
import { syncMaintenanceJob } from './features/sync/maintenance.ts'
import { createChangeBus } from './lib/change-bus.ts'
import { trackInFlight } from './lib/in-flight.ts'
import { createScheduler } from './lib/jobs.ts'
import { createLogger } from './lib/log.ts'
import { createMailer } from './lib/mail.ts'
import { createRateLimits } from './lib/rate-limit.ts'
import { loadSecrets } from './lib/secrets.ts'
import { servePwa } from './lib/static.ts'
import { createFileStorage } from './lib/storage.ts'
import { createAccessTokens } from './lib/tokens.ts'

const PWA_DIST = fileURLToPath(new URL('../../pwa/dist', import.meta.url))
/** How long shutdown waits for running requests. */
const SHUTDOWN_GRACE_MS = 10_000

export async function boot(options: AppOptions = {}): Promise<void> {
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Buble cannot start: ${err.message}\n`)
      process.exit(1)
    }
    throw err
  }
  const log = createLogger(config.logLevel)
  const secrets = loadSecrets(config)
  const database = await openDatabase(
    config.databaseUrl ? { url: config.databaseUrl } : { pgliteDir: path.join(config.dataDir, 'pg') },
  )
  const bus = await createChangeBus(database, log)
  const deps: Deps = {
    config,
    database,
    db: database.db,
    log,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log }),
    tokens: createAccessTokens(secrets.jwtSecret),
    rateLimits: createRateLimits(database.db, config.rateLimits),
    storage: createFileStorage(path.join(config.dataDir, 'uploads')),
    bus,
    vapid: { publicKey: secrets.vapidPublicKey, privateKey: secrets.vapidPrivateKey, subject: config.vapid.subject },
    now: () => new Date(),
  }
  const services = createServices(deps, options)
  const app = createApp(deps, services, options)
  servePwa(app, PWA_DIST)

  const scheduler = createScheduler(database, [services.users.deletionJob, syncMaintenanceJob, ...services.jobs], log)
  scheduler.start()

  const requests = trackInFlight(app.fetch)
  const server = serve({ fetch: requests.handler, port: config.port, hostname: config.host }, (info) => {
    log.info('Buble is listening', {
      url: `http://${config.host}:${info.port}`,
      db: database.kind,
      publicUrl: config.publicUrl,
    })
  })
  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    scheduler.stop()
    // No new connections; idle keep-alive ones close now.
    server.close()
    if ('closeIdleConnections' in server) server.closeIdleConnections()
    // Handlers still running finish first (a hung-up client's write too), then what the services
    // keep going (the push queue, live streams) stops, then the database closes.
    void requests
      .drained(SHUTDOWN_GRACE_MS)
      .then((drained) => {
        if (!drained) log.warn('shutting down with requests still running', { running: requests.count })
        services.close()
        if ('closeAllConnections' in server) server.closeAllConnections()
        return bus.close()
      })
      .then(() => database.close())
      .catch((err) => log.error('shutdown failed', { err }))
      .finally(() => process.exit(0))
    setTimeout(() => process.exit(0), SHUTDOWN_GRACE_MS + 5000).unref()
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

export function bootOrExit(options: AppOptions = {}): void {
  boot(options).catch((err) => {
    process.stderr.write(`Buble failed to start: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  })
}

// Started as a program (not imported by a test server).
if (process.argv[1] && realpathSync(fileURLToPath(import.meta.url)) === realpathSync(process.argv[1])) bootOrExit()
