// The floor under the ingress's CPU per request on this machine: plain node:http, the body read and parsed, one
// prepared single-row INSERT per request, then 202. No framework, no signature, no validation, no outbox row, no
// metrics or logs. Run by ingress.bench.ts as a baseline; not part of hookrail.
import http from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const insert = { name: 'bare_insert', text: 'INSERT INTO bare_events (payload) VALUES ($1)' };

const server = http.createServer((request, response) => {
  if (request.method === 'GET') return void response.writeHead(200).end('ok'); // readiness
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      JSON.parse(text);
      await pool.query({ ...insert, values: [text] });
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('bare insert server listening\n'));
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
