import { Link } from 'react-router-dom'
import { useDocumentTitle } from '../ui/use-document-title.ts'

export function NotFound() {
  useDocumentTitle('Page not found')
  return (
    <main className="full-page-center">
      <div className="empty-state">
        <p className="big-number" aria-hidden="true">
          404
        </p>
        <h1>Page not found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <Link to="/" className="btn btn-primary">
          Go home
        </Link>
      </div>
    </main>
  )
}
