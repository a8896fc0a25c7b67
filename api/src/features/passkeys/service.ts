/**
 * Passkeys (decision 102): adding one, listing, renaming and removing them, signing in with one, and
 * giving up the password once a passkey is held. The relying party is the host of the page that asked,
 * when it is one of the operator's origins (PUBLIC_URL, CORS_ORIGINS), else PUBLIC_URL's.
 */

import type { AuthResponse } from '@buble/shared/auth'
import {
  type AddPasskeyBody,
  canRemoveSignInMethod,
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEY_MESSAGES,
  type Passkey,
  type PasskeyLoginBody,
  type PasskeysResponse,
  type RemovePasswordBody,
} from '@buble/shared/passkeys'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import { and, asc, count, eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import type { Tx } from '../../db/client.ts'
import { passkeys, users, webauthnChallenges } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import type { AccountDeletionStep, UserRow } from '../../lib/accounts.ts'
import { AppError, conflict, notFound } from '../../lib/errors.ts'
import { verifyPassword } from '../../lib/passwords.ts'
import { challengeStore, newChallengeBytes } from './challenges.ts'

type PasskeyRow = typeof passkeys.$inferSelect

/** The wrong-password text of the profile (features/profile USER_MESSAGES): the same words for the same mistake. */
const WRONG_PASSWORD = 'Current password is incorrect'

export const toPasskey = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  device_type: row.deviceType,
  backed_up: row.backedUp,
  created_at: row.createdAt.toISOString(),
  last_used_at: row.lastUsedAt?.toISOString() ?? null,
})

/** Account deletion's part: the passkeys go with the personal data (the row stays, so no cascade does it). */
export const deletePasskeysOf: AccountDeletionStep = async (tx, user) => {
  await tx.delete(passkeys).where(eq(passkeys.userId, user.id))
  await tx.delete(webauthnChallenges).where(eq(webauthnChallenges.userId, user.id))
}

export interface PasskeyHooks {
  /** How every sign-in is answered (features/auth issueAuth): a passkey's is the same as a password's. */
  issueAuth(user: UserRow, headers: Headers | undefined): Promise<AuthResponse>
}

export type PasskeysService = ReturnType<typeof passkeysService>

