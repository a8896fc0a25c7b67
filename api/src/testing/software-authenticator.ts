/**
 * A WebAuthn authenticator in software, for the passkey tests: a P-256 key from node:crypto, 'none'
 * attestation, answers built byte by byte as a browser and an authenticator would (WebAuthn L2 §6.1,
 * §6.5, §8.7), so the server's real verification (@simplewebauthn/server) runs on them. Every field a
 * test may want to get wrong (origin, RP ID, challenge, counter, user handle) can be overridden.
 */

import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto'
import { isoCBOR } from '@simplewebauthn/server/helpers'

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url')
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest()

// Flags of the authenticator data: user present, user verified, attested credential data included.
const UP = 0x01
const UV = 0x04
const AT = 0x40

export interface Overrides {
  origin?: string
  rpId?: string
  challenge?: string
  type?: string
  /** The signature counter to report (the authenticator's own otherwise, one more each time). */
  counter?: number
  userVerified?: boolean
  userHandle?: string | null
  /** Sign with this key instead of the credential's (a forged answer). */
  signWith?: KeyObject
}

export interface SoftwareCredential {
  id: string
  privateKey: KeyObject
  userHandle: string
  counter: number
}

export function createSoftwareAuthenticator(defaults: { origin: string; rpId: string }) {
  const credentials = new Map<string, SoftwareCredential>()

  const clientData = (type: string, challenge: string, origin: string) =>
    b64url(JSON.stringify({ type, challenge, origin, crossOrigin: false }))

  const flagsOf = (o: Overrides, extra = 0) => UP | (o.userVerified === false ? 0 : UV) | extra

  const authData = (rpId: string, flags: number, counter: number, attested?: Buffer) => {
    const head = Buffer.alloc(37)
    sha256(rpId).copy(head, 0)
    head.writeUInt8(flags, 32)
    head.writeUInt32BE(counter, 33)
    return attested ? Buffer.concat([head, attested]) : head
  }

  return {
    credentials,

    /** Answers registration options as `navigator.credentials.create()` would, keeping the new credential. */
    register(options: { challenge: string; user: { id: string } }, o: Overrides = {}) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' })
      const jwk = publicKey.export({ format: 'jwk' })
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2], // kty: EC2
          [3, -7], // alg: ES256
          [-1, 1], // crv: P-256
          [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
          [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
        ]),
      )
      const rawId = randomBytes(16)
      const idLength = Buffer.alloc(2)
      idLength.writeUInt16BE(rawId.length)
      const attested = Buffer.concat([Buffer.alloc(16), idLength, rawId, Buffer.from(cose)])
      const counter = o.counter ?? 0
      const data = authData(o.rpId ?? defaults.rpId, flagsOf(o, AT), counter, attested)
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, string> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', new Uint8Array(data)],
        ]),
      )
      const id = b64url(rawId)
      credentials.set(id, { id, privateKey, userHandle: options.user.id, counter })
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: {
          clientDataJSON: clientData(
            o.type ?? 'webauthn.create',
            o.challenge ?? options.challenge,
            o.origin ?? defaults.origin,
          ),
          attestationObject: b64url(attestationObject),
          transports: ['internal' as const],
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      }
    },

    /** Answers authentication options with the credential `id`, as `navigator.credentials.get()` would. */
    authenticate(options: { challenge: string }, id: string, o: Overrides = {}) {
      const credential = credentials.get(id)
      if (!credential) throw new Error(`no credential ${id}`)
      credential.counter = o.counter ?? credential.counter + 1
      const data = authData(o.rpId ?? defaults.rpId, flagsOf(o), credential.counter)
      const clientDataJSON = clientData(
        o.type ?? 'webauthn.get',
        o.challenge ?? options.challenge,
        o.origin ?? defaults.origin,
      )
      const signed = Buffer.concat([data, sha256(Buffer.from(clientDataJSON, 'base64url'))])
      const signature = sign('sha256', signed, o.signWith ?? credential.privateKey)
      const userHandle = o.userHandle === undefined ? credential.userHandle : o.userHandle
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: {
          clientDataJSON,
          authenticatorData: b64url(data),
          signature: b64url(signature),
          ...(userHandle === null ? {} : { userHandle }),
        },
        authenticatorAttachment: 'platform' as const,
        clientExtensionResults: {},
      }
    },
  }
}
