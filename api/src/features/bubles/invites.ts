/**
 * Invites (CONTRACT §3.2, §6): single-use codes, by hand or by e-mail. An address with an active
 * account gets the code; an unknown one gets a pending account and a link to choose a password.
 * A pending account becomes a member when its address is verified: on complete-registration, or
 * when someone registers normally with that address and verifies it (then the link is spent).
 * Registering alone proves nothing about the address, so until it is verified the link still works
 * and takes the account over.
 */

import type { AuthResponse, CompleteRegistrationBody } from '@buble/shared/auth'
import {
  ACTIVE_INVITES_LIMIT,
  type ActiveInvites,
  BUBLE_MESSAGES,
  type Buble,
  type CreateInviteBody,
  INVITE_ALPHABET,
  INVITE_CODE_LENGTH,
  INVITE_TTL_MS,
  type Invite,
  type InvitePreview,
  isInviteCodeShape,
  type RegistrationPreview,
} from '@buble/shared/bubles'
import { REGISTRATION_TOKEN_TTL_MS } from '@buble/shared/constants'
import { can } from '@buble/shared/permissions'
import { and, desc, eq, gt, isNull, lte } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { customAlphabet } from 'nanoid'
import { v7 as uuidv7 } from 'uuid'
import type { Executor } from '../../db/client.ts'
import { bubles, emailTokens, invites, users } from '../../db/schema.ts'
import type { Deps } from '../../deps.ts'
import { type ActivationStep, findUserByEmail, toUser, type UserRow } from '../../lib/accounts.ts'
import { conflict, forbidden, notFound, tokenInvalid } from '../../lib/errors.ts'
import { linkMail, type MailMessage } from '../../lib/mail.ts'
import { findMembership, memberActorOf, requireMembership } from '../../lib/memberships.ts'
import { hashPassword } from '../../lib/passwords.ts'
import { setNewPassword } from '../../lib/revocations.ts'
import { signInFrom, startSession } from '../../lib/sessions.ts'
import { type SyncWriter, syncWrite, syncWriteIn } from '../../lib/sync-writes.ts'
import { hashOneTimeToken, newOneTimeToken } from '../../lib/tokens.ts'
import { loadBuble } from './queries.ts'
import { activeInviteAt, type MembershipWrites } from './writes.ts'

const newInviteCode = customAlphabet(INVITE_ALPHABET, INVITE_CODE_LENGTH)

export const INVITE_MESSAGES = {
  notAllowed: 'You are not allowed to invite members to this Buble',
  alreadyMember: 'This person is already a member of this Buble',
  registrationInvalid: 'This registration link is invalid or has expired',
  codeNotFound: 'Invite code not found',
} as const

/** A display name for an account made by an invite, from its address ('ada.lovelace@…' → 'Ada Lovelace'). */
export function nameFromEmail(email: string): string {
  const words = email
    .slice(0, email.indexOf('@'))
    .split(/[._+-]+/)
    .filter((word) => /^[\p{L}\p{N}]+$/u.test(word))
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
  const name = words.join(' ').slice(0, 80).trim()
  return name.length >= 2 ? name : 'Invited member'
}

export type InvitesService = ReturnType<typeof invitesService>

