import { MODAL_CLOSE_MS } from '@buble/shared/constants'
import { MEMBER_MESSAGES } from '@buble/shared/members'
import { can, canMute, type MemberActor } from '@buble/shared/permissions'
import { type FormEvent, useEffect, useRef, useState } from 'react'
import type { LocalMember } from '../../data/bubles.ts'
import { type Outcome, useOnlineCall } from '../../data/online.ts'
import { useOnline } from '../../data/sync-status.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { Avatar } from '../../ui/avatar.tsx'
import { formatDay } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { useMemberAccess } from './member-access.ts'
import { MemberAccessFields } from './member-access-fields.tsx'
import { MemberConfirm } from './member-confirm.tsx'
import { MuteControls } from './mute-controls.tsx'
import { RoleBadge } from './role-badge.tsx'

const FORM_ID = 'member-access-form'
export const MEMBER_OFFLINE = 'You are offline. Managing members needs a connection.'

interface MemberModalProps {
  bubleId: string
  member: LocalMember
  actor: MemberActor
  onClose: () => void
}

/** Role, permissions, ownership transfer and removal of one member (spec part 1 §2); each is an online call. */
export function MemberModal({ bubleId, member, actor, onClose }: MemberModalProps) {
  const api = useApi()
  const online = useOnline()
  const access = useMemberAccess(actor, member)
  const call = useOnlineCall(MEMBER_OFFLINE)
  const [confirming, setConfirming] = useState<'transfer' | 'remove' | null>(null)
  const [done, setDone] = useState<string | null>(null)
  useCloseAfterSuccess(done !== null, onClose)

  const target = { userId: member.user_id, role: member.role }
  const canTransfer = can(actor, 'ownership.transferTo', target)
  const canRemove = can(actor, 'member.remove', target)
  const mayMute = canMute(actor, target)
  const canSave = access.canChangeRole || access.canChangePermissions
  const idle = !call.busy && done === null
  const name = member.user.name

  function finish(outcome: Outcome<unknown>, message: string) {
    if (!outcome.ok) return
    setConfirming(null)
    setDone(message)
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    if (!access.dirty || access.refusal) return
    const outcome = await call.run(
      () => api.put(`/bubles/${bubleId}/members/role`, access.body),
      MEMBER_MESSAGES.updateFailed,
      { synced: true },
    )
    finish(outcome, MEMBER_MESSAGES.roleUpdated)
  }

  async function transfer() {
    const outcome = await call.run(
      () => api.post(`/bubles/${bubleId}/transfer-ownership`, { newOwnerId: member.user_id }),
      MEMBER_MESSAGES.transferFailed,
      { synced: true },
    )
    finish(outcome, MEMBER_MESSAGES.transferred)
  }

  async function remove() {
    const outcome = await call.run(
      () => api.delete(`/bubles/${bubleId}/members/remove`, { userId: member.user_id }),
      MEMBER_MESSAGES.removeFailed,
      { synced: true },
    )
    finish(outcome, MEMBER_MESSAGES.removed)
  }

  function ask(which: 'transfer' | 'remove') {
    call.setError(null)
    setConfirming(which)
  }

  function cancelConfirm() {
    call.setError(null)
    setConfirming(null)
  }

  if (confirming !== null) {
    return (
      <MemberConfirm
        action={confirming}
        name={name}
        busy={call.busy}
        error={call.error}
        onConfirm={() => void (confirming === 'transfer' ? transfer() : remove())}
        onCancel={cancelConfirm}
      />
    )
  }

  return (
    <Modal
      title="Manage Member"
      size="medium"
      onClose={call.busy ? undefined : onClose}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={call.busy}>
            {done === null ? 'Cancel' : 'Close'}
          </button>
          {canSave && (
            <button
              type="submit"
              form={FORM_ID}
              className="btn btn-primary"
              disabled={!idle || !online || !access.dirty || access.refusal !== null}
            >
              {call.busy ? 'Saving…' : 'Save'}
            </button>
          )}
        </>
      }
    >
      <div className="member-card">
        <Avatar name={name} url={member.user.avatar_url} size={56} alt="" />
        <div className="member-text">
          <span className="member-name">{name}</span>
          <span className="member-email">{member.user.email}</span>
          <span className="member-joined">
            <RoleBadge role={member.role} /> Joined {formatDay(member.joined_at)}
          </span>
        </div>
      </div>

      {(member.role === 'admin' || access.role === 'admin') && canSave && (
        <Alert kind="warning">{MEMBER_MESSAGES.adminWarning}</Alert>
      )}

      {canSave && (
        <form id={FORM_ID} onSubmit={(event) => void save(event)} noValidate>
          <fieldset className="plain-fieldset" disabled={!idle}>
            <MemberAccessFields access={access} />
          </fieldset>
          {access.dirty && access.refusal && <Alert kind="warning">{access.refusal}</Alert>}
        </form>
      )}

      {(canTransfer || canRemove) && (
        <div className="member-more">
          {canTransfer && (
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => ask('transfer')}
              aria-haspopup="dialog"
              disabled={!idle || !online}
            >
              Transfer Ownership
            </button>
          )}
          {canRemove && (
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => ask('remove')}
              aria-haspopup="dialog"
              disabled={!idle || !online}
            >
              Remove Member
            </button>
          )}
        </div>
      )}

      {mayMute && <MuteControls bubleId={bubleId} member={member} enabled={idle} />}

      {/* Beside the buttons: on a phone the sheet is scrolled down to them when they are pressed. */}
      <div className="member-outcome">
        {done !== null && <Alert kind="success">{done}</Alert>}
        {call.error && <Alert kind="error">{call.error}</Alert>}
        {!online && done === null && <Alert kind="info">{MEMBER_OFFLINE}</Alert>}
      </div>
    </Modal>
  )
}

/** Spec part 1 §9: the member modal closes 1.5 s after a success, long enough to read what happened. */
function useCloseAfterSuccess(succeeded: boolean, onClose: () => void) {
  const close = useRef(onClose)
  close.current = onClose
  useEffect(() => {
    if (!succeeded) return
    const timer = setTimeout(() => close.current(), MODAL_CLOSE_MS)
    return () => clearTimeout(timer)
  }, [succeeded])
}