export function passkeysService(deps: Deps, { issueAuth }: PasskeyHooks) {
  const { db, config, rateLimits, now } = deps
  const challenges = challengeStore(db, now)
  const origins = [new URL(config.publicUrl).origin, ...config.corsOrigins]
  const originOf = (asked: string | undefined) => (asked && origins.includes(asked) ? asked : origins[0]!)
  const rpIdOf = (origin: string) => new URL(origin).hostname

  const notRecognised = () => new AppError('INVALID_CREDENTIALS', PASSKEY_MESSAGES.notRecognised)
  // 400, not 401: a 401 would sign the member out.
  const notVerified = () => new AppError('VALIDATION_ERROR', PASSKEY_MESSAGES.notVerified)

  /** The member's row, locked, and how they can sign in: removals serialize on it, so two can't leave none. */
  async function lockMethods(tx: Tx, userId: string) {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update')
    const [held] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId))
    return { user: user!, methods: { hasPassword: user?.passwordHash != null, passkeys: held?.n ?? 0 } }
  }

  return {
    async list(user: UserRow): Promise<PasskeysResponse> {
      const rows = await db
        .select()
        .from(passkeys)
        .where(eq(passkeys.userId, user.id))
        .orderBy(asc(passkeys.createdAt), asc(passkeys.id))
      return { passkeys: rows.map(toPasskey), has_password: user.passwordHash != null }
    },

    /** Options for `navigator.credentials.create()`: a discoverable credential that verifies its user. */
    async registrationOptions(
      user: UserRow,
      askedFrom: string | undefined,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      const origin = originOf(askedFrom)
      const held = await db
        .select({ id: passkeys.credentialId, transports: passkeys.transports })
        .from(passkeys)
        .where(eq(passkeys.userId, user.id))
      const options = await generateRegistrationOptions({
        rpName: 'Buble',
        rpID: rpIdOf(origin),
        userName: user.email,
        userDisplayName: user.name,
        userID: new TextEncoder().encode(user.id),
        challenge: newChallengeBytes(),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        attestationType: 'none',
        // The browser refuses an authenticator that already holds one of these: no passkey twice.
        excludeCredentials: held,
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      })
      await challenges.keep(options.challenge, 'registration', user.id, origin)
      return options
    },

    async add(user: UserRow, { name, response }: AddPasskeyBody): Promise<Passkey> {
      const { challenge, origin } = await challenges.take(response.response.clientDataJSON, 'registration', user.id)
      const verification = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpIdOf(origin),
        requireUserVerification: true,
      }).catch(() => null)
      if (!verification?.verified) throw notVerified()
      const { credential, credentialDeviceType, credentialBackedUp } = verification.registrationInfo
      const [row] = await db
        .insert(passkeys)
        .values({
          id: uuidv7(),
          userId: user.id,
          credentialId: credential.id,
          publicKey: isoBase64URL.fromBuffer(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports ?? [],
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
          name,
          createdAt: now(),
        })
        .onConflictDoNothing()
        .returning()
      if (!row) throw conflict(PASSKEY_MESSAGES.alreadyAdded)
      return toPasskey(row)
    },

    async rename(user: UserRow, id: string, name: string): Promise<Passkey> {
      const [row] = await db
        .update(passkeys)
        .set({ name })
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
        .returning()
      if (!row) throw notFound(PASSKEY_MESSAGES.notFound)
      return toPasskey(row)
    },

    /** Removes one of the member's passkeys, unless it is their last way to sign in (409). */
    async remove(user: UserRow, id: string): Promise<{ message: string }> {
      await db.transaction(async (tx) => {
        const { methods } = await lockMethods(tx, user.id)
        const [row] = await tx
          .select({ id: passkeys.id })
          .from(passkeys)
          .where(and(eq(passkeys.id, id), eq(passkeys.userId, user.id)))
        if (!row) throw notFound(PASSKEY_MESSAGES.notFound)
        if (!canRemoveSignInMethod(methods, 'passkey')) throw conflict(PASSKEY_MESSAGES.lastPasskey)
        await tx.delete(passkeys).where(eq(passkeys.id, id))
      })
      return { message: PASSKEY_MESSAGES.removed }
    },

    /**
     * Gives up the password, proven by typing it, once a passkey is held (409 otherwise). Sessions stay:
     * nothing was disclosed. A reset by e-mail sets a password again.
     */
    async removePassword(user: UserRow, { currentPassword }: RemovePasswordBody): Promise<{ message: string }> {
      if (user.passwordHash == null) throw conflict(PASSKEY_MESSAGES.noPassword)
      // 400, not 401, as for a password change: a 401 would make the client sign out.
      if (!(await verifyPassword(user.passwordHash, currentPassword)))
        throw new AppError('INVALID_PASSWORD', WRONG_PASSWORD)
      await db.transaction(async (tx) => {
        const { user: current, methods } = await lockMethods(tx, user.id)
        // Changed since it was checked (a reset in between): the typed password is not this one.
        if (current.passwordHash !== user.passwordHash) throw new AppError('INVALID_PASSWORD', WRONG_PASSWORD)
        if (!canRemoveSignInMethod(methods, 'password')) throw conflict(PASSKEY_MESSAGES.passwordIsLast)
        await tx.update(users).set({ passwordHash: null, updatedAt: now() }).where(eq(users.id, user.id))
      })
      return { message: PASSKEY_MESSAGES.passwordRemoved }
    },

    /** Options for `navigator.credentials.get()`: no account named, the authenticator offers its passkeys (and autofill). */
    async authenticationOptions(
      ip: string,
      askedFrom: string | undefined,
    ): Promise<PublicKeyCredentialRequestOptionsJSON> {
      await rateLimits.consume(['passkeyOptionsPerIp', ip])
      const origin = originOf(askedFrom)
      const options = await generateAuthenticationOptions({
        rpID: rpIdOf(origin),
        challenge: newChallengeBytes(),
        timeout: PASSKEY_CHALLENGE_TTL_MS,
        userVerification: 'required',
      })
      await challenges.keep(options.challenge, 'authentication', null, origin)
      return options
    },

    /** Signs in with a passkey: the same limits as a password sign-in, and the same answer. */
    async login({ response }: PasskeyLoginBody, ip: string, headers?: Headers): Promise<AuthResponse> {
      const pairKey = `${ip}|passkey:${response.id}`
      await rateLimits.claim(['loginFailuresPerIpEmail', pairKey], ['loginFailuresPerIp', ip])
      const { challenge, origin } = await challenges.take(response.response.clientDataJSON, 'authentication', null)
      const [found] = await db
        .select({ passkey: passkeys, user: users })
        .from(passkeys)
        .innerJoin(users, eq(users.id, passkeys.userId))
        .where(eq(passkeys.credentialId, response.id))
      if (found?.user.status !== 'active') throw notRecognised()
      const { passkey, user } = found
      // The authenticator names the account it made the passkey for: it must be the passkey's owner.
      const handle = response.response.userHandle
      if (handle && isoBase64URL.toUTF8String(handle) !== user.id) throw notRecognised()
      const verification = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: origin,
        expectedRPID: rpIdOf(origin),
        credential: {
          id: passkey.credentialId,
          publicKey: isoBase64URL.toBuffer(passkey.publicKey),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      }).catch(() => null)
      if (!verification?.verified) throw notRecognised()
      const info = verification.authenticationInfo
      await db
        .update(passkeys)
        .set({ counter: info.newCounter, backedUp: info.credentialBackedUp, lastUsedAt: now() })
        .where(eq(passkeys.id, passkey.id))
      await rateLimits.reset('loginFailuresPerIpEmail', pairKey)
      await rateLimits.giveBack(['loginFailuresPerIp', ip])
      return issueAuth(user, headers)
    },
  }
}
