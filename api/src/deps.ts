/** What every service and route factory is given: plain values, built once in server.ts or a test. */

import type { Config } from './config.ts'
import type { Database, Db } from './db/client.ts'
import type { ChangeBus } from './lib/change-bus.ts'
import type { Logger } from './lib/log.ts'
import type { Mailer } from './lib/mail.ts'
import type { RateLimits } from './lib/rate-limit.ts'
import type { FileStorage } from './lib/storage.ts'
import type { AccessTokens } from './lib/tokens.ts'

export interface Deps {
  config: Config
  database: Database
  db: Db
  log: Logger
  mailer: Mailer
  tokens: AccessTokens
  rateLimits: RateLimits
  storage: FileStorage
  /** Pokes from every API process, for this one's live streams. */
  bus: ChangeBus
  /** Web Push: the VAPID keys (lib/secrets.ts) and subject. */
  vapid: { publicKey: string; privateKey: string; subject: string }
  /** The clock; tests move it. */
  now: () => Date
}
