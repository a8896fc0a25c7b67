/**
 * Issue 12's data for `npm run bench`, straight into PostgreSQL: the admin area's lists at size
 * (100,000 users spread over 100 bubles, 100,000 posts) with the bench user made a platform admin,
 * and a member with 10,000 posts of their own for the data export.
 *
 * Names are first name + surname, 100 surnames (20 stems × 5 endings) each shared by exactly 1% of
 * the seeded users, so `SEARCH_USERS` matches 1,000 of them (by name and by e-mail). One post in a
 * hundred asks about `SEARCH_POSTS`; the other 99% are everyday sentences that never contain it.
 */

import { v7 as uuidv7 } from 'uuid'
import type { DeviceContext } from './device.ts'
import { rolePermissionsSql, seedTransaction } from './seed.ts'

/** A surname 1% of the seeded users share (it is no part of any other seeded name or e-mail). */
export const SEARCH_USERS = 'lindqvist'
/** A word in 1% of the seeded posts (in no seeded name, e-mail or buble name). */
export const SEARCH_POSTS = 'kanelbullar'

const FIRST_NAMES = [
  'Anna',
  'Erik',
  'Maria',
  'Lars',
  'Karin',
  'Johan',
  'Sara',
  'Anders',
  'Emma',
  'Per',
  'Elin',
  'Nils',
  'Ida',
  'Oskar',
  'Linnea',
  'Magnus',
  'Frida',
  'Henrik',
  'Maja',
  'Gustav',
  'Alva',
  'Viktor',
  'Ebba',
  'Axel',
  'Wilma',
  'Olof',
  'Klara',
  'Jonas',
  'Astrid',
  'Mattias',
]
const STEMS = [
  'Lind',
  'Berg',
  'Holm',
  'Sjö',
  'Ek',
  'Dahl',
  'Sund',
  'Ny',
  'Al',
  'Ström',
  'Lund',
  'Fors',
  'Gran',
  'Hag',
  'Björk',
  'Ros',
  'Wall',
  'Nord',
  'Sand',
  'Ås',
]
const ENDINGS = ['qvist', 'gren', 'man', 'blad', 'ling']
/** Marks the seeded accounts (no password matches it): a later run finds and reuses them. */
const DUMMY_HASH = 'bench-dummy-password-hash'
/** What 99% of the posts say (then a running number, so no two are the same). */
const SENTENCES = [
  'Någon som vill gå en promenad runt sjön i helgen?',
  'Tack alla som hjälpte till med städdagen i lördags!',
  'Har någon sett en grå katt med vit nos? Den heter Sigge.',
  'Påminnelse: årsmötet är i föreningslokalen på torsdag kl 19.',
  'Jag har en barnvagn att skänka bort, hör av er.',
  'Vet någon en bra elektriker i området?',
  'Loppis på gården nästa söndag, alla är välkomna att sälja.',
  'Cykelrummet är fullt av gamla cyklar, märk era senast den 30:e.',
  'Fantastisk solnedgång över parken i kväll.',
  'Vi söker fler som vill vara med i odlingslotten i vår.',
  'Tvättstugan är stängd för reparation på måndag förmiddag.',
  'Någon som har en stege att låna ut över helgen?',
]
/** The 1% of posts `SEARCH_POSTS` finds. */
const SEARCHED_SENTENCE = `Vem tar med ${SEARCH_POSTS} till fikat på fredag?`

const textArray = (values: readonly string[]) => `array[${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')}]`

/**
 * `users` active users (a fixed dummy password hash, distinct e-mails, created one every 20 s back
 * from now) in `bubles` bubles of `users / bubles` members each, the first member its owner, and
 * `posts` posts spread evenly over the bubles (positions 1…n each), every one by a member of its
 * buble. The bench user becomes a platform admin. Planner statistics are refreshed after the commit.
 *
 * When an earlier run on the same database left at least as many seeded users and posts, they are
 * reused (only the admin role is granted): the tables would otherwise grow by 100,000 rows a run,
 * and the CSV export with them. Answers whether it seeded.
 */
/** Versioned rows a seed writes in one transaction (one may take at most 64,511 in SQL, decision 91). */
const SEED_PART = 50_000

