import type { DonationConfig } from '@buble/shared/donations'
import { useRef, useState } from 'react'
import { Link } from 'react-router-dom'
import { Alert } from '../../ui/alert.tsx'
import { PublicHeader } from '../../ui/public-header.tsx'
import { Spinner } from '../../ui/spinner.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { type AmountChoice, AmountPicker, amountOf, defaultChoice } from './amount-picker.tsx'
import { BankDetails } from './bank-details.tsx'
import './donate.css'
import { DONATE_TEXTS } from './donate-texts.ts'
import { paypalUrl } from './paypal-link.ts'
import { PledgeForm } from './pledge-form.tsx'
import { ReturnBanners } from './return-banners.tsx'
import { useDonationConfig } from './use-donation-config.ts'

/** /donate (spec part 2 §2): public, online only; a way to give that is not configured is left out. */
export function DonateScreen() {
  useDocumentTitle('Donate')
  const load = useDonationConfig()
  const heading = useRef<HTMLHeadingElement>(null)
  return (
    <div className="public-page">
      <PublicHeader />
      <main className="prose donate-page">
        <h1 ref={heading} tabIndex={-1}>
          {DONATE_TEXTS.title}
        </h1>
        <ReturnBanners onDismissed={() => heading.current?.focus()} />
        <p className="lead">{DONATE_TEXTS.lead}</p>
        {load.status === 'loading' && <Spinner label="Loading donation options…" />}
        {load.status === 'failed' && (
          <div className="donate-failed">
            <Alert kind="error">{load.message}</Alert>
            <button type="button" className="btn btn-secondary" onClick={load.reload}>
              Try again
            </button>
          </div>
        )}
        {load.status === 'ready' && <DonationOptions config={load.data} />}
        <p className="donate-foot">
          <Link to="/privacy">Privacy policy</Link>
        </p>
      </main>
    </div>
  )
}

function DonationOptions({ config }: { config: DonationConfig }) {
  const [choice, setChoice] = useState<AmountChoice>(() => defaultChoice(config.suggestedAmounts))
  // An amount problem the pledge form or the server found; typing a new amount clears it.
  const [reported, setReported] = useState<string | null>(null)
  const { amount, problem } = amountOf(choice)
  const typing = choice.kind === 'custom' && choice.text.trim() !== ''
  const shownProblem = reported ?? (typing ? problem : null)
  const paypal = config.paypalLink
  return (
    <>
      <section aria-labelledby="donate-amount-title" className="card">
        <h2 id="donate-amount-title" className="section-title">
          Choose your gift
        </h2>
        <AmountPicker
          suggested={config.suggestedAmounts}
          currency={config.currency}
          choice={choice}
          error={shownProblem}
          onChoice={(next) => {
            setChoice(next)
            setReported(null)
          }}
        />
      </section>

      {(config.stripeLink || paypal) && (
        <section aria-labelledby="donate-now-title" className="card">
          <h2 id="donate-now-title" className="section-title">
            {DONATE_TEXTS.giveNow}
          </h2>
          <div className="donate-links">
            {config.stripeLink && (
              <a className="btn btn-primary" href={config.stripeLink} rel="noreferrer">
                {DONATE_TEXTS.card}
              </a>
            )}
            {paypal &&
              (amount === null ? (
                <button type="button" className="btn btn-secondary" disabled aria-describedby="donate-paypal-hint">
                  {DONATE_TEXTS.paypal}
                </button>
              ) : (
                <a
                  className="btn btn-secondary"
                  rel="noreferrer"
                  href={paypalUrl(paypal, { amount, currency: config.currency, origin: window.location.origin })}
                >
                  {DONATE_TEXTS.paypal}
                </a>
              ))}
          </div>
          {paypal && amount === null && (
            <p className="field-hint" id="donate-paypal-hint">
              {DONATE_TEXTS.chooseAmountFirst}
            </p>
          )}
          {config.stripeLink && <p className="field-hint">The card page lets you enter or confirm the amount there.</p>}
        </section>
      )}

      {(config.bankIban || config.bankBic) && <BankDetails config={config} />}

      <section aria-labelledby="donate-pledge-title" className="card">
        <h2 id="donate-pledge-title" className="section-title">
          {DONATE_TEXTS.pledge}
        </h2>
        <p className="muted">{DONATE_TEXTS.pledgeLead}</p>
        <PledgeForm amount={amount} amountProblem={problem} currency={config.currency} onAmountProblem={setReported} />
      </section>
    </>
  )
}
