// Preloaded into the OCR child process (and its worker threads): any attempt to open a network connection throws.
const net = process.getBuiltinModule('node:net');
const dns = process.getBuiltinModule('node:dns');
net.Socket.prototype.connect = function refuse() {
  throw new Error('network access attempted (net.Socket.connect)');
};
dns.lookup = function refuse() {
  throw new Error('network access attempted (dns.lookup)');
};
