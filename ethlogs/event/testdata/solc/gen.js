// Compiles Topics.sol with solc-js (npm package solc, version pinned in
// the output) and writes the creation code and the ABI beside it:
//   npm install solc@0.8.37 && node gen.js
const fs = require('fs');
const path = require('path');
const solc = require('solc');
const input = {
  language: 'Solidity',
  sources: { 'Topics.sol': { content: fs.readFileSync(path.join(__dirname, 'Topics.sol'), 'utf8') } },
  settings: { optimizer: { enabled: false }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
for (const e of out.errors || []) {
  if (e.severity === 'error') { console.error(e.formattedMessage); process.exit(1); }
}
const c = out.contracts['Topics.sol'].Topics;
fs.writeFileSync(path.join(__dirname, 'Topics.bin'), c.evm.bytecode.object + '\n');
fs.writeFileSync(path.join(__dirname, 'Topics.abi.json'), JSON.stringify(c.abi, null, 1) + '\n');
fs.writeFileSync(path.join(__dirname, 'VERSION'), 'solc-js ' + solc.version() + '\n');