export async function seedAdminData(
  ctx: DeviceContext,
  { users = 100_000, bubles = 100, posts = 100_000 }: { users?: number; bubles?: number; posts?: number } = {},
): Promise<boolean> {
  if (users % bubles !== 0) throw new Error('users must be a multiple of bubles')
  const perBuble = users / bubles
  const run = uuidv7().slice(-12)
  const maintenance = 'vacuum analyze users, bubles, memberships, posts'
  let seeded = false
  await seedTransaction(ctx.databaseUrl, maintenance, async (client, checkpoint) => {
    await client.query(`update users set role = 'admin' where id = $1`, [ctx.userId])
    const { rows } = await client.query<{ users: number; posts: number }>(
      `select (select count(*)::int from users where password_hash = $1 and status = 'active') as users,
              (select count(*)::int from posts p join bubles b on b.id = p.buble_id
               where b.slug like 'admin-%' and b.name like 'Kvarteret %') as posts`,
      [DUMMY_HASH],
    )
    if ((rows[0]?.users ?? 0) >= users && (rows[0]?.posts ?? 0) >= posts) return
    seeded = true
    await client.query(
      `create temporary table admin_users as
       select k, gen_random_uuid() as id,
              (${textArray(FIRST_NAMES)})[1 + (k * 7) % ${FIRST_NAMES.length}] as first,
              (${textArray(STEMS)})[1 + k % ${STEMS.length}] || (${textArray(ENDINGS)})[1 + (k / ${STEMS.length}) % ${ENDINGS.length}] as last
       from generate_series(1, $1::int) k`,
      [users],
    )
    await client.query(
      `insert into users (id, name, email, password_hash, email_verified, status, created_at, updated_at)
       select id, first || ' ' || last,
              translate(lower(first || '.' || last), 'åäö', 'aao') || '.' || $1::text || '.' || k || '@example.com',
              $3::text, true, 'active', now() - ($2::int - k) * interval '20 seconds',
              now() - ($2::int - k) * interval '20 seconds'
       from admin_users`,
      [run, users, DUMMY_HASH],
    )
    await client.query(
      `create temporary table admin_bubles as
       select k, gen_random_uuid() as id from generate_series(1, $1::int) k`,
      [bubles],
    )
    // Buble b: the users numbered b, b + bubles, b + 2·bubles…; user b owns it.
    await client.query(
      `insert into bubles (id, slug, name, owner_id)
       select b.id, 'admin-' || $1::text || '-' || b.k, 'Kvarteret ' || b.k, u.id
       from admin_bubles b join admin_users u on u.k = b.k`,
      [run],
    )
    // Versioned rows in parts of at most SEED_PART, a transaction each.
    for (let from = 1; from <= users; from += SEED_PART) {
      await checkpoint()
      await client.query(
        `insert into memberships (buble_id, user_id, role, permissions, joined_version, version)
         select buble_id, user_id, role,
           case role when 'owner' then ${rolePermissionsSql('owner')}
             else ${rolePermissionsSql('member')} end,
           v, v
         from (select b.id as buble_id, u.id as user_id, case when u.k <= $1 then 'owner' else 'member' end as role,
                      buble_next_version() as v
               from admin_users u join admin_bubles b on b.k = 1 + (u.k - 1) % $1
               where u.k between $2::int and $3::int order by u.k) m`,
        [bubles, from, from + SEED_PART - 1],
      )
    }
    // Post g: in buble 1 + (g − 1) % bubles, by one of its members, the oldest first.
    for (let from = 1; from <= posts; from += SEED_PART) {
      await checkpoint()
      await client.query(
        `insert into posts (id, buble_id, author_id, content, position, created_at, added_version, version)
         select gen_random_uuid(), b.id, u.id,
                case when g % 100 = 0 then $4::text
                  else (${textArray(SENTENCES)})[1 + g % ${SENTENCES.length}] || ' (' || g || ')' end,
                1 + (g - 1) / $2::int, now() - ($1::int - g) * interval '30 seconds', v, v
         from (select g, buble_next_version() as v from generate_series($5::int, $6::int) g) s
         join admin_bubles b on b.k = 1 + (g - 1) % $2::int
         join admin_users u on u.k = b.k + $2::int * ((g * 7) % $3::int)`,
        [posts, bubles, perBuble, SEARCHED_SENTENCE, from, Math.min(posts, from + SEED_PART - 1)],
      )
    }
    await client.query(
      `update bubles set changed_version = buble_next_version() where id in (select id from admin_bubles)`,
    )
  })
  return seeded
}

/**
 * A buble owned by `ctx`'s user (its only member) with `posts` posts by them: the member whose data
 * export is measured. Answers the buble's id.
 */
export async function seedMemberPosts(ctx: DeviceContext, posts: number): Promise<string> {
  const bubleId = uuidv7()
  const run = uuidv7().slice(-12)
  await seedTransaction(ctx.databaseUrl, 'vacuum analyze bubles, memberships, posts', async (client) => {
    await client.query(`insert into bubles (id, slug, name, owner_id) values ($1, $2, $3, $4)`, [
      bubleId,
      `export-${run}`,
      `Dagbok ${run}`,
      ctx.userId,
    ])
    await client.query(
      `insert into memberships (buble_id, user_id, role, permissions, joined_version, version)
       select $1, $2, 'owner', ${rolePermissionsSql('owner')}, v, v from (select buble_next_version() as v) as next`,
      [bubleId, ctx.userId],
    )
    await client.query(
      `insert into posts (id, buble_id, author_id, content, position, created_at, added_version, version)
       select gen_random_uuid(), $1, $2,
              (${textArray(SENTENCES)})[1 + g % ${SENTENCES.length}] || ' Inlägg ' || g || ': ' || repeat('lorem ipsum ', 1 + g % 12),
              g, now() - ($3::int - g) * interval '10 minutes', v, v
       from (select g, buble_next_version() as v from generate_series(1, $3::int) g) s`,
      [bubleId, ctx.userId, posts],
    )
    await client.query(`update bubles set changed_version = buble_next_version() where id = $1`, [bubleId])
  })
  return bubleId
}
