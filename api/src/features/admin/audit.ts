/** The admin audit log (issue 12): every admin write leaves a row, in the write's own transaction where it has one. */

import { v7 as uuidv7 } from 'uuid'
import type { Db, Executor } from '../../db/client.ts'
import { adminAudit } from '../../db/schema.ts'
import type { UserRow } from '../../lib/accounts.ts'
import { type SyncWriter, syncWrite } from '../../lib/sync-writes.ts'

export type AuditTarget = 'user' | 'buble' | 'event' | 'poll' | 'post' | 'invite'

export interface AuditEntry {
  /** `<target>.<verb>`, e.g. `user.create`, `event.update`, `user.reset_password`. */
  action: string
  targetType: AuditTarget
  targetId: string
  targetLabel: string
  /** What changed; never a password. */
  detail?: Record<string, unknown>
}

const LABEL_MAX = 120

/** A short label for a row: long texts (a post) are cut. */
export const labelOf = (text: string) => (text.length > LABEL_MAX ? `${text.slice(0, LABEL_MAX - 1)}…` : text)

export async function insertAudit(db: Executor, admin: UserRow, entry: AuditEntry, at: Date): Promise<void> {
  await db.insert(adminAudit).values({
    id: uuidv7(),
    adminId: admin.id,
    adminEmail: admin.email,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    targetLabel: labelOf(entry.targetLabel),
    detail: entry.detail ?? {},
    createdAt: at,
  })
}

/** Runs a write and its audit row in one sync write; the feature services called inside join it. */
export const auditedWrite =
  (db: Db, now: () => Date) =>
  <T>(admin: UserRow, write: (w: SyncWriter) => Promise<{ value: T; audit: AuditEntry }>): Promise<T> =>
    syncWrite(db, async (w) => {
      const { value, audit } = await write(w)
      await insertAudit(w.tx, admin, audit, now())
      return value
    })

/** How the audit log names an account. */
export const userLabel = (user: Pick<UserRow, 'name' | 'email'>) => `${user.name} <${user.email}>`
