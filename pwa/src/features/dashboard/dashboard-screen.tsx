import { useDocumentTitle } from '../../ui/use-document-title.ts'

// Creating and joining bubles arrive with the bubles feature (next issue); until then the buttons say so.
const COMING = 'Creating and joining bubles arrives in the next update'

export function DashboardScreen() {
  useDocumentTitle('Your Bubles')
  return (
    <div className="page">
      <div className="page-head">
        <h1>Your Bubles</h1>
        <div className="page-actions">
          <button type="button" className="btn btn-secondary" disabled title={COMING}>
            Join Buble
          </button>
          <button type="button" className="btn btn-primary" disabled title={COMING}>
            Create New Buble
          </button>
        </div>
      </div>
      <div className="empty-state">
        <div className="empty-illustration" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <h2>No bubles yet</h2>
        <p>Create a buble for your family, friends or club, or join one with an invite code from its owner.</p>
      </div>
    </div>
  )
}
