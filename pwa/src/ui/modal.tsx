/** An accessible modal dialog: focus moves in and stays in, Escape closes (when allowed), focus returns on close. */

import { type ReactNode, useEffect, useId, useRef } from 'react'
import { createPortal } from 'react-dom'

/**
 * The control a dialog was opened from. Usually what has the focus; but a click does not focus a button in
 * Safari (nor in Firefox on macOS), so the last control pressed counts too, when the focus is on the page itself.
 */
const FOCUSABLE_TARGET = 'a[href], button, input, select, textarea, summary, [tabindex]'
let lastPressed: HTMLElement | null = null
if (typeof document !== 'undefined')
  document.addEventListener(
    'pointerdown',
    (event) => {
      lastPressed = event.target instanceof Element ? event.target.closest<HTMLElement>(FOCUSABLE_TARGET) : null
    },
    true,
  )

function openerOf(active: Element | null): HTMLElement | null {
  const focused = active instanceof HTMLElement && active !== document.body ? active : null
  return focused ?? (lastPressed?.isConnected ? lastPressed : null)
}

/**
 * Gives the focus back to the dialog's opener. When the opener has gone meanwhile (a menu closed, the deleted
 * item's own button), the focus goes to its nearest remaining ancestor that takes it, else the page's main region.
 */
export function returnFocus(opener: HTMLElement | null, ancestors: readonly HTMLElement[]) {
  if (opener?.isConnected) return opener.focus()
  const kept = ancestors.find((node) => node.isConnected && node.matches(FOCUSABLE_TARGET))
  const main = document.querySelector<HTMLElement>('main')
  if (kept) return kept.focus()
  if (main) {
    if (!main.hasAttribute('tabindex')) main.setAttribute('tabindex', '-1')
    main.focus()
  }
}

const ancestorsOf = (node: HTMLElement | null): HTMLElement[] => {
  const list: HTMLElement[] = []
  for (let at = node?.parentElement ?? null; at && at !== document.body; at = at.parentElement) list.push(at)
  return list
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])'

interface ModalProps {
  title: string
  children: ReactNode
  /** Called on Escape and on a click outside; leave it out for a dialog that needs an answer. */
  onClose?: () => void
  /** Rendered in the footer. */
  actions?: ReactNode
  size?: 'small' | 'medium'
}

export function Modal({ title, children, onClose, actions, size = 'small' }: ModalProps) {
  const titleId = useId()
  const backdrop = useRef<HTMLDivElement>(null)
  const dialog = useRef<HTMLDivElement>(null)
  const closeRef = useRef(onClose)
  closeRef.current = onClose

  useEffect(() => {
    const opener = openerOf(document.activeElement)
    const ancestors = ancestorsOf(opener)
    const node = dialog.current
    const first = node?.querySelector<HTMLElement>('[data-autofocus]') ?? node?.querySelector<HTMLElement>(FOCUSABLE)
    ;(first ?? node)?.focus()
    return () => returnFocus(opener, ancestors)
  }, [])

  // A click on the backdrop (outside the dialog) closes it, like Escape.
  useEffect(() => {
    const node = backdrop.current
    const onMouseDown = (event: MouseEvent) => {
      if (event.target === node) closeRef.current?.()
    }
    node?.addEventListener('mousedown', onMouseDown)
    return () => node?.removeEventListener('mousedown', onMouseDown)
  }, [])

  function onKeyDown(event: React.KeyboardEvent) {
    if (event.key === 'Escape' && closeRef.current) {
      event.stopPropagation()
      closeRef.current()
      return
    }
    if (event.key !== 'Tab' || !dialog.current) return
    const items = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)]
    if (items.length === 0) return event.preventDefault()
    const first = items[0]!
    const last = items[items.length - 1]!
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault()
      first.focus()
    }
  }

  return createPortal(
    <div ref={backdrop} className="modal-backdrop">
      <div
        ref={dialog}
        className={`modal modal-${size}`}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
      >
        <h2 id={titleId} className="modal-title">
          {title}
        </h2>
        <div className="modal-body">{children}</div>
        {actions && <div className="modal-actions">{actions}</div>}
      </div>
    </div>,
    document.body,
  )
}
