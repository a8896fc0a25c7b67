import { useSearchParams } from 'react-router-dom'
import { DONATE_TEXTS } from './donate-texts.ts'

/** The banner PayPal's way back asks for (`?success=true`, `?cancelled=true`), until dismissed. */
export function ReturnBanners({ onDismissed }: { onDismissed: () => void }) {
  const [params, setParams] = useSearchParams()
  const dismiss = (key: string) => {
    const next = new URLSearchParams(params)
    next.delete(key)
    setParams(next, { replace: true })
    onDismissed()
  }
  const banners = [
    { key: 'success', kind: 'success', text: DONATE_TEXTS.success },
    { key: 'cancelled', kind: 'info', text: DONATE_TEXTS.cancelled },
  ] as const
  return banners
    .filter(({ key }) => params.get(key) === 'true')
    .map(({ key, kind, text }) => (
      <div key={key} className={`alert alert-${kind} donate-banner`} role="status">
        <p>{text}</p>
        <button type="button" className="btn btn-small btn-secondary" onClick={() => dismiss(key)}>
          {DONATE_TEXTS.dismiss}
        </button>
      </div>
    ))
}
