import type { ReactNode } from 'react'

type AlertKind = 'error' | 'success' | 'info' | 'warning'

// Errors are announced at once, outcomes politely; a warning is standing advice beside a form, not news.
const ROLE: Record<AlertKind, 'alert' | 'status' | 'note'> = {
  error: 'alert',
  success: 'status',
  info: 'status',
  warning: 'note',
}

/** An inline message. */
export function Alert({ kind, children }: { kind: AlertKind; children: ReactNode }) {
  return (
    <div className={`alert alert-${kind}`} role={ROLE[kind]}>
      {children}
    </div>
  )
}
