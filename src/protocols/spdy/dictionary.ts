// The SPDY/3 header compression dictionary (draft 3, section 2.6.10.1).
// Both zlib contexts of a connection are primed with it; a peer checks its
// Adler-32, so the bytes must match exactly (1423 bytes).

// The first part is a list of length-prefixed words (4-byte big-endian length).
const PREFIXED_WORDS = [
  'options', 'head', 'post', 'put', 'delete', 'trace', 'accept', 'accept-charset',
  'accept-encoding', 'accept-language', 'accept-ranges', 'age', 'allow', 'authorization',
  'cache-control', 'connection', 'content-base', 'content-encoding', 'content-language',
  'content-length', 'content-location', 'content-md5', 'content-range', 'content-type',
  'date', 'etag', 'expect', 'expires', 'from', 'host', 'if-match', 'if-modified-since',
  'if-none-match', 'if-range', 'if-unmodified-since', 'last-modified', 'location',
  'max-forwards', 'pragma', 'proxy-authenticate', 'proxy-authorization', 'range', 'referer',
  'retry-after', 'server', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'user-agent',
  'vary', 'via', 'warning', 'www-authenticate', 'method', 'get', 'status', '200 OK',
  'version', 'HTTP/1.1', 'url', 'public', 'set-cookie', 'keep-alive', 'origin',
];

// The rest is plain concatenated text.
const TAIL = [
  '100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505',
  '203 Non-Authoritative Information', '204 No Content', '301 Moved Permanently',
  '400 Bad Request', '401 Unauthorized', '403 Forbidden', '404 Not Found',
  '500 Internal Server Error', '501 Not Implemented', '503 Service Unavailable',
  'Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 ',
  'Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT',
  'chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,',
  'text/plain,text/javascript,publicprivatemax-age=gzip,deflate,sdch',
  'charset=utf-8charset=iso-8859-1,utf-,*,enq=0.',
].join('');

function build(): Buffer {
  const parts: Buffer[] = [];
  for (const word of PREFIXED_WORDS) {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(word.length);
    parts.push(len, Buffer.from(word, 'latin1'));
  }
  parts.push(Buffer.from(TAIL, 'latin1'));
  return Buffer.concat(parts);
}

export const SPDY3_DICTIONARY: Buffer = build();
