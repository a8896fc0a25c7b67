import { Invite } from '@buble/shared/bubles'
import { useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { type LocalBuble, useBubleActions } from '../../data/bubles.ts'
import { useDevice } from '../../data/data-context.tsx'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { lazyPart } from '../../ui/lazy-part.ts'

const InviteCodeModal = lazyPart(() => import('./invite-code-modal.tsx'), 'InviteCodeModal', { fallback: null })

const INVITE_OFFLINE = 'You are offline. Generating an invite needs a connection.'
const INVITE_NOT_SYNCED = 'This Buble has not reached the server yet. Generate an invite once it is synced.'

interface BubleActionsProps {
  buble: LocalBuble
  /** Told before the buble is deleted or left here, so the page does not go looking for it on the server. */
  onRemoving: (removing: boolean) => void
}

/** The owner generates invites and deletes; everyone else may leave (spec part 1 §2, §6). */
export function BubleActions({ buble, onRemoving }: BubleActionsProps) {
  const { userId } = useDevice()
  const { deleteBuble, leaveBuble } = useBubleActions()
  const api = useApi()
  const navigate = useNavigate()
  const isOwner = buble.owner_id === userId || buble.my_role === 'owner'
  const [dialog, setDialog] = useState<'delete' | 'leave' | null>(null)
  const [busy, setBusy] = useState(false)
  const [dialogError, setDialogError] = useState<string | null>(null)
  const [invite, setInvite] = useState<Invite | null>(null)
  const inviting = useOnlineCall(INVITE_OFFLINE)

  async function generateInvite() {
    // Offline, that is what the member is told first.
    if (navigator.onLine && !buble.slug) return inviting.setError(INVITE_NOT_SYNCED)
    const outcome = await inviting.run(
      async () => Invite.parse(await api.post(`/bubles/${buble.id}/invites`, {})),
      ERROR_TEXTS.generateInvite,
    )
    if (outcome.ok) setInvite(outcome.value)
  }

  function open(which: 'delete' | 'leave') {
    setDialogError(null)
    setDialog(which)
  }

  // Works offline too: the buble leaves this device at once, and the server hears of it when it can.
  async function remove(which: 'delete' | 'leave') {
    setBusy(true)
    setDialogError(null)
    onRemoving(true)
    try {
      if (which === 'delete') await deleteBuble(buble.id)
      else await leaveBuble(buble.id)
    } catch (err) {
      console.error(`Could not ${which} the buble`, err)
      onRemoving(false)
      setDialogError(which === 'delete' ? ERROR_TEXTS.deleteBuble : ERROR_TEXTS.performAction)
      setBusy(false)
      return
    }
    navigate('/dashboard')
  }

  const cancel = () => setDialog(null)

  return (
    <div className="buble-actions">
      <div className="page-actions">
        {isOwner ? (
          <>
            <button
              type="button"
              className="btn btn-primary"
              onClick={() => void generateInvite()}
              disabled={inviting.busy}
            >
              {inviting.busy ? 'Generating…' : 'Generate Invite'}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => open('delete')}>
              Delete Buble
            </button>
          </>
        ) : (
          <button type="button" className="btn btn-secondary" onClick={() => open('leave')}>
            Leave Buble
          </button>
        )}
      </div>
      {inviting.error && <Alert kind="error">{inviting.error}</Alert>}

      {invite && <InviteCodeModal invite={invite} buble={buble} onClose={() => setInvite(null)} />}

      {dialog === 'delete' && (
        <ConfirmDialog
          title="Delete Buble"
          confirmLabel="Delete Buble"
          busyLabel="Deleting…"
          danger
          busy={busy}
          error={dialogError}
          onConfirm={() => void remove('delete')}
          onCancel={cancel}
        >
          <p>
            Delete <strong>{buble.name}</strong> for everyone? Its wall, events, polls and member list are removed. This
            cannot be undone.
          </p>
        </ConfirmDialog>
      )}

      {dialog === 'leave' && (
        <ConfirmDialog
          title="Leave Buble"
          confirmLabel="Leave Buble"
          busyLabel="Leaving…"
          danger
          busy={busy}
          error={dialogError}
          onConfirm={() => void remove('leave')}
          onCancel={cancel}
        >
          <p>
            Leave <strong>{buble.name}</strong>? It disappears from your bubles, and you need a new invite code to come
            back.
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
