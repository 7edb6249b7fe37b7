// The bench's webhook receiver, in a process of its own so that it never shares a thread with the load it measures:
// `node -r @swc-node/register bench/webhooks/receiver.ts <port>`. Paths starting with /slow answer after 5 s,
// every other path at once. GET /receipts?prefix=/fast → [[webhook-id, Date.now() at receipt], …].
import http from 'node:http';

const port = Number(process.argv[2]);
const SLOW_MS = 5_000;
const receipts: Array<[string, string, number]> = [];

const server = http.createServer({ keepAliveTimeout: 60_000 }, (request, response) => {
  if (request.method === 'GET') {
    const url = new URL(request.url ?? '/', 'http://receiver');
    const prefix = url.searchParams.get('prefix') ?? '/';
    const rows = receipts.filter(([path]) => path.startsWith(prefix)).map(([, id, at]) => [id, at]);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows));
    return;
  }
  request.resume();
  request.on('end', () => {
    const path = request.url ?? '/';
    receipts.push([path, String(request.headers['webhook-id'] ?? ''), Date.now()]);
    if (path.startsWith('/slow')) setTimeout(() => response.writeHead(200).end(), SLOW_MS);
    else response.writeHead(200).end();
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
