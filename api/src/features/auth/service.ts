/** Registration, sign-in, e-mail verification and password reset (CONTRACT §3.1). */

import {
  ALREADY_VERIFIED_MESSAGE,
  type AuthResponse,
  type LoginBody,
  type RegisterBody,
  type ResetPasswordBody,
  SESSION_ENDED_MESSAGE,
  type VerifyEmailResponse,
} from '@buble/shared/auth'
import { RESET_TOKEN_TTL_MS, VERIFY_TOKEN_TTL_MS } from '@buble/shared/constants'
import { and, eq } from 'drizzle-orm'
import { v7 as uuidv7 } from 'uuid'
import { emailTokens, users } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { type ActivationStep, findUserByEmail, findUserById, toUser, type UserRow } from '../../lib/accounts.ts'
import { consumeEmailToken, issueEmailToken } from '../../lib/email-tokens.ts'
import { AppError, conflict, tokenInvalid, unauthorized } from '../../lib/errors.ts'
import { linkMail } from '../../lib/mail.ts'
import { hashPassword, verifyPassword } from '../../lib/passwords.ts'
import { setNewPassword } from '../../lib/revocations.ts'
import { renewSession, signInFrom, startSession } from '../../lib/sessions.ts'
import { hashOneTimeToken } from '../../lib/tokens.ts'

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password',
  resendSent: 'If an unverified account exists for that address, a verification email has been sent.',
  forgotSent: 'If an account exists for that address, password reset instructions have been sent.',
  verified: 'Email verified successfully',
  verifyInvalid: 'This verification link is invalid or has expired',
  resetDone: 'Password has been reset successfully. You can now sign in.',
  resetInvalid: 'This reset link is invalid or has expired',
  emailTaken: 'An account with this email already exists',
} as const

export type AuthService = ReturnType<typeof authService>

