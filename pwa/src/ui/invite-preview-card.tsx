import { Avatar } from './avatar.tsx'
import './invite-preview-card.css'

export const INVITE_PREVIEW_TEXTS = {
  invitedBy: (name: string) => `${name} invited you`,
  invited: 'You have been invited',
} as const

/**
 * Whom an invite is from and where it leads (issue 21 §4): the buble's avatar (drawn from its name)
 * and name, and who invited you. The join page, the join dialog and an e-mail invite's sign-up page
 * show it; long names are cut with an ellipsis, the full name in the title.
 */
export function InvitePreviewCard({ bubleName, inviterName }: { bubleName: string; inviterName: string | null }) {
  const invitedBy = inviterName ? INVITE_PREVIEW_TEXTS.invitedBy(inviterName) : INVITE_PREVIEW_TEXTS.invited
  return (
    <div className="invite-preview">
      <Avatar name={bubleName} size={56} alt="" />
      <div className="invite-preview-text">
        <p className="invite-preview-name" title={bubleName}>
          {bubleName}
        </p>
        <p className="invite-preview-by" title={invitedBy}>
          {invitedBy}
        </p>
      </div>
    </div>
  )
}
