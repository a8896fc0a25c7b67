/**
 * Starts Buble: config, secrets, database and migrations, the API and the built PWA on one port, the scheduler.
 * `boot` takes options only code can set (test servers); `node api/src/server.ts` boots with none.
 */

import { realpathSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { serve } from '@hono/node-server'
import { type AppOptions, createApp, createFeatures } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { type Database, type DbTimeouts, openDatabase } from './db/client.ts'
import type { Deps } from './deps.ts'
import { createChangeBus } from './lib/change-bus.ts'
import { isDatabaseUnavailable } from './lib/errors.ts'
import { trackInFlight } from './lib/in-flight.ts'
import { createScheduler } from './lib/jobs.ts'
import { createLogger, type Logger } from './lib/log.ts'
import { createMailer } from './lib/mail.ts'
import { createRateLimits } from './lib/rate-limit.ts'
import { loadSecrets } from './lib/secrets.ts'
import { servePwa } from './lib/static.ts'
import { createConfiguredStorage } from './lib/storage-s3.ts'
import { createAccessTokens } from './lib/tokens.ts'

const PWA_DIST = fileURLToPath(new URL('../../pwa/dist', import.meta.url))
/**
 * How long a stop may take, all told: running requests get most of it, closing the rest. A stop
 * that has not finished by then (a query that hangs, a database that does not answer) exits anyway:
 * container runtimes send SIGKILL 10 s after SIGTERM, and no request can keep the process up.
 */
const SHUTDOWN_GRACE_MS = 8000
const CLOSE_BUDGET_MS = 3000

/**
 * What only code may set when booting (test servers): the app's options, the database's bounds and
 * how often the scheduler runs the jobs (every minute unless set).
 */
export type BootOptions = AppOptions & { dbTimeouts?: DbTimeouts; jobIntervalMs?: number }

/** Tries to open the database this many times, a second or two apart, while it cannot serve yet. */
const OPEN_ATTEMPTS = 15

/**
 * Opens the database, waiting for it while it cannot serve yet (a PostgreSQL still starting beside
 * the app, a connection cut during the migrations): only then is a failure to start final.
 */
async function openWhenReachable(open: () => Promise<Database>, log: Logger): Promise<Database> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await open()
    } catch (err) {
      if (attempt >= OPEN_ATTEMPTS || !isDatabaseUnavailable(err)) throw err
      log.warn('the database cannot serve yet; trying again', { attempt, err })
      await new Promise((resolve) => setTimeout(resolve, Math.min(2000, 250 * attempt)))
    }
  }
}

export async function boot(options: BootOptions = {}): Promise<void> {
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
  const database = await openWhenReachable(
    () =>
      openDatabase(
        config.databaseUrl
          ? { url: config.databaseUrl, timeouts: options.dbTimeouts }
          : { pgliteDir: path.join(config.dataDir, 'pg') },
      ),
    log,
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
    storage: createConfiguredStorage(config, log),
    bus,
    vapid: { publicKey: secrets.vapidPublicKey, privateKey: secrets.vapidPrivateKey, subject: config.vapid.subject },
    now: () => new Date(),
  }
  const features = createFeatures(deps, options)
  const app = createApp(deps, features)
  servePwa(app, PWA_DIST)

  const scheduler = createScheduler(database, features.jobs, log)
  scheduler.start(options.jobIntervalMs)

  const requests = trackInFlight(app.fetch)
  const server = serve({ fetch: requests.handler, port: config.port, hostname: config.host }, (info) => {
    log.info('Buble is listening', {
      url: `http://${config.host}:${info.port}`,
      db: database.kind,
      files: config.s3 ? `bucket ${config.s3.bucket} at ${config.s3.endpoint}` : 'DATA_DIR/uploads',
      publicUrl: config.publicUrl,
    })
  })
  let stopping = false
  const shutdown = () => {
    if (stopping) return
    stopping = true
    // Whatever happens below, the process ends within the grace period (a ref'd timer: it keeps
    // the process alive until it fires, and a hung query holds nothing else that would).
    setTimeout(() => {
      log.warn('stopping now: shutdown did not finish in time', { running: requests.count })
      process.exit(1)
    }, SHUTDOWN_GRACE_MS)
    scheduler.stop()
    // No new connections; idle keep-alive ones close now.
    server.close()
    if ('closeIdleConnections' in server) server.closeIdleConnections()
    // Handlers still running finish first (a hung-up client's write too), then what the features
    // keep going (the push queue, live streams) stops, then the database closes.
    void requests
      .drained(SHUTDOWN_GRACE_MS - CLOSE_BUDGET_MS)
      .then((drained) => {
        if (!drained) log.warn('shutting down with requests still running', { running: requests.count })
        features.close()
        if ('closeAllConnections' in server) server.closeAllConnections()
        return bus.close()
      })
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((err) => {
        log.error('shutdown failed', { err })
        process.exit(1)
      })
  }
  process.on('SIGINT', shutdown)
  process.on('SIGTERM', shutdown)
}

export function bootOrExit(options: BootOptions = {}): void {
  boot(options).catch((err) => {
    process.stderr.write(`Buble failed to start: ${err instanceof Error ? err.message : String(err)}\n`)
    process.exit(1)
  })
}

// Started as a program (not imported by a test server).
if (process.argv[1] && realpathSync(fileURLToPath(import.meta.url)) === realpathSync(process.argv[1])) bootOrExit()
