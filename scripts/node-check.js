'use strict';
/*
 * `npm start`'s first step: refuses a Node older than package.json's `engines` with one line
 * saying how to get Node 24, before anything else is loaded. Plain CommonJS in old syntax (no
 * optional chaining, no `??`), so that it runs, and refuses, on any Node npm may bring.
 */
var fs = require('fs');
var path = require('path');

/** The numbers of a version such as `v20.11.1` or `22.12`; missing parts are 0; null when unreadable. */
function versionParts(text) {
  var m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(String(text).trim());
  if (!m) return null;
  return [Number(m[1]), Number(m[2] || 0), Number(m[3] || 0)];
}

/**
 * Why Node `version` does not satisfy `engines` (a `>=X.Y[.Z]` range, as package.json's), as
 * the line to print; undefined when it does, or when the range is not of that form.
 */
function nodeRefusal(version, engines) {
  var range = /^>=\s*(\S+)$/.exec(String(engines).trim());
  var min = range ? versionParts(range[1]) : null;
  var have = versionParts(version);
  if (!min || !have) return undefined;
  for (var i = 0; i < 3; i++) {
    if (have[i] > min[i]) return undefined;
    if (have[i] < min[i])
      return (
        'cairn start: Node.js ' +
        String(version).replace(/^v/, '') +
        ' is older than this project needs (' +
        engines +
        '); `bash scripts/ensure-node.sh` installs Node 24 and prints its folder: put it first on PATH'
      );
  }
  return undefined;
}

module.exports = { nodeRefusal: nodeRefusal };

if (require.main === module) {
  var pkg = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  var why = nodeRefusal(process.versions.node, (pkg.engines && pkg.engines.node) || '');
  if (why) {
    process.stderr.write(why + '\n');
    process.exit(1);
  }
}
