import { explainPostgresError } from './postgres-refusals';

const URL_TLS = 'postgres://hookrail:s3cret-pw@db.example:6432/hookrail?sslmode=verify-full&sslrootcert=/etc/ca.pem';
const fail = (code: string | undefined, message: string): Error => Object.assign(new Error(message), { code });

describe('explainPostgresError (pure)', () => {
  it('names what to change in DATABASE_URL for each refusal that waiting cannot mend, never the password', () => {
    const cases: Array<[Error, RegExp]> = [
      [fail('28P01', 'password authentication failed for user "hookrail"'), /refuses the password of user hookrail/],
      [
        fail('28000', 'pg_hba.conf rejects connection for host "10.0.0.1", user "hookrail", no encryption'),
        /accepts only TLS connections: add sslmode=verify-full&sslrootcert=/,
      ],
      [fail('3D000', 'database "hookrail" does not exist'), /names database hookrail on db.example:6432/],
      [
        fail('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'),
        /TLS certificate of Postgres at db.example:6432 is not trusted .*sslrootcert in DATABASE_URL=\/etc\/ca.pem/,
      ],
      [fail('ERR_TLS_CERT_ALTNAME_INVALID', 'Hostname/IP does not match'), /does not name the host in DATABASE_URL/],
      [fail(undefined, 'The server does not support SSL connections'), /does not offer TLS.*sslmode=verify-full/],
      [
        fail('ENOENT', "ENOENT: no such file or directory, open '/etc/ca.pem'"),
        /sslrootcert=\/etc\/ca.pem cannot be read/,
      ],
    ];
    for (const [error, line] of cases) {
      const explained = explainPostgresError(error, URL_TLS);
      expect(explained).toMatch(line);
      expect(explained).not.toContain('s3cret-pw');
    }
  });

  it('finds the refusal in a wrapped error, and leaves an unreachable server to the wait', () => {
    const wrapped = Object.assign(new Error('Connection terminated'), { cause: fail('28P01', 'password failed') });
    expect(explainPostgresError(wrapped, URL_TLS)).toMatch(/refuses the password/);
    expect(explainPostgresError(fail('ECONNREFUSED', 'connect ECONNREFUSED'), URL_TLS)).toBeUndefined();
    expect(explainPostgresError(fail('57P03', 'the database system is starting up'), URL_TLS)).toBeUndefined();
  });
});
