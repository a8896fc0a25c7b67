/** Single-use tokens mailed for verification, password reset and invite registration. */

import { and, eq, gt, isNull } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../db/client.ts'
import { emailTokens } from '../db/schema.ts'
import { hashOneTimeToken, newOneTimeToken } from './tokens.ts'

export type EmailTokenKind = (typeof emailTokens.$inferSelect)['kind']

/** Issues a token of `kind` for a user; earlier unused tokens of that kind stop working. */
export async function issueEmailToken(
  db: Executor,
  userId: string,
  kind: EmailTokenKind,
  ttlMs: number,
  now = new Date(),
): Promise<string> {
  const { token, hash } = newOneTimeToken()
  await revokeEmailTokens(db, userId, kind, now)
  await db
    .insert(emailTokens)
    .values({ id: uuidv7(), userId, kind, tokenHash: hash, expiresAt: new Date(now.getTime() + ttlMs) })
  return token
}

/** Makes every unused token of `kind` of a user unusable (410 from then on). */
export async function revokeEmailTokens(
  db: Executor,
  userId: string,
  kind: EmailTokenKind,
  now = new Date(),
): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.kind, kind), isNull(emailTokens.usedAt)))
}

/** Marks a valid token used and answers its user id; null when unknown, used, expired or of another kind. */
export async function consumeEmailToken(
  db: Executor,
  token: string,
  kind: EmailTokenKind,
  now = new Date(),
): Promise<string | null> {
  const [row] = await db
    .update(emailTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(emailTokens.tokenHash, hashOneTimeToken(token)),
        eq(emailTokens.kind, kind),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, now),
      ),
    )
    .returning({ userId: emailTokens.userId })
  return row?.userId ?? null
}
