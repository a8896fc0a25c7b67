/** The only reader of process.env: parses it once into a frozen, typed config (CONTRACT §1.1). */

import { readFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

const url = (protocols: string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol)
      } catch {
        return false
      }
    },
    `must be a ${protocols.join(' or ')} URL`,
  )

const commaList = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
)

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres:', 'postgresql:']).optional(),
  PUBLIC_URL: url(['http:', 'https:']).optional(),
  JWT_SECRET: z
    .string()
    .refine((value) => Buffer.byteLength(value, 'utf8') >= 32, 'must be at least 32 bytes')
    .optional(),
  SMTP_URL: url(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z.string().min(3).default('Buble <no-reply@localhost>'),
  BUBLE_ADMIN_EMAILS: commaList.pipe(z.array(z.string())).default([]),
  VAPID_PUBLIC_KEY: z.string().min(20).optional(),
  VAPID_PRIVATE_KEY: z.string().min(20).optional(),
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:)/, 'must start with mailto: or https:')
    .default('mailto:admin@localhost'),
  TICKETMASTER_API_KEY: z.string().min(1).optional(),
  TICKETMASTER_BASE_URL: url(['https:', 'http:']).default('https://app.ticketmaster.com/discovery/v2'),
  WEATHER_BASE_URL: url(['https:', 'http:']).default('https://api.open-meteo.com'),
  GEOCODING_BASE_URL: url(['https:', 'http:']).default('https://geocoding-api.open-meteo.com'),
  DONATION_CURRENCY: z
    .string()
    .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code')
    .default('EUR'),
  DONATION_STRIPE_LINK: url(['https:']).optional(),
  DONATION_PAYPAL_LINK: url(['https:']).optional(),
  DONATION_BANK_IBAN: z.string().min(5).optional(),
  DONATION_BANK_BIC: z.string().min(5).optional(),
  DONATION_SUGGESTED_AMOUNTS: commaList
    .pipe(
      z.array(
        z
          .string()
          .regex(/^\d+(\.\d+)?$/, 'must be a comma-separated list of amounts')
          .transform(Number),
      ),
    )
    .default([5, 10, 20, 50]),
  BUBLE_RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  // Header names a trusted proxy or CDN sets to the client's place (e.g. cf-ipcity,cf-ipcountry): shown beside a session.
  SESSION_PLACE_HEADERS: commaList
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9-]+$/, 'must be a comma-separated list of header names')))
    .default([]),
  // Browsers send a bare origin (no path, no trailing slash, lower-case host): compare like with like.
  CORS_ORIGINS: commaList
    .pipe(z.array(url(['http:', 'https:']).transform((value) => new URL(value).origin)))
    .default([]),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  // S3-compatible object storage for uploaded files: all five set, or none (files stay under DATA_DIR).
  S3_ENDPOINT: url(['http:', 'https:']).optional(),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false', '1', '0']).optional(),
})

/** The variables that together turn S3 storage on. */
export const S3_VARIABLES = [
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
] as const

/** Where uploaded files go when they go to a bucket. */
export interface S3Settings {
  endpoint: string
  bucket: string
  region: string
  accessKeyId: string
  secretAccessKey: string
  /** Bucket in the path (`endpoint/bucket/key`), as most self-hosted servers want, not in the host name. */
  forcePathStyle: boolean
}

function s3SettingsOf(e: z.infer<typeof Env>): S3Settings | undefined {
  const missing = S3_VARIABLES.filter((name) => e[name] === undefined)
  const anySet = missing.length < S3_VARIABLES.length || e.S3_FORCE_PATH_STYLE !== undefined
  if (!anySet) return undefined
  if (missing.length > 0)
    throw new ConfigError(`S3 storage is half configured: set ${missing.join(', ')} too, or none of the S3_* variables`)
  return {
    endpoint: e.S3_ENDPOINT!,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION!,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true' || e.S3_FORCE_PATH_STYLE === '1',
  }
}

const PACKAGE_VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version

export type LogLevel = z.infer<typeof Env>['LOG_LEVEL']

export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | undefined
  publicUrl: string
  jwtSecret: string | undefined
  smtpUrl: string | undefined
  mailFrom: string
  adminEmails: readonly string[]
  vapid: { publicKey: string | undefined; privateKey: string | undefined; subject: string }
  ticketmaster: { apiKey: string | undefined; baseUrl: string }
  weather: { baseUrl: string; geocodingUrl: string }
  donations: {
    currency: string
    stripeLink: string | undefined
    paypalLink: string | undefined
    bankIban: string | undefined
    bankBic: string | undefined
    suggestedAmounts: readonly number[]
  }
  rateLimits: boolean
  trustProxy: boolean
  /** Headers whose values, joined, name a session's place (decision 103); empty: places are unknown. */
  sessionPlaceHeaders: readonly string[]
  corsOrigins: readonly string[]
  logLevel: LogLevel
  /** Set: uploaded files go to this bucket; unset: to DATA_DIR/uploads. */
  s3: S3Settings | undefined
  version: string
}

/** A bad environment variable: the message names the variable and the rule, never its value. */
export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // Treat empty strings as unset, the way shells and compose files usually mean them.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''))
  const parsed = Env.safeParse(cleaned)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ConfigError(`Invalid ${String(issue.path[0])}: ${issue.message}`)
  }
  const e = parsed.data
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    adminEmails: Object.freeze(e.BUBLE_ADMIN_EMAILS.map((email) => email.toLowerCase())),
    vapid: { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY, subject: e.VAPID_SUBJECT },
    ticketmaster: { apiKey: e.TICKETMASTER_API_KEY, baseUrl: e.TICKETMASTER_BASE_URL },
    weather: { baseUrl: e.WEATHER_BASE_URL, geocodingUrl: e.GEOCODING_BASE_URL },
    donations: {
      currency: e.DONATION_CURRENCY,
      stripeLink: e.DONATION_STRIPE_LINK,
      paypalLink: e.DONATION_PAYPAL_LINK,
      bankIban: e.DONATION_BANK_IBAN,
      bankBic: e.DONATION_BANK_BIC,
      suggestedAmounts: Object.freeze(e.DONATION_SUGGESTED_AMOUNTS),
    },
    rateLimits: e.BUBLE_RATE_LIMITS === 'on',
    trustProxy: e.TRUST_PROXY === '1',
    sessionPlaceHeaders: Object.freeze(e.SESSION_PLACE_HEADERS.map((name) => name.toLowerCase())),
    corsOrigins: Object.freeze(e.CORS_ORIGINS),
    logLevel: e.LOG_LEVEL,
    s3: s3SettingsOf(e),
    version: PACKAGE_VERSION,
  })
}
