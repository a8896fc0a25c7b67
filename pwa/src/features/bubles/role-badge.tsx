import type { BubleRole } from '@buble/shared/permissions'

export const ROLE_LABEL: Record<BubleRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  moderator: 'Moderator',
  member: 'Member',
}

export function RoleBadge({ role }: { role: BubleRole }) {
  return <span className={`badge role-badge role-${role}`}>{ROLE_LABEL[role]}</span>
}
