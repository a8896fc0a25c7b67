/**
 * WebAuthn challenges (decision 102): a row per challenge handed out, so any API process can check
 * the answer, and deleted by the answer that uses it, so no challenge is good for two answers.
 */

import { PASSKEY_CHALLENGE_TTL_MS, PASSKEY_MESSAGES } from '@buble/shared/passkeys'
import { decodeClientDataJSON } from '@simplewebauthn/server/helpers'
import { and, eq, gt, isNull, lt } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { webauthnChallenges } from '../../db/schema.ts'
import { tokenInvalid } from '../../lib/errors.ts'

export type ChallengeKind = 'registration' | 'authentication'

export interface IssuedChallenge {
  challenge: string
  origin: string
}

/** 32 random bytes: what the options carry (the library encodes them as base64url). */
export const newChallengeBytes = (): Uint8Array<ArrayBuffer> => crypto.getRandomValues(new Uint8Array(32))

export function challengeStore(db: Db, now: () => Date) {
  return {
    /** Keeps `challenge` (base64url, as the options carry it) for one answer within the TTL; clears expired ones. */
    async keep(challenge: string, kind: ChallengeKind, userId: string | null, origin: string): Promise<void> {
      await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now()))
      await db.insert(webauthnChallenges).values({
        challenge,
        kind,
        userId,
        origin,
        expiresAt: new Date(now().getTime() + PASSKEY_CHALLENGE_TTL_MS),
      })
    },

    /**
     * Takes the challenge an answer signed (read from its client data) out of the store and answers it with
     * the origin that asked for it; 410 when it was never handed out to this caller, is spent or has expired.
     */
    async take(clientDataJSON: string, kind: ChallengeKind, userId: string | null): Promise<IssuedChallenge> {
      let challenge: string
      try {
        challenge = decodeClientDataJSON(clientDataJSON).challenge
      } catch {
        throw tokenInvalid(PASSKEY_MESSAGES.expired)
      }
      if (typeof challenge !== 'string') throw tokenInvalid(PASSKEY_MESSAGES.expired)
      const [row] = await db
        .delete(webauthnChallenges)
        .where(
          and(
            eq(webauthnChallenges.challenge, challenge),
            eq(webauthnChallenges.kind, kind),
            userId ? eq(webauthnChallenges.userId, userId) : isNull(webauthnChallenges.userId),
            gt(webauthnChallenges.expiresAt, now()),
          ),
        )
        .returning()
      if (!row) throw tokenInvalid(PASSKEY_MESSAGES.expired)
      return { challenge: row.challenge, origin: row.origin }
    },
  }
}
