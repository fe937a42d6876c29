// HTTP/2 bytes for tests that speak the wire format by hand (RFC 9113 section 4.1).
export { CLIENT_PREFACE, h2Frame } from '../../src/protocols/http2/frame.js';
