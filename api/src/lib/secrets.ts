/** Secrets not given in the environment are generated once and kept in DATA_DIR/secrets.json (mode 0600). */

import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import webpush from 'web-push'
import type { Config } from '../config.ts'

export interface Secrets {
  jwtSecret: string
  vapidPublicKey: string
  vapidPrivateKey: string
}

export function loadSecrets(config: Config): Secrets {
  const file = path.join(config.dataDir, 'secrets.json')
  let stored: Partial<Secrets> = {}
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    // First start: nothing kept yet.
  }
  const vapid =
    stored.vapidPublicKey && stored.vapidPrivateKey
      ? { publicKey: stored.vapidPublicKey, privateKey: stored.vapidPrivateKey }
      : webpush.generateVAPIDKeys()
  const kept: Secrets = {
    jwtSecret: stored.jwtSecret ?? randomBytes(48).toString('base64url'),
    vapidPublicKey: vapid.publicKey,
    vapidPrivateKey: vapid.privateKey,
  }
  if (kept.jwtSecret !== stored.jwtSecret || kept.vapidPublicKey !== stored.vapidPublicKey) {
    mkdirSync(config.dataDir, { recursive: true })
    writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 })
  }
  return {
    jwtSecret: config.jwtSecret ?? kept.jwtSecret,
    vapidPublicKey: config.vapid.publicKey ?? kept.vapidPublicKey,
    vapidPrivateKey: config.vapid.privateKey ?? kept.vapidPrivateKey,
  }
}
