/** Builds the real app over a real database and SMTP server, with a clock tests can move. */

import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { v7 as uuidv7 } from 'uuid'
import { type AppOptions, createApp, createFeatures, type Features } from '../app.ts'
import { type Config, loadConfig } from '../config.ts'
import type { Database } from '../db/client.ts'
import { users } from '../db/schema.ts'
import type { Deps } from '../deps.ts'
import { createChangeBus } from '../lib/change-bus.ts'
import { createLogger } from '../lib/log.ts'
import { createMailer } from '../lib/mail.ts'
import { createRateLimits } from '../lib/rate-limit.ts'
import { loadSecrets } from '../lib/secrets.ts'
import { createConfiguredStorage } from '../lib/storage-s3.ts'
import { createAccessTokens } from '../lib/tokens.ts'
import { type Backend, openTestDatabase } from './databases.ts'
import { startTestS3, type TestS3 } from './s3.ts'
import { type SmtpCapture, startSmtpCapture } from './smtp.ts'

export const TEST_JWT_SECRET = 'test-secret-that-is-at-least-32-bytes-long!'
export const PUBLIC_URL = 'http://buble.test'
export const PASSWORD = 'Correct-Horse-9'

export interface Harness {
  app: ReturnType<typeof createApp>
  deps: Deps
  features: Features
  /** The services tests reach past the HTTP layer, as the features built them. */
  services: ReturnType<typeof testServices>
  database: Database
  smtp: SmtpCapture
  /** The harness's own S3 server, when this test file asked for S3 storage (useS3InHarness). */
  s3: TestS3 | undefined
  clock: { now: Date; advance(ms: number): void }
  /** A JSON request through the app (no port), with an optional bearer token. */
  call(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<TestResponse>
  /** Registers a user and answers its token and id. */
  register(opts?: {
    name?: string
    email?: string
    password?: string
  }): Promise<{ token: string; id: string; email: string }>
  close(): Promise<void>
}

/** A Response whose JSON tests may read freely. */
// biome-ignore lint/suspicious/noExplicitAny: test bodies are checked by assertions, not types.
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> }

/** The services tests call directly: the same objects the routes and mutations use, so a spy sees both. */
function testServices({ list, contentAdded, jobs }: Features) {
  return {
    users: list.profile.service,
    uploads: list.uploads.service,
    wall: list.wall.service,
    chat: list.chat.service,
    bubles: list.bubles.service,
    previewer: list.wall.previewer,
    stories: list.stories.service,
    invites: list.bubles.invites,
    pushSending: list.push.sending,
    contentAdded,
    jobs,
  }
}

/** Where harnesses built in this test file keep uploaded files; a test file may switch to a bucket (s3rver). */
let harnessStorage: 'disk' | 's3' = 'disk'
/** Every harness made after this call stores files in a bucket of its own s3rver, through the S3 storage. */
export function useS3InHarness(): void {
  harnessStorage = 's3'
}

let counter = 0
export const uniqueEmail = (prefix = 'user') => `${prefix}-${process.pid}-${Date.now()}-${++counter}@example.com`

/** An active account written straight to the database (no sign-up mail), with a token of its own. */
export async function insertUser(h: Harness, name = 'Member'): Promise<{ id: string; name: string; token: string }> {
  const [row] = await h.database.db
    .insert(users)
    .values({ id: uuidv7(), name, email: uniqueEmail('user'), createdAt: h.clock.now, updatedAt: h.clock.now })
    .returning()
  return { id: row!.id, name, token: await h.deps.tokens.sign(row!) }
}

/** The VAPID keys as the server finds them: the environment's, or generated once in DATA_DIR. */
function vapidOf(config: Config): Deps['vapid'] {
  const secrets = loadSecrets(config)
  return { publicKey: secrets.vapidPublicKey, privateKey: secrets.vapidPrivateKey, subject: config.vapid.subject }
}

export async function createHarness(
  backend: Backend,
  env: Record<string, string> = {},
  options: AppOptions = {},
): Promise<Harness> {
  const smtp = await startSmtpCapture()
  const dataDir = await mkdtemp(path.join(tmpdir(), 'buble-test-'))
  const s3: TestS3 | undefined = harnessStorage === 's3' ? await startTestS3() : undefined
  const config: Config = loadConfig({
    DATA_DIR: dataDir,
    PUBLIC_URL,
    SMTP_URL: smtp.url,
    JWT_SECRET: TEST_JWT_SECRET,
    LOG_LEVEL: 'silent',
    ...s3?.env,
    ...env,
  })
  const database = await openTestDatabase(backend)
  const clock = {
    now: new Date(),
    advance(ms: number) {
      clock.now = new Date(clock.now.getTime() + ms)
    },
  }
  const log = createLogger(config.logLevel)
  const bus = await createChangeBus(database, createLogger(config.logLevel))
  const deps: Deps = {
    config,
    database,
    db: database.db,
    log,
    mailer: createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir, log }),
    tokens: createAccessTokens(TEST_JWT_SECRET),
    rateLimits: createRateLimits(database.db, config.rateLimits),
    storage: createConfiguredStorage(config, log),
    bus,
    vapid: vapidOf(config),
    now: () => clock.now,
  }
  const features = createFeatures(deps, options)
  const app = createApp(deps, features)
  const services = testServices(features)
  const call: Harness['call'] = (method, url, { token, body, headers = {} } = {}) =>
    Promise.resolve(
      app.request(url, {
        method,
        headers: {
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
      }),
    )
  return {
    app,
    deps,
    features,
    services,
    database,
    smtp,
    s3,
    clock,
    call,
    async register({ name = 'Test User', email = uniqueEmail(), password = PASSWORD } = {}) {
      const res = await call('POST', '/api/auth/register', { body: { name, email, password } })
      if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`)
      const json = (await res.json()) as { access_token: string; user: { id: string; email: string } }
      return { token: json.access_token, id: json.user.id, email: json.user.email }
    },
    async close() {
      // Background previews finish before the database closes.
      await services.previewer.idle()
      features.close()
      await bus.close()
      await database.close()
      await smtp.close()
      await s3?.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
