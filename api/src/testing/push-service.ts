/**
 * A Web Push service on 127.0.0.1 for tests, and the browser's side of a subscription: its keys, and
 * the user agent's decryption of a push body (RFC 8291/8188), so tests read what a device would show.
 */

import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect } from 'vitest'

export interface Received {
  path: string
  status: number
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

/** A push service: answers each path with the statuses queued for it (then 201), and records every request. */
export async function startPushService() {
  const received: Received[] = []
  const answers = new Map<string, number[]>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = req.url ?? '/'
      const status = answers.get(path)?.shift() ?? 201
      received.push({ path, status, headers: req.headers, body: Buffer.concat(chunks) })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    origin,
    received,
    answer: (path: string, ...statuses: number[]) => answers.set(path, statuses),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** A browser's side of a subscription: its P-256 key pair and auth secret. */
export function newDeviceKeys() {
  const ecdh = createECDH('prime256v1')
  ecdh.generateKeys()
  const auth = randomBytes(16)
  return {
    ecdh,
    auth,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
  }
}

export type DeviceKeys = ReturnType<typeof newDeviceKeys>

/** RFC 8291 + RFC 8188 (one record): the user agent's decryption of an aes128gcm push body. */
export function decrypt(body: Buffer, device: Pick<DeviceKeys, 'ecdh' | 'auth'>): string {
  const salt = body.subarray(0, 16)
  const idLength = body[20]!
  const senderPublic = body.subarray(21, 21 + idLength)
  const ciphertext = body.subarray(21 + idLength)
  const shared = device.ecdh.computeSecret(senderPublic)
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), device.ecdh.getPublicKey(), senderPublic])
  const ikm = Buffer.from(hkdfSync('sha256', shared, device.auth, keyInfo, 32))
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16))
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12))
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce)
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16))
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()])
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  expect(padded[end]).toBe(2)
  return padded.subarray(0, end).toString('utf8')
}
