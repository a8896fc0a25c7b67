import { Invite } from '@buble/shared/bubles'
import { can, type MemberActor } from '@buble/shared/permissions'
import { useRef, useState } from 'react'
import { useNavigate } from 'react-router-dom'
import { type LocalBuble, useBubleActions } from '../../data/bubles.ts'
import { useOnlineCall } from '../../data/online.ts'
import { useApi } from '../../session/session-context.tsx'
import { Alert } from '../../ui/alert.tsx'
import { ConfirmDialog } from '../../ui/confirm-dialog.tsx'
import { ERROR_TEXTS } from '../../ui/error-texts.ts'
import { lazyPart } from '../../ui/lazy-part.ts'
import { MenuButton, type MenuItem } from '../../ui/menu-button.tsx'
import { useFlash } from '../../ui/use-flash.ts'
import { BUBLE_ACTION_TEXTS } from './buble-texts.ts'
import { useMute } from './mute-toggle.tsx'

const InviteCodeModal = lazyPart(() => import('./invite-code-modal.tsx'), 'InviteCodeModal', { fallback: null })
const RenameBubleModal = lazyPart(() => import('./rename-buble-modal.tsx'), 'RenameBubleModal', { fallback: null })

const INVITE_OFFLINE = 'You are offline. Generating an invite needs a connection.'
const INVITE_NOT_SYNCED = 'This Buble has not reached the server yet. Generate an invite once it is synced.'

interface BubleActionsProps {
  buble: LocalBuble
  actor: MemberActor
  /** Told before the buble is deleted or left here, so the page does not go looking for it on the server. */
  onRemoving: (removing: boolean) => void
}

/**
 * The title bar's overflow menu: Generate Invite, Mute, Rename, Leave and Delete, each only for whom it is
 * allowed (spec part 1 §2, §6: the owner invites and deletes, everyone else may leave). Delete comes last,
 * in red, below a separator, and still asks first.
 */
export function BubleActions({ buble, actor, onRemoving }: BubleActionsProps) {
  const { deleteBuble, leaveBuble } = useBubleActions()
  const api = useApi()
  const navigate = useNavigate()
  const [dialog, setDialog] = useState<'delete' | 'leave' | 'rename' | null>(null)
  const [busy, setBusy] = useState(false)
  const [dialogError, setDialogError] = useState<string | null>(null)
  const [invite, setInvite] = useState<Invite | null>(null)
  const [flash, showFlash] = useFlash()
  const box = useRef<HTMLDivElement>(null)
  const inviting = useOnlineCall(INVITE_OFFLINE)
  const mute = useMute(buble.id)

  async function generateInvite() {
    // Offline, that is what the member is told first.
    if (navigator.onLine && !buble.slug) return inviting.setError(INVITE_NOT_SYNCED)
    const outcome = await inviting.run(
      async () => Invite.parse(await api.post(`/bubles/${buble.id}/invites`, {})),
      ERROR_TEXTS.generateInvite,
    )
    if (outcome.ok) setInvite(outcome.value)
  }

  function open(which: 'delete' | 'leave' | 'rename') {
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
  const menuButton = () => box.current?.querySelector<HTMLButtonElement>('[aria-haspopup="menu"]')
  const items: MenuItem[] = []
  if (can(actor, 'invite.create'))
    items.push({
      key: 'invite',
      label: inviting.busy ? BUBLE_ACTION_TEXTS.generating : BUBLE_ACTION_TEXTS.invite,
      disabled: inviting.busy,
      onSelect: () => void generateInvite(),
    })
  if (mute && buble.slug)
    items.push({ key: 'mute', label: mute.label, disabled: mute.busy, onSelect: () => void mute.toggle() })
  if (can(actor, 'buble.rename'))
    items.push({ key: 'rename', label: BUBLE_ACTION_TEXTS.rename, onSelect: () => open('rename') })
  if (can(actor, 'buble.leave'))
    items.push({ key: 'leave', label: BUBLE_ACTION_TEXTS.leave, onSelect: () => open('leave') })
  if (can(actor, 'buble.delete'))
    items.push({ key: 'delete', label: BUBLE_ACTION_TEXTS.delete, danger: true, onSelect: () => open('delete') })

  return (
    <div className="buble-actions" ref={box}>
      <MenuButton label={BUBLE_ACTION_TEXTS.menu} items={items} className="btn btn-secondary icon-button menu-button">
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <circle cx="12" cy="5" r="2" fill="currentColor" />
          <circle cx="12" cy="12" r="2" fill="currentColor" />
          <circle cx="12" cy="19" r="2" fill="currentColor" />
        </svg>
      </MenuButton>
      <div className="buble-actions-news">
        {inviting.error && (
          <Alert kind="error">
            <span>{inviting.error}</span>{' '}
            {/* It lies over the page: the member puts it away (focus goes back to the menu). */}
            <button
              type="button"
              className="link-button"
              onClick={() => {
                inviting.setError(null)
                menuButton()?.focus()
              }}
            >
              {BUBLE_ACTION_TEXTS.dismiss}
            </button>
          </Alert>
        )}
        {flash && <Alert kind="success">{flash}</Alert>}
      </div>

      {invite && <InviteCodeModal invite={invite} buble={buble} onClose={() => setInvite(null)} />}

      {dialog === 'rename' && (
        <RenameBubleModal
          buble={buble}
          onClose={cancel}
          onSaved={() => {
            setDialog(null)
            showFlash(BUBLE_ACTION_TEXTS.renamed)
          }}
        />
      )}

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
