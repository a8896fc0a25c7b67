/** Access tokens (HS256 JWTs, 7 days) and the random one-time tokens sent by mail. */

import { createHash, randomBytes } from 'node:crypto'
import { SESSION_LIFETIME_MS } from '@buble/shared/constants'
import { jwtVerify, SignJWT } from 'jose'

export interface TokenClaims {
  sub: string
  /** The user's token version when the token was issued. */
  tv: number
}

export interface AccessTokens {
  sign(user: { id: string; tokenVersion: number }): Promise<string>
  /** The claims of a valid, unexpired token, or null for anything else. */
  verify(token: string): Promise<TokenClaims | null>
}

export function createAccessTokens(secret: string): AccessTokens {
  const key = new TextEncoder().encode(secret)
  return {
    sign: (user) =>
      new SignJWT({ tv: user.tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime(new Date(Date.now() + SESSION_LIFETIME_MS))
        .sign(key),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] })
        if (typeof payload.sub !== 'string' || typeof payload.tv !== 'number') return null
        return { sub: payload.sub, tv: payload.tv }
      } catch {
        return null
      }
    },
  }
}

/** A fresh URL-safe token and the hash under which it is stored. */
export function newOneTimeToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashOneTimeToken(token) }
}

export const hashOneTimeToken = (token: string): string => createHash('sha256').update(token).digest('hex')
