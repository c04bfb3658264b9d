import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { normalizeEmail, systemClock } from '@fmk/core';
import { migrateToLatest, openDatabase } from '../../db/index.ts';
import { verifyAudit, writeAudit } from '../../platform/audit/repo.ts';
import { loadConfig } from '../../platform/config.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { IdentityService } from '../identity/service.ts';
import * as repo from './repo/staff.ts';

/**
 * `npm run admin -- create-owner EMAIL`: the first owner (every later staff member comes through
 * an invite). An existing account becomes owner; otherwise one is made with a printed password.
 * `npm run admin -- verify-audit`: walks the audit log's hash chain; exit code 1 when broken.
 */
async function main(argv: string[]): Promise<number> {
  const [command, arg] = argv;
  const config = loadConfig();
  if (!config.databaseUrl && existsSync(path.join(config.dbDir, 'postmaster.pid'))) {
    console.error(`The embedded database in ${config.dbDir} is in use: stop the server first.`);
    return 1;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dbDir });
  try {
    await migrateToLatest(database.db);
    const db = database.db;
    if (command === 'create-owner') {
      if (!arg?.includes('@')) {
        console.error('Usage: npm run admin -- create-owner EMAIL');
        return 2;
      }
      const email = normalizeEmail(arg);
      const clock = systemClock;
      let user = await repo.findUserByEmail(db, email);
      let password: string | null = null;
      if (!user) {
        password = randomBytes(12).toString('base64url');
        const identity = new IdentityService({ config, clock });
        await identity.createUser(db, {
          email,
          passwordHash: await hashPassword(password),
          googleSub: null,
          source: 'email',
          host: 'cli',
        });
        user = await repo.findUserByEmail(db, email);
      }
      await db.transaction().execute(async (trx) => {
        await repo.upsertStaff(trx, { userId: user!.id, role: 'owner', invitedBy: null });
        await writeAudit(trx, {
          adminId: user!.id,
          action: 'create_owner',
          targetType: 'staff',
          targetId: user!.id,
          email,
          reason: 'command line',
          now: clock.now(),
        });
      });
      console.log(`${email} is an owner. Sign in at /admin/login and set up the second factor.`);
      if (password) console.log(`A new account was made; its password: ${password} (change it in Settings).`);
      return 0;
    }
    if (command === 'verify-audit') {
      const v = await verifyAudit(db);
      if (v.ok) {
        console.log(`Audit log intact: ${v.rows} rows, hash chain holds.`);
        return 0;
      }
      console.error(`Audit log BROKEN at row ${v.brokenAt}: ${v.why} (${v.rows} rows read).`);
      return 1;
    }
    console.error('Usage: npm run admin -- create-owner EMAIL | verify-audit');
    return 2;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
