import type { DonationConfig } from '@buble/shared/donations'
import { useCopy } from '../../ui/use-copy.ts'
import { DONATE_TEXTS } from './donate-texts.ts'

/** IBAN, BIC and currency for a transfer, with the IBAN one click from the clipboard. */
export function BankDetails({ config }: { config: DonationConfig }) {
  const { copied, failed, copy } = useCopy()
  return (
    <section aria-labelledby="donate-bank-title" className="card">
      <h2 id="donate-bank-title" className="section-title">
        {DONATE_TEXTS.bank}
      </h2>
      <dl className="facts donate-bank">
        {config.bankIban && (
          <div>
            <dt>IBAN</dt>
            <dd className="donate-code">{config.bankIban}</dd>
          </div>
        )}
        {config.bankBic && (
          <div>
            <dt>BIC</dt>
            <dd className="donate-code">{config.bankBic}</dd>
          </div>
        )}
        <div>
          <dt>Currency</dt>
          <dd>{config.currency}</dd>
        </div>
      </dl>
      {config.bankIban && (
        <>
          <button
            type="button"
            className="btn btn-small btn-secondary"
            onClick={() => void copy(config.bankIban ?? '')}
          >
            Copy IBAN
          </button>
          <span className="donate-copy-state" role="status">
            {copied ? 'IBAN copied' : failed ? 'Could not copy. Select the IBAN and copy it yourself.' : ''}
          </span>
        </>
      )}
    </section>
  )
}
