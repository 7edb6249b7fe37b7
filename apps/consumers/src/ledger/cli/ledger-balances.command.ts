// npm run ledger:balances [-- <customer id>] — what each customer owes, per currency, in minor units.
import 'reflect-metadata';
import { connect, DEFAULT_DATABASE_URL } from '@app/db';
import { findLedgerBalances } from '../ledger-entries.repository';

async function main(): Promise<void> {
  const dataSource = await connect({
    url: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    applicationName: 'hookrail-ledger-balances',
    poolSize: 1,
  });
  try {
    const customerId = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
    const balances = await findLedgerBalances(dataSource, customerId);
    if (process.argv.includes('--json')) {
      process.stdout.write(`${JSON.stringify(balances)}\n`);
      return;
    }
    if (balances.length === 0) process.stdout.write('no ledger entries\n');
    for (const row of balances)
      process.stdout.write(
        `${row.customerId.padEnd(24)} ${row.currency} ${row.balance.padStart(14)}  (${row.entries} entries)\n`,
      );
  } finally {
    await dataSource.destroy();
  }
}

main().catch((error: Error) => {
  process.stderr.write(`ledger:balances: ${error.message}\n`);
  process.exit(1);
});
