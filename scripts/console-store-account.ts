/**
 * Makes the console's store account on a cluster and prints a new token for it (decision 105):
 *
 *   CLUSTER_URL=https://cluster.example.com CLUSTER_ADMIN_EMAIL=… CLUSTER_ADMIN_PASSWORD=… \
 *     npx tsx scripts/console-store-account.ts
 *
 * Give the printed token to every replica of the console as CONSOLE_STORE_TOKEN. The account gets
 * its role (scoped to the cluster_console project) when an org admin first saves a query or turns
 * the history on in Settings. Earlier tokens of the account stay valid (revoke them on the cluster
 * once no replica uses them). The token goes to standard output only.
 */
import { provisionStoreAccount } from '../server/store-account'

const url = process.env.CLUSTER_URL?.replace(/\/+$/, '')
const email = process.env.CLUSTER_ADMIN_EMAIL
const password = process.env.CLUSTER_ADMIN_PASSWORD
if (!url || !email || !password) {
  console.error('Set CLUSTER_URL, CLUSTER_ADMIN_EMAIL and CLUSTER_ADMIN_PASSWORD (an org admin of the cluster).')
  process.exit(1)
}
provisionStoreAccount(url, { email, password }, { revokeEarlier: false }).then(
  (token) => console.log(token),
  (error: unknown) => {
    console.error(`The store account could not be made: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(1)
  },
)
