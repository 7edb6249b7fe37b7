// The starting point hookrail replaces: a webhook handler that does its slow work (200 ms) inside the request and
// only then answers. Run by ingress.bench.ts as the baseline; not part of hookrail.
import http from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const SLOW_STEP_MS = 200;

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      await new Promise((resolve) => setTimeout(resolve, SLOW_STEP_MS)); // e.g. call a partner API, send the email
      await pool.query('INSERT INTO naive_events (payload) VALUES ($1)', [body]);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('naive inline handler listening\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
