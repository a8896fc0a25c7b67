import { can, canMute, MEMBER_ACTIONS, type MemberActor } from '@buble/shared/permissions'
import { useState } from 'react'
import type { LocalMember } from '../../data/bubles.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { MemberModal } from './member-modal.tsx'
import { mutedUntilText } from './mute-controls.tsx'
import { RoleBadge } from './role-badge.tsx'

interface MembersTabProps {
  bubleId: string
  /** Undefined while loading. */
  members: LocalMember[] | undefined
  actor: MemberActor
}

const manageable = (actor: MemberActor, member: LocalMember) => {
  const target = { userId: member.user_id, role: member.role }
  return canMute(actor, target) || MEMBER_ACTIONS.some((action) => can(actor, action, target))
}

export function MembersTab({ bubleId, members, actor }: MembersTabProps) {
  const [selected, setSelected] = useState<LocalMember | null>(null)
  // The row as synced now; a member just removed has left the list while the modal still says so.
  const shown = selected && (members?.find((member) => member.user_id === selected.user_id) ?? selected)

  return (
    <section className="card" aria-labelledby="members-title">
      <h2 className="section-title" id="members-title">
        Members
      </h2>
      {members === undefined ? (
        <Spinner label="Loading members…" />
      ) : members.length === 0 ? (
        <p className="muted">No members found.</p>
      ) : (
        <ul className="member-list">
          {members.map((member) => {
            const canManage = manageable(actor, member)
            const muted = mutedUntilText(member, Date.now())
            return (
              <li key={member.id} className={canManage ? 'member-row member-row-manageable' : 'member-row'}>
                <Avatar name={member.user.name} url={member.user.avatar_url} size={40} alt="" />
                <div className="member-text">
                  <span className="member-name clamp-1" title={member.user.name}>
                    {member.user.name}
                  </span>
                  <span className="member-email">{member.user.email}</span>
                  {muted && <span className="member-muted">{muted}</span>}
                </div>
                <div className="member-side">
                  <RoleBadge role={member.role} />
                  {canManage && (
                    // Its hit area covers the whole row, so clicking the member opens the modal too.
                    <button
                      type="button"
                      className="btn btn-secondary btn-small member-manage"
                      aria-haspopup="dialog"
                      onClick={() => setSelected(member)}
                    >
                      Manage <span className="visually-hidden">{member.user.name}</span>
                    </button>
                  )}
                </div>
              </li>
            )
          })}
        </ul>
      )}
      {shown && (
        <MemberModal
          key={shown.user_id}
          bubleId={bubleId}
          member={shown}
          actor={actor}
          onClose={() => setSelected(null)}
        />
      )}
    </section>
  )
}
