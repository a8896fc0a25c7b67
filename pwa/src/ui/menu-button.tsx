import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'

export interface MenuItem {
  key: string
  label: string
  onSelect: () => void
  /** A destructive action: shown in red, below a separator. */
  danger?: boolean
  disabled?: boolean
}

interface MenuButtonProps {
  /** The button's accessible name (its face may be an icon). */
  label: string
  items: readonly MenuItem[]
  /** What the button shows; the label when left out. */
  children?: ReactNode
  className?: string
}

/**
 * A button that opens a menu of actions (the WAI-ARIA menu button pattern): Enter, Space or ↓ open it on
 * its first item, ↑ on its last; ↑ ↓ Home End move; Escape closes it and gives the focus back to the
 * button; Tab or a click elsewhere closes it. Choosing an item closes the menu first, then acts.
 */
export function MenuButton({ label, items, children, className = 'btn btn-secondary menu-button' }: MenuButtonProps) {
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  const menuId = useId()
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)
  const enabled = items.map((item, index) => (item.disabled ? -1 : index)).filter((index) => index >= 0)

  useEffect(() => {
    if (!open) return
    const node = menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]')[active]
    node?.focus()
  }, [open, active])

  useEffect(() => {
    if (!open) return
    const away = (event: PointerEvent) => {
      const target = event.target as Node
      if (!menu.current?.contains(target) && !button.current?.contains(target)) setOpen(false)
    }
    document.addEventListener('pointerdown', away)
    return () => document.removeEventListener('pointerdown', away)
  }, [open])

  if (items.length === 0) return null

  function show(at: 'first' | 'last') {
    setActive((at === 'first' ? enabled[0] : enabled.at(-1)) ?? 0)
    setOpen(true)
  }

  function close(refocus: boolean) {
    setOpen(false)
    if (refocus) button.current?.focus()
  }

  function onButtonKey(event: KeyboardEvent) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      show(event.key === 'ArrowDown' ? 'first' : 'last')
    }
  }

  function move(by: number) {
    const at = enabled.indexOf(active)
    const next = enabled[(at + by + enabled.length) % enabled.length]
    if (next !== undefined) setActive(next)
  }

  function onMenuKey(event: KeyboardEvent) {
    switch (event.key) {
      case 'ArrowDown':
        move(1)
        break
      case 'ArrowUp':
        move(-1)
        break
      case 'Home':
        setActive(enabled[0] ?? 0)
        break
      case 'End':
        setActive(enabled.at(-1) ?? 0)
        break
      case 'Escape':
        close(true)
        break
      case 'Tab':
        close(false)
        return
      default:
        return
    }
    event.preventDefault()
  }

  function choose(item: MenuItem) {
    if (item.disabled) return
    close(true)
    item.onSelect()
  }

  return (
    <div className="menu-wrap">
      <button
        ref={button}
        type="button"
        className={className}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        aria-label={children ? label : undefined}
        onClick={() => (open ? close(false) : show('first'))}
        onKeyDown={onButtonKey}
      >
        {children ?? label}
      </button>
      {open && (
        <div ref={menu} id={menuId} className="menu" role="menu" aria-label={label} onKeyDown={onMenuKey}>
          {items.map((item, index) => (
            <button
              key={item.key}
              type="button"
              role="menuitem"
              tabIndex={index === active ? 0 : -1}
              aria-disabled={item.disabled || undefined}
              className={item.danger ? 'menu-item menu-item-danger' : 'menu-item'}
              onClick={() => choose(item)}
            >
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  )
}
