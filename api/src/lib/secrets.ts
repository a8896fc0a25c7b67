/** Secrets not given in the environment are generated once and kept in DATA_DIR/secrets.json (mode 0600). */

import { randomBytes } from 'node:crypto'
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import webpush from 'web-push'
import type { Config } from '../config.ts'

export interface Secrets {
  jwtSecret: string
  vapidPublicKey: string
  vapidPrivateKey: string
}

/** The kept secrets: null when there is no file yet, nothing when it cannot be read (then it is written afresh). */
function readKept(file: string): Partial<Secrets> | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? null : {}
  }
}

const complete = (secrets: Partial<Secrets> | null): secrets is Secrets =>
  Boolean(secrets?.jwtSecret && secrets.vapidPublicKey && secrets.vapidPrivateKey)

/** A file kept incomplete (or unreadable) is completed in place, as it always was. */
function writeOver(file: string, secrets: Secrets): Secrets {
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 })
  return secrets
}

/**
 * Keeps `secrets` unless another process kept its own first, and answers those kept. Several
 * processes may start at once on one DATA_DIR (app nodes sharing a volume): the file appears whole
 * or not at all (written aside, then linked into place, which fails if another got there first), so
 * no process reads half a file, or keeps a JWT secret or VAPID key the others do not know.
 */
function keepFirst(file: string, secrets: Secrets): Secrets {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  writeFileSync(aside, JSON.stringify(secrets, null, 2), { mode: 0o600 })
  try {
    linkSync(aside, file)
    return secrets
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err
    const theirs = readKept(file)
    return complete(theirs) ? theirs : writeOver(file, secrets)
  } finally {
    rmSync(aside, { force: true })
  }
}

export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json')
  const found = readKept(file)
  const stored = found ?? {}
  let kept: Secrets
  if (complete(found)) kept = found
  else {
    const vapid =
      stored.vapidPublicKey && stored.vapidPrivateKey
        ? { publicKey: stored.vapidPublicKey, privateKey: stored.vapidPrivateKey }
        : webpush.generateVAPIDKeys()
    const made: Secrets = {
      jwtSecret: stored.jwtSecret ?? randomBytes(48).toString('base64url'),
      vapidPublicKey: vapid.publicKey,
      vapidPrivateKey: vapid.privateKey,
    }
    mkdirSync(config.dataDir, { recursive: true })
    kept = found ? writeOver(file, made) : keepFirst(file, made)
  }
  return {
    jwtSecret: config.jwtSecret ?? kept.jwtSecret,
    vapidPublicKey: config.vapid.publicKey ?? kept.vapidPublicKey,
    vapidPrivateKey: config.vapid.privateKey ?? kept.vapidPrivateKey,
  }
}
