import type { Invite } from '@buble/shared/bubles'
import { useId, useState } from 'react'
import { Alert } from '../../ui/alert.tsx'
import { formatMoment } from '../../ui/format.ts'
import { COPY_FAILED, useCopy } from '../../ui/use-copy.ts'
import { canShare, inviteLink } from './invite-link.ts'
import { INVITE_TEXTS } from './invite-texts.ts'
import './invites.css'

/**
 * One invite code and its link, each with its own Copy (Copied! only once the clipboard took it, Copy
 * again a few seconds later, an error if it failed), and Share where the browser has a share sheet.
 */
export function InviteShare({ invite, bubleName, revoked }: { invite: Invite; bubleName: string; revoked: boolean }) {
  const code = useCopy()
  const link = useCopy()
  const [shareFailed, setShareFailed] = useState(false)
  const linkId = useId()
  const url = inviteLink(invite.code)

  async function share() {
    setShareFailed(false)
    try {
      await navigator.share({
        title: INVITE_TEXTS.shareTitle(bubleName),
        text: INVITE_TEXTS.shareText(bubleName),
        url,
      })
    } catch (err) {
      // Closing the share sheet is no failure.
      if (!(err instanceof DOMException && err.name === 'AbortError')) setShareFailed(true)
    }
  }

  return (
    <div className="invite-share">
      <div className="invite-share-row">
        <p className={revoked ? 'invite-code invite-code-revoked' : 'invite-code'}>{invite.code}</p>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => void code.copy(invite.code)}
          disabled={revoked}
          data-autofocus
        >
          {code.copied ? INVITE_TEXTS.copied : INVITE_TEXTS.copyCode}
        </button>
      </div>
      {revoked ? (
        <p className="muted">{INVITE_TEXTS.revoked}</p>
      ) : (
        <p className="muted">Expires {formatMoment(invite.expires_at)}</p>
      )}
      <div className="field invite-link-field">
        <label htmlFor={linkId}>{INVITE_TEXTS.linkLabel}</label>
        <div className="invite-share-row">
          <input
            id={linkId}
            className="invite-link"
            value={url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            disabled={revoked}
          />
          <button type="button" className="btn btn-secondary" onClick={() => void link.copy(url)} disabled={revoked}>
            {link.copied ? INVITE_TEXTS.copied : INVITE_TEXTS.copyLink}
          </button>
          {canShare() && (
            <button type="button" className="btn btn-secondary" onClick={() => void share()} disabled={revoked}>
              {INVITE_TEXTS.share}
            </button>
          )}
        </div>
      </div>
      {(code.failed || link.failed) && <Alert kind="error">{COPY_FAILED}</Alert>}
      {shareFailed && <Alert kind="error">{INVITE_TEXTS.shareFailed}</Alert>}
    </div>
  )
}
