// Child process of the pull benchmark: one pull into a fresh root, then prints
// "<image id> <peak RSS in KiB>". The peak is VmHWM: getrusage's ru_maxrss
// would include the parent's RSS inherited at fork.
import { readFileSync } from 'node:fs';
import { ImageService } from '../../src/runtime/image/image-service.js';

const [root, ref] = process.argv.slice(2);
const svc = await ImageService.open({ root: root!, state: `${root}-state`, authFile: `${root}-auths.json` });
const res = await svc.pullImage({ image: { image: ref! } });
const hwm = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? '0';
process.stdout.write(`${res.imageRef} ${hwm}\n`);
