import { PRIVACY_FACTS } from './privacy-facts.ts'

/** What Buble keeps and where (api/src/db/schema.ts, the device's replica, the service worker), in plain words. */
export function StoredData() {
  return (
    <>
      <h2>What Buble keeps on its server</h2>
      <p>
        Everything below lives in Buble's database, on the server of whoever runs this Buble service, unless it says
        otherwise.
      </p>
      <ul>
        <li>
          <strong>Your account:</strong> your name, email address, a hash of your password (never the password itself),
          your bio and profile picture, whether your email is verified, your role, when you joined, whether you want
          notifications, and the date of a deletion you asked for. Links we email you (verification, password reset,
          invitations) are stored only as a hash and expire.
        </li>
        <li>
          <strong>Memberships:</strong> the bubles you belong to, your role and permissions in each and when you joined,
          and the invite codes you created or used (with the email address an invitation was sent to).
        </li>
        <li>
          <strong>Posts, comments and reactions</strong> you share on a buble's wall, and the preview (title,
          description, image address) of any link you post.
        </li>
        <li>
          <strong>Stories:</strong> the image or video and who posted it. A story lives {PRIVACY_FACTS.storyHours}{' '}
          hours; then it and its file are deleted.
        </li>
        <li>
          <strong>Events and RSVPs:</strong> the events you create and your answers (going, maybe, can't go).
        </li>
        <li>
          <strong>Polls and votes:</strong> the polls you create and the option you voted for.
        </li>
        <li>
          <strong>Chat:</strong> your messages, replies, images and reactions in each buble's chat.
        </li>
        <li>
          <strong>Uploads:</strong> avatars, images and story videos are files on the server's disk, in its data
          directory (<code>DATA_DIR</code>). They are only ever served to signed-in users, and buble files only to that
          buble's members. Files nothing refers to any more are removed.
        </li>
        <li>
          <strong>Push subscriptions:</strong> if you turn notifications on, the address your browser's push service
          gave this device, its encryption keys, and the bubles you muted.
        </li>
        <li>
          <strong>Read marks:</strong> when you last opened each tab of each buble, so the unread counters are right on
          all your devices.
        </li>
        <li>
          <strong>Sync records:</strong> the result of each change your devices sent, and notes of what was deleted, so
          a change sent twice is applied once. They are removed after {PRIVACY_FACTS.syncRecordDays} days.
        </li>
        <li>
          <strong>Rate-limit counters:</strong> your IP address (and, for sign-in and email requests, the email address
          used) with a count of recent attempts. They stop counting after 15 minutes to an hour and are used only to
          stop abuse.
        </li>
        <li>
          <strong>Donation pledges:</strong> the name, email, amount, currency and message you send with the pledge form
          on the donate page. A pledge is not linked to an account.
        </li>
        <li>
          <strong>Admin audit log:</strong> every change a platform administrator makes in the admin area: which
          administrator, what they did, to which item (with a short label such as its name or title), and when.
        </li>
        <li>
          <strong>Emails:</strong> if the service has no mail server set up, the emails it would send are written to its
          data directory instead.
        </li>
      </ul>

      <h2>What stays on your device</h2>
      <ul>
        <li>
          <strong>Your sign-in:</strong> your session token and profile, in your browser's local storage. Buble uses no
          cookies.
        </li>
        <li>
          <strong>A copy of your bubles:</strong> posts, comments, events, polls, chat and members are kept in your
          browser's database (IndexedDB) so the app works offline, together with the outbox of changes you made offline
          that have not reached the server yet.
        </li>
        <li>
          <strong>The app itself:</strong> the service worker caches Buble's own files (code, styles, icons) so the app
          opens without a connection. That cache holds no personal data.
        </li>
      </ul>
      <p>Signing out removes your copy and outbox from the device; clearing the site data in your browser does too.</p>
    </>
  )
}

/** The services outside Buble that it talks to, and what they learn. */
export function OutsideServices() {
  return (
    <>
      <h2>No trackers</h2>
      <p>
        Buble uses no analytics, no advertising and no third-party trackers. Its pages load nothing from other sites: no
        outside scripts, fonts or images, which the page's security policy enforces.
      </p>

      <h2>Services Buble contacts</h2>
      <ul>
        <li>
          <strong>Open-Meteo</strong>, for the weather widget: Buble's server asks for the forecast of a place name. No
          account data is sent.
        </li>
        <li>
          <strong>Ticketmaster</strong>, for the local events finder, only when this service has a Ticketmaster key:
          Buble's server sends your search (city or country, dates, category, and your approximate position if you
          choose to search near you). Ticketmaster sees Buble's server, not you.
        </li>
        <li>
          <strong>Your browser's push service</strong> (run by the browser's maker) delivers notifications if you turn
          them on. Their content is encrypted for your device; the push service sees only that one was sent.
        </li>
        <li>
          <strong>Linked websites:</strong> when a post contains a link, Buble's server fetches that page to show a
          preview. The website sees Buble's server, not you.
        </li>
        <li>
          <strong>Email:</strong> account emails go out through the mail server this service is set up with.
        </li>
        <li>
          <strong>Donations:</strong> the card and PayPal buttons on the donate page take you to those providers' own
          sites. What you enter there is handled by them; Buble never sees your card or account details.
        </li>
      </ul>
    </>
  )
}
