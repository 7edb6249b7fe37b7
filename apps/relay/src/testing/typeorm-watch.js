// Preloaded (--require) into a relay under test: says so on stderr, then names every module that requires TypeORM.
const Module = require('node:module');

const load = Module._load;
process.stderr.write('typeorm-watch: on\n');
Module._load = function (request, parent, ...rest) {
  if (request === 'typeorm' || request.startsWith('typeorm/')) {
    process.stderr.write(`typeorm-watch: ${request} required by ${parent ? parent.filename : 'the entry'}\n`);
  }
  return load.call(this, request, parent, ...rest);
};
