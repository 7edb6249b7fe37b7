// Two baselines for ingress.bench.ts in one server, not part of hookrail: a handler that does its work inside the
// request and answers after it. Plain node:http, the body read and parsed, STEP_MS of slow work (a partner API, an
// email), one prepared single-row INSERT, then 202. No framework, signature, validation, outbox row, metrics or logs.
//   STEP_MS=200: the naive inline handler, the design hookrail replaces;
//   STEP_MS=0:   the floor under the ingress's CPU per request on this machine.
// GET answers 200 at once, for readiness.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 20 });
const STEP_MS = Number(process.env.STEP_MS || 0);
const insert = { name: 'inline_insert', text: 'INSERT INTO inline_events (payload) VALUES ($1)' };

const server = http.createServer((request, response) => {
  if (request.method === 'GET') return void response.writeHead(200).end('ok');
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      JSON.parse(text);
      if (STEP_MS > 0) await sleep(STEP_MS);
      await pool.query({ ...insert, values: [text] });
      response.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"accepted"}');
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
});

server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