export function authService(
  deps: Deps,
  { activationSteps = [] }: { activationSteps?: readonly ActivationStep[] } = {},
) {
  const { db, tokens, mailer, config, log, rateLimits, now } = deps

  /**
   * Signs `user` in: opens a session (its device and place read from the sign-in request's `headers`)
   * and answers its token. Every sign-in goes through here (decision 103).
   */
  const issueAuth = async (user: UserRow, headers: Headers | undefined): Promise<AuthResponse> => ({
    access_token: (await startSession(db, tokens, user, signInFrom(headers, config.sessionPlaceHeaders), now())).token,
    user: toUser(user),
  })

  const verificationMail = (user: UserRow, token: string) =>
    linkMail({
      to: user.email,
      subject: 'Verify your email for Buble',
      greeting: `Hi ${user.name},`,
      lines: ['Welcome to Buble! Please confirm that this is your email address.'],
      action: 'Verify email',
      link: `${config.publicUrl}/verify-email?token=${encodeURIComponent(token)}`,
      footer: 'This link works once and expires in 24 hours. If you did not create a Buble account, ignore this email.',
    })

  const resetMail = (user: UserRow, token: string) =>
    linkMail({
      to: user.email,
      subject: 'Reset your Buble password',
      greeting: `Hi ${user.name},`,
      lines: ['Someone (hopefully you) asked to reset the password of your Buble account.'],
      action: 'Choose a new password',
      link: `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`,
      footer:
        'This link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
    })

  async function sendVerification(user: UserRow): Promise<void> {
    const token = await issueEmailToken(db, user.id, 'verify', VERIFY_TOKEN_TTL_MS, now())
    await mailer.send(verificationMail(user, token))
  }

  /**
   * Issues a token and mails it once the answer has gone (the next turn of the event loop, after the
   * answer was written): the answer neither waits for it nor takes longer because there was one to
   * send, so its time tells nothing of whether the address has an account. A failure is logged only.
   */
  const mailAfterAnswer = (user: UserRow, kind: 'verify' | 'reset') =>
    setImmediate(() => {
      const send = async () => {
        const token = await issueEmailToken(
          db,
          user.id,
          kind,
          kind === 'verify' ? VERIFY_TOKEN_TTL_MS : RESET_TOKEN_TTL_MS,
          now(),
        )
        await mailer.send(kind === 'verify' ? verificationMail(user, token) : resetMail(user, token))
      }
      send().catch((err) => log.error(`${kind} mail failed`, { userId: user.id, err }))
    })

  // A failed mail must not undo the account: the user can ask for another one from the banner.
  const sendVerificationSafely = (user: UserRow) =>
    sendVerification(user).catch((err) => log.error('verification mail failed', { userId: user.id, err }))

  /** A new active account (or a pending one taken over), sent a verification mail; 409 if the address is taken. */
  async function createAccount(args: RegisterBody, role: UserRow['role'] = 'user'): Promise<UserRow> {
    const passwordHash = await hashPassword(args.password)
    const existing = await findUserByEmail(db, args.email)
    let user: UserRow
    if (existing?.status === 'pending') {
      // Someone invited this address; registering normally takes the pending account over. The
      // invite's link keeps working until the address is verified (CONTRACT §6): whoever verifies
      // first, by this account's verification mail or by that link, holds the account.
      const [taken] = await db
        .update(users)
        .set({ name: args.name, passwordHash, status: 'active', role, updatedAt: now() })
        // Still pending: the link's holder may have completed it since it was read.
        .where(and(eq(users.id, existing.id), eq(users.status, 'pending')))
        .returning()
      if (!taken) throw conflict(AUTH_MESSAGES.emailTaken)
      user = taken
    } else if (existing) {
      throw conflict(AUTH_MESSAGES.emailTaken)
    } else {
      const inserted = await db
        .insert(users)
        .values({
          id: uuidv7(),
          name: args.name,
          email: args.email,
          passwordHash,
          role,
          createdAt: now(),
          updatedAt: now(),
        })
        .onConflictDoNothing()
        .returning()
      if (!inserted[0]) throw conflict(AUTH_MESSAGES.emailTaken)
      user = inserted[0]
    }
    await sendVerificationSafely(user)
    return user
  }

  return {
    /** The answer of every sign-in (a password here, a passkey in features/passkeys): a token and the user. */
    issueAuth,

    async register(args: RegisterBody, ip: string, headers?: Headers): Promise<AuthResponse> {
      await rateLimits.consume(['registerPerIp', ip])
      return issueAuth(await createAccount(args), headers)
    },

    /**
     * An account made by a platform admin (CONTRACT §6): active at once, sent a verification mail,
     * the same 409 as registration. The password rule (6 characters) is the caller's schema's.
     */
    createAccountAsAdmin: (args: RegisterBody & { role: UserRow['role'] }): Promise<UserRow> =>
      createAccount(args, args.role),

    async login(args: LoginBody, ip: string, headers?: Headers): Promise<AuthResponse> {
      const pairKey = `${ip}|${args.email}`
      // Every attempt counts as a failure before its password is checked (one atomic count each):
      // however many arrive at once, no more than the limit reach the check. A success takes its
      // count back below.
      await rateLimits.claim(['loginFailuresPerIpEmail', pairKey], ['loginFailuresPerIp', ip])
      const user = await findUserByEmail(db, args.email)
      const usable = user?.status === 'active' ? user : undefined
      const ok = await verifyPassword(usable?.passwordHash, args.password)
      if (!usable || !ok) throw new AppError('INVALID_CREDENTIALS', AUTH_MESSAGES.invalidCredentials)
      // Signed in: this (IP, e-mail)'s failures are forgotten, and the IP's count was no failure.
      await rateLimits.reset('loginFailuresPerIpEmail', pairKey)
      await rateLimits.giveBack(['loginFailuresPerIp', ip])
      return issueAuth(usable, headers)
    },

    /** A fresh token of the same session (a token older than sessions is given one now). */
    async refresh(user: UserRow, sessionId: string | undefined, headers?: Headers): Promise<{ access_token: string }> {
      const from = signInFrom(headers, config.sessionPlaceHeaders)
      const token = await renewSession(db, tokens, user, sessionId, from, now())
      // Ended between the request's check and here.
      if (!token) throw unauthorized(SESSION_ENDED_MESSAGE)
      return { access_token: token }
    },

    /**
     * The same work before the answer whether or not `email` has an account to verify (the limits,
     * one read), the token and the mail after it (issue 18; bench `auth-timing`).
     */
    async resendVerification(email: string, ip: string): Promise<{ message: string }> {
      await rateLimits.consume(['emailActionPerEmail', email], ['emailActionPerIp', ip])
      const user = await findUserByEmail(db, email)
      if (user?.status === 'active' && !user.emailVerified) mailAfterAnswer(user, 'verify')
      return { message: AUTH_MESSAGES.resendSent }
    },

    async verifyEmail(token: string): Promise<VerifyEmailResponse> {
      const verified = await db.transaction(async (tx) => {
        const userId = await consumeEmailToken(tx, token, 'verify', now())
        if (!userId) return null
        const current = await findUserById(tx, userId)
        if (current?.status !== 'active') return null
        const promote = config.adminEmails.includes(current.email)
        const [row] = await tx
          .update(users)
          .set({ emailVerified: true, updatedAt: now(), ...(promote ? { role: 'admin' as const } : {}) })
          .where(eq(users.id, userId))
          .returning()
        // An address someone invited by e-mail: the invites become memberships now.
        for (const step of activationSteps) await step(tx, row!)
        return row
      })
      if (!verified) {
        // A link of an account that is verified already (opened a second time, say) says so: still 410, as the
        // link itself is spent, but the user is told nothing is wrong. Anything else is the plain refusal.
        const [known] = await db
          .select({ verified: users.emailVerified, status: users.status })
          .from(emailTokens)
          .innerJoin(users, eq(users.id, emailTokens.userId))
          .where(and(eq(emailTokens.tokenHash, hashOneTimeToken(token)), eq(emailTokens.kind, 'verify')))
        throw tokenInvalid(
          known?.verified && known.status === 'active' ? ALREADY_VERIFIED_MESSAGE : AUTH_MESSAGES.verifyInvalid,
        )
      }
      return { message: AUTH_MESSAGES.verified, user: toUser(verified) }
    },

    /** As resendVerification: the same work before the answer for any address, the token and mail after it. */
    async forgotPassword(email: string, ip: string): Promise<{ message: string }> {
      await rateLimits.consume(['emailActionPerEmail', email], ['emailActionPerIp', ip])
      const user = await findUserByEmail(db, email)
      if (user?.status === 'active') mailAfterAnswer(user, 'reset')
      return { message: AUTH_MESSAGES.forgotSent }
    },

    async resetPassword(args: ResetPasswordBody): Promise<{ message: string }> {
      const passwordHash = await hashPassword(args.newPassword)
      const done = await db.transaction(async (tx) => {
        const userId = await consumeEmailToken(tx, args.token, 'reset', now())
        if (!userId) return false
        // Only an active account takes a new password: a link of one deleted since is no link at all.
        // Any other link mailed before this one dies with it.
        return (
          (await setNewPassword(tx, userId, passwordHash, now(), { when: eq(users.status, 'active') })) !== undefined
        )
      })
      if (!done) throw tokenInvalid(AUTH_MESSAGES.resetInvalid)
      return { message: AUTH_MESSAGES.resetDone }
    },
  }
}
