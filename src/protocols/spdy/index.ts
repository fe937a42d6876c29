export { SPDY3_DICTIONARY } from './dictionary.js';
export * from './frames.js';
export { encodeHeaderBlock, decodeHeaderBlock, type SpdyHeaders } from './header-block.js';
export { HeaderCompressor, HeaderDecompressor } from './header-compression.js';
export { SpdyStream, SpdyStreamResetError, MAX_DATA_CHUNK, type StreamHost } from './stream.js';
export { SpdyConnection, DEFAULT_WINDOW_SIZE, type SpdyConnectionOptions, type SpdyConnectionEvents } from './connection.js';
