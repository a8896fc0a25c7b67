import { useMembers } from '../../data/bubles.ts'
import { Avatar } from '../../ui/avatar.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { RoleBadge } from './role-badge.tsx'

export function MembersTab({ bubleId }: { bubleId: string }) {
  const members = useMembers(bubleId)
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
          {members.map((member) => (
            <li key={member.id} className="member-row">
              <Avatar name={member.user.name} url={member.user.avatar_url} size={40} alt="" />
              <div className="member-text">
                <span className="member-name">{member.user.name}</span>
                <span className="member-email">{member.user.email}</span>
              </div>
              <RoleBadge role={member.role} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
