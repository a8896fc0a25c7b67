/** Access tokens (HS256 JWTs, 7 days) and the random one-time tokens sent by mail. */

import { createHash, createHmac, randomBytes } from 'node:crypto'
import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { jwtVerify, SignJWT } from 'jose'

export interface TokenClaims {
  sub: string
  /** The user's token version when the token was issued. */
  tv: number
  /**
   * The session the token belongs to (decision 103). Absent only from tokens issued before sessions
   * existed: they are accepted until they expire (at most SESSION_LIFETIME_MS after that change).
   */
  sid?: string
}

/** The session a token is signed for; `expiresAt` defaults to SESSION_LIFETIME_MS from now. */
export interface TokenSession {
  id: string
  expiresAt?: Date
}

export interface AccessTokens {
  /** A token for `user`; without `session`, one of no session (tests' fixtures only: every sign-in has one). */
  sign(user: { id: string; tokenVersion: number }, session?: TokenSession): Promise<string>
  /** The claims of a valid, unexpired token, or null for anything else. */
  verify(token: string): Promise<TokenClaims | null>
  /**
   * A URL-safe secret made from the signing key, `purpose` and `input` (HMAC-SHA-256): the same
   * answer every time, so a secret the database never holds can be shown again (a calendar feed's).
   */
  derive(purpose: string, input: string): string
}

// Signature checks are the costly part of a request; a token string already proven genuine is
// remembered (bounded), while its expiry is still checked on every use and the account and token
// version are still read from the database by the caller.
const VERIFIED_CACHE_SIZE = 10_000

export function createAccessTokens(secret: string): AccessTokens {
  const raw = new TextEncoder().encode(secret)
  const key = crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
  const verified = new Map<string, TokenClaims & { exp: number }>()
  return {
    derive: (purpose, input) => createHmac('sha256', secret).update(`${purpose}\0${input}`).digest('base64url'),
    sign: async (user, session) =>
      new SignJWT(session ? { tv: user.tokenVersion, sid: session.id } : { tv: user.tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime(session?.expiresAt ?? new Date(Date.now() + SESSION_LIFETIME_MS))
        .sign(await key),
    async verify(token) {
      const known = verified.get(token)
      if (known) {
        if (known.exp * 1000 > Date.now()) return claimsOf(known)
        verified.delete(token)
        return null
      }
      try {
        const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'], requiredClaims: ['exp', 'sub'] })
        if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number' || typeof payload.exp !== 'number')
          return null
        if (payload.sid !== undefined && typeof payload.sid !== 'string') return null
        const claims = { sub: payload.sub, tv: payload.tv, exp: payload.exp, sid: payload.sid as string | undefined }
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string)
        verified.set(token, claims)
        return claimsOf(claims)
      } catch {
        return null
      }
    },
  }
}

const claimsOf = ({ sub, tv, sid }: TokenClaims): TokenClaims => (sid === undefined ? { sub, tv } : { sub, tv, sid })

/** A fresh URL-safe token and the hash under which it is stored. */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashOneTimeToken(token) }
}

export const hashOneTimeToken = (token: string): string => createHash('sha256').update(token).digest('hex')
