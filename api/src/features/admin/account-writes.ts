/**
 * The admin's writes to accounts (CONTRACT §3.4, §6): create, edit, delete, set a password. Each
 * goes through the users or auth service and leaves an audit row; passwords never reach the log.
 */

import {
  ADMIN_MESSAGES,
  type AdminCreateUserBody,
  type AdminSendResetEmailResponse,
  type AdminUpdateUserBody,
  type AdminUser,
} from '@buble/shared/admin'
import type { Deps } from '../../deps.ts'
import { findUserById, type UserRow } from '../../lib/accounts.ts'
import { conflict, notFound } from '../../lib/errors.ts'
import { linkMail } from '../../lib/mail.ts'
import { hashPassword } from '../../lib/passwords.ts'
import { setNewPassword } from '../../lib/revocations.ts'
import type { AuthService } from '../auth/service.ts'
import type { UsersService } from '../profile/service.ts'
import { auditedWrite, insertAudit, userLabel } from './audit.ts'
import { listRow } from './queries.ts'
import { temporaryPassword } from './temporary-password.ts'

export function accountWrites(deps: Deps, s: { auth: AuthService; users: UsersService }) {
  const { db, now, mailer, config, log } = deps
  const audited = auditedWrite(db, now)

  /** An account the admin may act on: not deleted. */
  async function requireUser(id: string): Promise<UserRow> {
    const user = await findUserById(db, id)
    if (!user || user.status === 'deleted') throw notFound(ADMIN_MESSAGES.userNotFound)
    return user
  }

  /**
   * Sets a password and revokes every token and reset link issued before (ending the user's live
   * streams), with its audit row, in one transaction.
   */
  async function setPassword(admin: UserRow, target: UserRow, password: string, action: string): Promise<void> {
    if (target.status === 'pending') throw conflict(ADMIN_MESSAGES.pendingAccount)
    const passwordHash = await hashPassword(password)
    await db.transaction(async (tx) => {
      await setNewPassword(tx, target.id, passwordHash, now())
      await insertAudit(
        tx,
        admin,
        { action, targetType: 'user', targetId: target.id, targetLabel: userLabel(target) },
        now(),
      )
    })
  }

  return {
    /** Active at once, sent a verification mail; a taken address is registration's 409. */
    async createUser(admin: UserRow, body: AdminCreateUserBody): Promise<AdminUser> {
      const user = await s.auth.createAccountAsAdmin(body)
      // The account exists whatever happens next: its audit row follows it.
      await insertAudit(
        db,
        admin,
        {
          action: 'user.create',
          targetType: 'user',
          targetId: user.id,
          targetLabel: userLabel(user),
          detail: { name: user.name, email: user.email, role: user.role },
        },
        now(),
      )
      return (await listRow(db, 'users', user.id, now()))!
    },

    /** Name, address, role; an admin cannot take away their own admin role. */
    async updateUser(admin: UserRow, id: string, body: AdminUpdateUserBody): Promise<AdminUser> {
      if (id === admin.id && body.role === 'user') throw conflict(ADMIN_MESSAGES.cannotDemoteSelf)
      await audited(admin, async () => {
        const { before, after } = await s.users.adminUpdateUser(id, body)
        const detail: Record<string, unknown> = {}
        for (const key of ['name', 'email', 'role'] as const)
          if (before[key] !== after[key]) detail[key] = { from: before[key], to: after[key] }
        return {
          value: after,
          audit: { action: 'user.update', targetType: 'user', targetId: id, targetLabel: userLabel(after), detail },
        }
      })
      return (await listRow(db, 'users', id, now()))!
    },

    /** Deletes the account now, as the deletion job does; never one's own. */
    async deleteUser(admin: UserRow, id: string): Promise<void> {
      if (id === admin.id) throw conflict(ADMIN_MESSAGES.cannotDeleteSelf)
      await audited(admin, async () => {
        const user = await s.users.adminDeleteAccount(id)
        return {
          value: undefined,
          audit: { action: 'user.delete', targetType: 'user', targetId: id, targetLabel: userLabel(user) },
        }
      })
    },

    async resetPassword(admin: UserRow, id: string, newPassword: string): Promise<{ message: string }> {
      await setPassword(admin, await requireUser(id), newPassword, 'user.reset_password')
      return { message: ADMIN_MESSAGES.passwordReset }
    },

    /** A random strong password, set (older tokens revoked), mailed to the user and answered to the admin. */
    async sendResetEmail(admin: UserRow, id: string): Promise<AdminSendResetEmailResponse> {
      const target = await requireUser(id)
      const password = temporaryPassword()
      await setPassword(admin, target, password, 'user.send_reset_email')
      await mailer
        .send(
          linkMail({
            to: target.email,
            subject: 'Your new Buble password',
            greeting: `Hi ${target.name},`,
            lines: [
              'An administrator reset the password of your Buble account.',
              `Your temporary password: ${password}`,
              'Sign in with it, then choose a new password in your profile.',
            ],
            action: 'Sign in',
            link: `${config.publicUrl}/login`,
            footer: 'If you did not expect this, contact the administrator of your Buble.',
          }),
        )
        // The password is set either way, and the admin sees it: they can pass it on themselves.
        .catch((err) => log.error('temporary password mail failed', { userId: target.id, err }))
      return { message: ADMIN_MESSAGES.resetEmailSent, temporaryPassword: password }
    },
  }
}