export function invitesService(deps: Deps, writes: MembershipWrites) {
  const { db, now, mailer, config, tokens, rateLimits, log } = deps

  async function insertInvite(w: SyncWriter, bubleId: string, createdById: string, email: string | null) {
    const expiresAt = new Date(now().getTime() + INVITE_TTL_MS)
    for (;;) {
      const code = newInviteCode()
      const inserted = await w.tx
        .insert(invites)
        .values({ id: uuidv7(), code, bubleId, createdById, email, expiresAt, createdAt: now() })
        .onConflictDoNothing({ target: invites.code })
        .returning({ code: invites.code })
      if (inserted[0]) return { code: inserted[0].code, expires_at: expiresAt.toISOString() }
    }
  }

  /**
   * A registration link for a pending account. Unlike other mailed tokens, earlier ones stay valid:
   * each invite mail says its link works for 7 days, whoever invites the address next.
   */
  async function issueRegistrationToken(tx: Executor, userId: string): Promise<string> {
    const { token, hash } = newOneTimeToken()
    const issuedAt = now()
    await tx.insert(emailTokens).values({
      id: uuidv7(),
      userId,
      kind: 'registration',
      tokenHash: hash,
      expiresAt: new Date(issuedAt.getTime() + REGISTRATION_TOKEN_TTL_MS),
      // The service clock, as for invites: activation compares the two.
      createdAt: issuedAt,
    })
    return token
  }

  /**
   * Joins every open invite addressed to the user's e-mail (an account that has just become
   * active); with `madeBy`, only those made by then (while the account was pending).
   */
  async function joinOpenInvites(w: SyncWriter, user: UserRow, madeBy?: Date): Promise<string[]> {
    const open = await w.tx
      .select()
      .from(invites)
      .where(
        and(eq(invites.email, user.email), activeInviteAt(now()), madeBy ? lte(invites.createdAt, madeBy) : undefined),
      )
      .for('update')
    const joined: string[] = []
    for (const invite of open) {
      await w.tx.update(invites).set({ usedById: user.id, usedAt: now() }).where(eq(invites.id, invite.id))
      if (joined.includes(invite.bubleId) || (await findMembership(w.tx, invite.bubleId, user.id))) continue
      await writes.addMember(w, invite.bubleId, user.id)
      joined.push(invite.bubleId)
    }
    return joined
  }

  /**
   * An address just verified (by either path): spends every registration link the account still
   * holds and, if it held any, joins the invites made while it was pending. Only those: a code
   * mailed once it had an account (a normal registration not verified yet) waits for its code, as
   * for any account that already existed (CONTRACT §6).
   */
  async function joinAsInvited(w: SyncWriter, user: UserRow): Promise<void> {
    const spent = await w.tx
      .update(emailTokens)
      .set({ usedAt: now() })
      .where(and(eq(emailTokens.userId, user.id), eq(emailTokens.kind, 'registration'), isNull(emailTokens.usedAt)))
      .returning({ createdAt: emailTokens.createdAt })
    if (spent.length === 0) return
    // Links are mailed only while the account is pending: the newest one marks the end of that.
    const pendingUntil = new Date(Math.max(...spent.map((token) => token.createdAt.getTime())))
    await joinOpenInvites(w, user, pendingUntil)
  }

  /**
   * verify-email: the address is the registrant's now, so an invite link it held is spent and its
   * invites become memberships (CONTRACT §6). Should it and complete-registration lock the same rows
   * in opposite orders, PostgreSQL rolls one back and it is answered 503, to be tried again.
   */
  const activationStep: ActivationStep = (tx, user) => syncWriteIn(tx, (w) => joinAsInvited(w, user))

  /** A code for an address, and its mail: an active account gets the code, an unknown address a pending account and a link. */
  async function inviteByEmail(
    w: SyncWriter,
    user: UserRow,
    bubleId: string,
    email: string,
  ): Promise<{ invite: Invite; mail: MailMessage }> {
    const [buble] = await w.tx.select({ name: bubles.name }).from(bubles).where(eq(bubles.id, bubleId))
    let invitee = await findUserByEmail(w.tx, email)
    if (invitee?.status === 'active') {
      if (await findMembership(w.tx, bubleId, invitee.id)) throw conflict(INVITE_MESSAGES.alreadyMember)
      const invite = await insertInvite(w, bubleId, user.id, invitee.email)
      return { invite, mail: inviteMail(user, buble!.name, invite, invitee, null) }
    }
    if (!invitee) {
      const [pending] = await w.tx
        .insert(users)
        .values({
          id: uuidv7(),
          name: nameFromEmail(email),
          email,
          status: 'pending',
          createdAt: now(),
          updatedAt: now(),
        })
        .returning()
      invitee = pending!
    }
    const invite = await insertInvite(w, bubleId, user.id, invitee.email)
    const token = await issueRegistrationToken(w.tx, invitee.id)
    return { invite, mail: inviteMail(user, buble!.name, invite, invitee, token) }
  }

  function inviteMail(
    inviter: UserRow,
    bubleName: string,
    invite: Invite,
    to: UserRow,
    registrationToken: string | null,
  ): MailMessage {
    const subject = `${inviter.name} invited you to ${bubleName} on Buble`
    if (registrationToken)
      return linkMail({
        to: to.email,
        subject,
        greeting: 'Hi,',
        lines: [
          `${inviter.name} invited you to join ${bubleName}, a private group on Buble.`,
          `Choose a password to create your account, and you are in ${bubleName} at once.`,
        ],
        action: 'Create your account',
        link: `${config.publicUrl}/complete-registration?token=${encodeURIComponent(registrationToken)}`,
        footer: `This link works once and expires in 7 days. If you do not know ${inviter.name}, ignore this email.`,
      })
    return linkMail({
      to: to.email,
      subject,
      greeting: `Hi ${to.name},`,
      lines: [
        `${inviter.name} invited you to join ${bubleName} on Buble.`,
        `Your invite code: ${invite.code}`,
        'Open the link to see the invite and join, or choose Join Buble in Buble and enter the code.',
      ],
      action: `Join ${bubleName}`,
      link: `${config.publicUrl}/join/${invite.code}`,
      footer: `The code works once and expires in 7 days. If you do not know ${inviter.name}, ignore this email.`,
    })
  }

  return {
    activationStep,

    /** A new code; with an e-mail address, also mailed (and a pending account made for an unknown address). */
    async createInvite(user: UserRow, bubleId: string, body: CreateInviteBody): Promise<Invite> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(membership), 'invite.create')) throw forbidden(INVITE_MESSAGES.notAllowed)
        if (!body.email) return insertInvite(w, bubleId, user.id, null)
        // Counted in this write (the limiter queries on it): an invite refused or rolled back costs nothing.
        await rateLimits.consume(['inviteMailsPerUser', user.id])
        const made = await inviteByEmail(w, user, bubleId, body.email)
        // After the commit, once: never for a write that rolled back (a refused mutation, a failed
        // push), never again for a replay. A mail failure keeps the invite; the inviter sees the code.
        w.afterCommit(() => {
          mailer.send(made.mail).catch((err: unknown) => log.error('invite mail failed', { bubleId, err }))
        })
        return made.invite
      })
    },

    /**
     * The buble's active codes, newest first (at most ACTIVE_INVITES_LIMIT), for those who may
     * invite: who may hand out codes may see and withdraw every code that still lets someone in.
     */
    async listInvites(user: UserRow, bubleId: string): Promise<ActiveInvites> {
      const membership = await requireMembership(db, bubleId, user.id)
      if (!can(memberActorOf(membership), 'invite.create')) throw forbidden(INVITE_MESSAGES.notAllowed)
      const rows = await db
        .select({
          code: invites.code,
          email: invites.email,
          createdAt: invites.createdAt,
          expiresAt: invites.expiresAt,
          creatorId: users.id,
          creatorName: users.name,
          creatorAvatar: users.avatarUrl,
        })
        .from(invites)
        .leftJoin(users, eq(users.id, invites.createdById))
        .where(and(eq(invites.bubleId, bubleId), activeInviteAt(now())))
        .orderBy(desc(invites.createdAt), desc(invites.id))
        .limit(ACTIVE_INVITES_LIMIT)
      return {
        invites: rows.map((row) => ({
          code: row.code,
          email: row.email,
          created_at: row.createdAt.toISOString(),
          expires_at: row.expiresAt.toISOString(),
          created_by: row.creatorId
            ? { id: row.creatorId, name: row.creatorName!, avatar_url: row.creatorAvatar }
            : null,
        })),
      }
    },

    /**
     * Withdraws an active code of the buble (REST and the `invite.revoke` mutation): it stops
     * working at once. Revoking deletes the row, as a platform admin's withdrawal does. A code that
     * is unknown, of another buble, used or expired is 404: there is nothing of this buble's to revoke.
     */
    revokeInvite(user: UserRow, bubleId: string, code: string): Promise<void> {
      return syncWrite(db, async (w) => {
        const membership = await requireMembership(w.tx, bubleId, user.id)
        if (!can(memberActorOf(membership), 'invite.create')) throw forbidden(INVITE_MESSAGES.notAllowed)
        const revoked = await w.tx
          .delete(invites)
          .where(and(eq(invites.code, code), eq(invites.bubleId, bubleId), activeInviteAt(now())))
          .returning({ id: invites.id })
        if (revoked.length === 0) throw notFound(INVITE_MESSAGES.codeNotFound)
      })
    },

    /** A platform admin withdraws an invite (CONTRACT §3.4); the code stops working. Answers the row, or undefined. */
    async adminDeleteInvite(inviteId: string) {
      return syncWrite(db, async (w) => {
        const [row] = await w.tx.delete(invites).where(eq(invites.id, inviteId)).returning()
        return row
      })
    },

    /**
     * What a live code shows before joining (public, counted per address): the buble's name and who
     * made the code. Unknown, malformed, used and expired codes get one and the same 410, so a
     * guess learns nothing but "no".
     */
    async previewInvite(code: string, ip: string): Promise<InvitePreview> {
      await rateLimits.consume(['invitePreviewPerIp', ip])
      if (!isInviteCodeShape(code)) throw tokenInvalid(BUBLE_MESSAGES.inviteInvalid)
      const [row] = await db
        .select({ bubleName: bubles.name, inviterName: users.name, expiresAt: invites.expiresAt })
        .from(invites)
        .innerJoin(bubles, eq(bubles.id, invites.bubleId))
        .leftJoin(users, eq(users.id, invites.createdById))
        .where(and(eq(invites.code, code), activeInviteAt(now())))
        .limit(1)
      if (!row) throw tokenInvalid(BUBLE_MESSAGES.inviteInvalid)
      return {
        buble: { name: row.bubleName },
        invited_by: row.inviterName === null ? null : { name: row.inviterName },
        expires_at: row.expiresAt.toISOString(),
      }
    },

    /**
     * What a live registration link is for (public, counted per address): the account's address, and
     * the buble and inviter of the newest open invite mailed to it up to the link (the one whose mail
     * carried it). A dead link answers as complete-registration does.
     */
    async previewRegistration(token: string, ip: string): Promise<RegistrationPreview> {
      await rateLimits.consume(['invitePreviewPerIp', ip])
      const [link] = await db
        .select({
          createdAt: emailTokens.createdAt,
          email: users.email,
          status: users.status,
          verified: users.emailVerified,
        })
        .from(emailTokens)
        .innerJoin(users, eq(users.id, emailTokens.userId))
        .where(
          and(
            eq(emailTokens.tokenHash, hashOneTimeToken(token)),
            eq(emailTokens.kind, 'registration'),
            isNull(emailTokens.usedAt),
            gt(emailTokens.expiresAt, now()),
          ),
        )
        .limit(1)
      const claimable = link?.status === 'pending' || (link?.status === 'active' && !link.verified)
      if (!link || !claimable) throw tokenInvalid(INVITE_MESSAGES.registrationInvalid)
      const inviter = alias(users, 'inviter')
      const [invite] = await db
        .select({ name: bubles.name, slug: bubles.slug, inviterName: inviter.name })
        .from(invites)
        .innerJoin(bubles, eq(bubles.id, invites.bubleId))
        .leftJoin(inviter, eq(inviter.id, invites.createdById))
        .where(and(eq(invites.email, link.email), activeInviteAt(now()), lte(invites.createdAt, link.createdAt)))
        .orderBy(desc(invites.createdAt), desc(invites.id))
        .limit(1)
      return {
        email: link.email,
        buble: invite ? { name: invite.name, slug: invite.slug } : null,
        invited_by: invite?.inviterName ? { name: invite.inviterName } : null,
      }
    },

    /** Joins the buble of an unused, unexpired code; the code is spent only by a successful join. */
    acceptInvite(user: UserRow, code: string): Promise<Buble> {
      return syncWrite(db, async (w) => {
        const [invite] = await w.tx.select().from(invites).where(eq(invites.code, code)).limit(1).for('update')
        // A code mailed to an address is that address's: to anyone else it is no code at all.
        if (
          !invite ||
          invite.usedById ||
          invite.usedAt ||
          invite.expiresAt <= now() ||
          (invite.email && invite.email !== user.email)
        )
          throw tokenInvalid(BUBLE_MESSAGES.inviteInvalid)
        if (await findMembership(w.tx, invite.bubleId, user.id)) throw conflict(BUBLE_MESSAGES.alreadyMember)
        await w.tx.update(invites).set({ usedById: user.id, usedAt: now() }).where(eq(invites.id, invite.id))
        await writes.addMember(w, invite.bubleId, user.id)
        return loadBuble(w.tx, invite.bubleId, user.id)
      })
    },

    /**
     * Sets the password of an account an e-mail invite made: it is signed in, verified, and a member
     * of what invited it. The link works until the address is verified: if someone registered with
     * the address meanwhile (taking the pending account over) and has not verified it, the link's
     * holder, who reads that mailbox, takes the account: their password replaces the registrant's,
     * and every token issued before stops working.
     */
    async completeRegistration(body: CompleteRegistrationBody, headers?: Headers): Promise<AuthResponse> {
      const passwordHash = await hashPassword(body.password)
      const user = await syncWrite(db, async (w) => {
        const [link] = await w.tx
          .select({ userId: emailTokens.userId })
          .from(emailTokens)
          .where(
            and(
              eq(emailTokens.tokenHash, hashOneTimeToken(body.token)),
              eq(emailTokens.kind, 'registration'),
              isNull(emailTokens.usedAt),
              gt(emailTokens.expiresAt, now()),
            ),
          )
          .for('update')
        const [account] = link ? await w.tx.select().from(users).where(eq(users.id, link.userId)).for('update') : []
        const claimable = account?.status === 'pending' || (account?.status === 'active' && !account.emailVerified)
        if (!account || !claimable) throw tokenInvalid(INVITE_MESSAGES.registrationInvalid)
        const promote = config.adminEmails.includes(account.email)
        // As any new password: whoever registered with the address before is signed out everywhere
        // at once, and reset links mailed before die.
        const active = await setNewPassword(w.tx, account.id, passwordHash, now(), {
          also: { status: 'active', emailVerified: true, ...(promote ? { role: 'admin' as const } : {}) },
        })
        // Spends this link and the others, and joins what invited the address.
        await joinAsInvited(w, active!)
        return active!
      })
      const from = signInFrom(headers, config.sessionPlaceHeaders)
      return { access_token: (await startSession(db, tokens, user, from, now())).token, user: toUser(user) }
    },
  }
}
