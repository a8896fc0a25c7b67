import { PERMISSIONS } from '@buble/shared/permissions'
import { useId } from 'react'
import type { MemberAccess } from './member-access.ts'
import { PERMISSION_TEXTS } from './permission-texts.ts'
import { ROLE_LABEL } from './role-badge.tsx'

/** The role select and a checkbox per permission (thirteen with pin_posts); what the actor may not change is disabled. */
export function MemberAccessFields({ access }: { access: MemberAccess }) {
  const id = useId()
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-role`}>Role</label>
        <select
          id={`${id}-role`}
          value={access.role}
          disabled={!access.canChangeRole}
          onChange={(event) => access.chooseRole(event.target.value as MemberAccess['role'])}
        >
          {access.roles.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABEL[role]}
            </option>
          ))}
        </select>
        {access.canChangeRole && <p className="field-hint">A new role brings its default permissions.</p>}
      </div>
      <fieldset className="permission-set">
        <legend>Permissions</legend>
        {!access.canChangePermissions && (
          <p className="field-hint">You cannot change this member's permissions; they follow the role.</p>
        )}
        <ul className="permission-list">
          {PERMISSIONS.map((permission) => {
            const { label, hint } = PERMISSION_TEXTS[permission]
            const inputId = `${id}-${permission}`
            return (
              <li key={permission} className="permission">
                <input
                  type="checkbox"
                  id={inputId}
                  checked={access.granted.has(permission)}
                  disabled={!access.editable(permission)}
                  aria-describedby={`${inputId}-hint`}
                  onChange={(event) => access.toggle(permission, event.target.checked)}
                />
                <label htmlFor={inputId}>{label}</label>
                <span className="permission-hint" id={`${inputId}-hint`}>
                  {hint}
                </span>
              </li>
            )
          })}
        </ul>
      </fieldset>
    </>
  )
}
