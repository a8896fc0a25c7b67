import { Link } from 'react-router-dom'
import { config } from '../../config.ts'
import { useSession } from '../../session/session-context.tsx'
import { PublicHeader } from '../../ui/public-header.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'
import { PRIVACY_FACTS } from './privacy-facts.ts'
import { OutsideServices, StoredData } from './stored-data.tsx'

/** /privacy (spec part 2 §2): public; the policy facts of spec part 2 §1 and what Buble really keeps. */
export function PrivacyScreen() {
  useDocumentTitle('Privacy policy')
  const signedIn = useSession((state) => state.isAuthenticated)
  return (
    <div className="public-page">
      <PublicHeader />
      <main className="prose">
        <h1>Privacy policy</h1>
        <p className="lead">
          Buble is a place for small private groups. It keeps only what the service needs to work, shows no ads, uses no
          trackers, and never sells or rents your data to anyone.
        </p>

        <h2>Who can use Buble</h2>
        <p>You must be at least {PRIVACY_FACTS.minimumAge} years old to create an account.</p>

        <h2>Bubles are private</h2>
        <p>
          Only the members of a buble can see what is shared in it. There are no public profiles or public feeds.
          Platform administrators can see and remove data when they must, to keep the service running safely; every
          change they make is written to the audit log.
        </p>

        <StoredData />
        <OutsideServices />

        <h2>Your data, your copy</h2>
        <p>
          You can see and change your profile at any time, and download everything Buble keeps about you with{' '}
          <strong>Download my data</strong> on your {signedIn ? <Link to="/profile">profile</Link> : 'profile'}.
        </p>

        <h2>Deleting your account</h2>
        <p>
          You can delete your account from your profile. Deletion waits {PRIVACY_FACTS.deletionGraceDays} days first, so
          you can change your mind and cancel it. Then your account is closed, and your personal data (profile, avatar,
          push subscriptions and memberships) is removed within {PRIVACY_FACTS.removalDays} days of the deletion. Posts,
          comments and messages you wrote in a buble stay for its other members, shown as written by "Deleted user".
          Bubles you own pass to another member, or are deleted when nobody else is in them.
        </p>

        <h2>Contact</h2>
        {config.contactEmail ? (
          <p>
            Questions or requests about your data? Write to{' '}
            <a href={`mailto:${config.contactEmail}`}>{config.contactEmail}</a> and we will answer within 30 days.
          </p>
        ) : (
          <p>
            Questions or requests about your data? Contact the administrators of this Buble service; they answer within
            30 days.
          </p>
        )}

        <h2>Supporting Buble</h2>
        <p>
          Buble is kept free of ads by people who chip in. <Link to="/donate">Donate</Link> if you would like to help.
        </p>
      </main>
    </div>
  )
}
