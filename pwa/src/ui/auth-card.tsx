import type { ReactNode } from 'react'
import { Link } from 'react-router-dom'
import './auth-card.css'

/** The centred card the signed-out pages share. */
export function AuthCard({
  title,
  subtitle,
  intro,
  children,
  footer,
}: {
  title: string
  subtitle?: ReactNode
  /** One line above the card's heading that says what Buble is (the first screen a visitor sees). */
  intro?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <Link to="/" className="brand brand-large" aria-label="Buble home">
          <img src="/icons/icon.svg" alt="" width="40" height="40" />
          <span>Buble</span>
        </Link>
        {intro && <p className="auth-intro">{intro}</p>}
        <h1>{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
        {footer && <div className="auth-footer">{footer}</div>}
      </div>
      <p className="auth-legal">
        <Link to="/privacy">Privacy policy</Link>
      </p>
    </main>
  )
}
