// qemu's user-mode net runs this per guest connection to a guestfwd address (cmd:...): stdin and
// stdout are the guest's TCP stream, joined here to HOST:PORT on this host's loopback.
import { connect } from 'node:net';

const [host, port] = process.argv.slice(2);
const socket = connect(Number(port), host);
process.stdin.pipe(socket);
socket.pipe(process.stdout);
process.stdin.on('end', () => socket.end());
socket.on('error', () => process.exit(1));
socket.on('close', () => process.exit(0));
