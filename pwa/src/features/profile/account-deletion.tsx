import { DeletionStatus, MessageResponse, RequestDeletionResponse } from '@buble/shared/auth'
import { DELETION_GRACE_DAYS } from '@buble/shared/constants'
import { useState } from 'react'
import { messageOf } from '../../session/api-client.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { plural } from '../../ui/format.ts'
import { Modal } from '../../ui/modal.tsx'
import { DataExportButton } from './data-export.tsx'

export function timeRemaining({ days_remaining, hours_remaining }: DeletionStatus): string | null {
  if (days_remaining === null || hours_remaining === null) return null
  return `${plural(days_remaining, 'day')} and ${plural(hours_remaining, 'hour')} remaining`
}

const formatWhen = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'long', timeStyle: 'short' })

const NOT_REQUESTED: DeletionStatus = {
  deletion_requested: false,
  deletion_scheduled_for: null,
  days_remaining: null,
  hours_remaining: null,
}

function statusFor(scheduledFor: string): DeletionStatus {
  const hours = Math.max(0, Math.floor((Date.parse(scheduledFor) - Date.now()) / 3_600_000))
  return {
    deletion_requested: true,
    deletion_scheduled_for: scheduledFor,
    days_remaining: Math.floor(hours / 24),
    hours_remaining: hours % 24,
  }
}

interface AccountDeletionProps {
  deletion: DeletionStatus
  onChange: (deletion: DeletionStatus) => void
  onMessage: (message: string) => void
}

/** Delete Account and Cancel Deletion, with the scheduled date and time left (spec part 1 §4). */
export function AccountDeletion({ deletion, onChange, onMessage }: AccountDeletionProps) {
  const api = useApi()
  const [dialog, setDialog] = useState<'delete' | 'cancel' | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  const open = (which: 'delete' | 'cancel') => {
    setError(null)
    setDialog(which)
  }
  const close = () => setDialog(null)

  // After the call the status is fetched again; if only that fetch fails, what the call said is enough.
  async function run(action: () => Promise<{ message: string; status: DeletionStatus }>, fallback: string) {
    setBusy(true)
    setError(null)
    try {
      const { message, status } = await action()
      onChange(
        await api.get('/users/deletion-status').then(
          (answer) => DeletionStatus.parse(answer),
          () => status,
        ),
      )
      onMessage(message)
      setDialog(null)
    } catch (err) {
      setError(messageOf(err, fallback))
    } finally {
      setBusy(false)
    }
  }

  const requestDeletion = () =>
    run(async () => {
      const answer = RequestDeletionResponse.parse(await api.post('/users/request-deletion'))
      return { message: answer.message, status: statusFor(answer.deletion_scheduled_for) }
    }, 'Failed to request account deletion')
  const cancelDeletion = () =>
    run(async () => {
      const answer = MessageResponse.parse(await api.delete('/users/cancel-deletion'))
      return { message: answer.message, status: NOT_REQUESTED }
    }, 'Failed to cancel account deletion')

  return (
    <section className="card danger-zone" aria-labelledby="danger-zone-title">
      <h2 className="section-title" id="danger-zone-title">
        Delete account
      </h2>
      {deletion.deletion_requested && deletion.deletion_scheduled_for ? (
        <>
          <Alert kind="info">
            Your account is scheduled for deletion on <strong>{formatWhen(deletion.deletion_scheduled_for)}</strong>.{' '}
            {timeRemaining(deletion)}
          </Alert>
          <button type="button" className="btn btn-secondary" onClick={() => open('cancel')}>
            Cancel Deletion
          </button>
        </>
      ) : (
        <>
          <p className="muted">
            Deleting your account waits {DELETION_GRACE_DAYS} days, so you can change your mind. After that your
            profile, avatar and memberships are removed.
          </p>
          <button type="button" className="btn btn-danger" onClick={() => open('delete')}>
            Delete Account
          </button>
        </>
      )}

      {dialog === 'delete' && (
        <Modal
          title="Delete Account"
          onClose={busy ? undefined : close}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
                Keep my account
              </button>
              <button type="button" className="btn btn-danger" onClick={requestDeletion} disabled={busy}>
                {busy ? 'Requesting…' : 'Delete Account'}
              </button>
            </>
          }
        >
          {/* The way out first: a copy of their data before anything destructive. */}
          <p>Before you go, you can download a copy of your data.</p>
          <DataExportButton />
          {error && <Alert kind="error">{error}</Alert>}
          <p>
            Your account will be deleted in {DELETION_GRACE_DAYS} days. Until then you can sign in and cancel the
            deletion from your profile.
          </p>
          <p>
            After that, your profile, avatar, notification subscriptions and memberships are removed. Bubles you own
            pass to another member. Your posts and messages stay, shown as written by a deleted user.
          </p>
        </Modal>
      )}

      {dialog === 'cancel' && (
        <Modal
          title="Cancel Deletion"
          onClose={busy ? undefined : close}
          actions={
            <>
              <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
                Not now
              </button>
              <button type="button" className="btn btn-primary" onClick={cancelDeletion} disabled={busy}>
                {busy ? 'Cancelling…' : 'Cancel Deletion'}
              </button>
            </>
          }
        >
          {error && <Alert kind="error">{error}</Alert>}
          <p>Keep your account? It will no longer be deleted, and everything stays as it is.</p>
        </Modal>
      )}
    </section>
  )
}
