import { Link } from 'react-router-dom'
import { config } from '../../config.ts'
import { useSession } from '../../session/session-context.tsx'
import { useDocumentTitle } from '../../ui/use-document-title.ts'

export function PrivacyScreen() {
  useDocumentTitle('Privacy policy')
  const signedIn = useSession((state) => state.isAuthenticated)
  return (
    <div className="public-page">
      <header className="public-header">
        <Link to="/" className="brand" aria-label="Buble home">
          <img src="/icons/icon.svg" alt="" width="32" height="32" />
          <span>Buble</span>
        </Link>
        <Link to={signedIn ? '/dashboard' : '/login'} className="btn btn-secondary btn-small">
          {signedIn ? 'Back to your bubles' : 'Sign in'}
        </Link>
      </header>
      <main className="prose">
        <h1>Privacy policy</h1>
        <p className="lead">
          Buble is a place for small private groups. We keep only what the service needs to work, we never show ads, and
          we never sell or rent your data to anyone.
        </p>

        <h2>What we keep</h2>
        <ul>
          <li>
            <strong>Your account:</strong> your name, email address, a hashed password (never the password itself), your
            bio and profile picture, whether your email is verified, and when you joined.
          </li>
          <li>
            <strong>What you share in bubles:</strong> posts, comments, reactions, chat messages, stories, events, RSVPs
            and poll votes, and the bubles you belong to with your role in each.
          </li>
          <li>
            <strong>Uploads:</strong> the images and videos you add to a buble or use as your avatar.
          </li>
          <li>
            <strong>Device push subscriptions:</strong> if you allow notifications, the address your browser gives us
            for sending them. You can turn notifications off at any time in your browser.
          </li>
        </ul>
        <p>
          Your device also keeps a copy of your bubles so the app works offline. Signing out, or clearing the site data
          in your browser, removes it.
        </p>

        <h2>Bubles are private</h2>
        <p>
          Only the members of a buble can see what is shared in it. There are no public profiles or public feeds, and
          files are served only to signed-in members. Platform administrators can access data when they must, to keep
          the service running safely or to answer a legal request.
        </p>

        <h2>No ads, no selling</h2>
        <p>
          We do not show advertising, we do not build profiles for marketing, and we do not sell or share your data with
          advertisers or data brokers. Emails we send are about your account only.
        </p>

        <h2>Who can use Buble</h2>
        <p>You must be at least 13 years old to create an account.</p>

        <h2>Deleting your account</h2>
        <p>
          You can delete your account from your profile. Deletion waits 7 days first, so you can change your mind and
          cancel it. After that your account is closed and your personal data (profile, avatar, push subscriptions and
          memberships) is removed within 30 days. Posts and messages you wrote in a buble stay for its other members,
          shown as written by a deleted user.
        </p>

        <h2>Your rights</h2>
        <p>
          You can see and change your profile at any time, and you can ask us for a copy of your data, for a correction,
          or for deletion.
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
      </main>
    </div>
  )
}
